// A line plot rendered to PNG without dependencies (bench/png.mjs, bench/font.mjs): axes with tick
// labels at round values, light grid lines, one line per series (solid or dashed), dotted vertical
// markers and a legend. Used by the soak for resident memory against requests.
import { ADVANCE, GLYPH_HEIGHT, GLYPH_WIDTH, glyph } from "./font.mjs";
import { encodePng } from "./png.mjs";

const BLACK = [20, 20, 20];
const GRID = [225, 225, 225];
const GREY = [110, 110, 110];
const LEGEND_ROW = 28;

class Canvas {
  constructor(width, height) {
    this.width = width;
    this.height = height;
    this.rgb = new Uint8Array(width * height * 3).fill(255);
  }

  set(x, y, [r, g, b]) {
    x = Math.round(x);
    y = Math.round(y);
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const at = (y * this.width + x) * 3;
    this.rgb[at] = r;
    this.rgb[at + 1] = g;
    this.rgb[at + 2] = b;
  }

  rect(x, y, w, h, color) {
    for (let j = 0; j < h; j++) for (let i = 0; i < w; i++) this.set(x + i, y + j, color);
  }

  /** A line `thickness` pixels wide; `dash` [on, off] in pixels along the line, or none. */
  line(x0, y0, x1, y1, color, thickness = 1, dash = null, phase = 0) {
    const length = Math.hypot(x1 - x0, y1 - y0);
    const steps = Math.max(1, Math.ceil(length * 2));
    const half = Math.floor((thickness - 1) / 2);
    for (let s = 0; s <= steps; s++) {
      const along = phase + (length * s) / steps;
      if (dash && along % (dash[0] + dash[1]) >= dash[0]) continue;
      const x = x0 + ((x1 - x0) * s) / steps;
      const y = y0 + ((y1 - y0) * s) / steps;
      this.rect(Math.round(x) - half, Math.round(y) - half, thickness, thickness, color);
    }
    return phase + length;
  }

  /** Text with its top-left corner at (x, y); `vertical` runs it bottom to top from (x, y) as its bottom-left. */
  text(x, y, text, { scale = 2, color = BLACK, vertical = false } = {}) {
    [...text].forEach((char, n) => {
      const rows = glyph(char);
      for (let row = 0; row < GLYPH_HEIGHT; row++)
        for (let col = 0; col < GLYPH_WIDTH; col++) {
          if (!(rows[row] & (1 << (GLYPH_WIDTH - 1 - col)))) continue;
          const u = (n * ADVANCE + col) * scale;
          const v = row * scale;
          if (vertical) this.rect(x + v, y - u - scale, scale, scale, color);
          else this.rect(x + u, y + v, scale, scale, color);
        }
    });
  }
}

export const textWidth = (text, scale = 2) => (text.length * ADVANCE - 1) * scale;

/** A round step (1, 2 or 5 times a power of ten) giving at most `count` intervals over `range`. */
export function niceStep(range, count) {
  const raw = range / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((m) => m * magnitude >= raw) * magnitude;
  return step;
}

function axisMax(max, count) {
  if (!(max > 0)) return { top: 1, step: 0.2 };
  const step = niceStep(max, count);
  // A hair over a round value (500,002 requests of 500,000) does not take another step.
  return { top: Math.ceil(max / step - 1e-3) * step, step };
}

const label = (value, step) => {
  const digits = step >= 1 ? 0 : Math.min(6, Math.ceil(-Math.log10(step)));
  return value.toFixed(digits).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
};

/**
 * Renders a plot to a PNG buffer. `series`: [{label, color: [r, g, b], points: [[x, y]], dashed?}];
 * `markers`: [{x, label}], dotted vertical lines; `xMax` the least the x axis shows. Both axes start at 0.
 */
export function renderPlot({ width = 1100, height = 700, title, xLabel, yLabel, series, markers = [], xMax = 0 }) {
  const c = new Canvas(width, height);
  const left = 110;
  const right = width - 40;
  const top = 70;
  // The legend sits under the plot, two entries a row when they fit, so it never hides a line.
  const entryWidth = 72 + Math.max(...series.map((s) => textWidth(s.label)));
  const columns = 2 * entryWidth <= right - left ? 2 : 1;
  const legendTop = height - 20 - Math.ceil(series.length / columns) * LEGEND_ROW;
  const bottom = legendTop - 90;
  const all = series.flatMap((s) => s.points);
  const x = axisMax(Math.max(xMax, ...all.map((p) => p[0])), 10);
  const y = axisMax(Math.max(0, ...all.map((p) => p[1])) * 1.05, 8);
  const px = (v) => left + ((right - left) * v) / x.top;
  const py = (v) => bottom - ((bottom - top) * v) / y.top;

  c.text((width - textWidth(title)) / 2, 22, title);
  for (let v = 0; v <= y.top + y.step / 2; v += y.step) {
    c.line(left, py(v), right, py(v), GRID);
    const text = label(v, y.step);
    c.text(left - 12 - textWidth(text), py(v) - GLYPH_HEIGHT, text);
  }
  for (let v = 0; v <= x.top + x.step / 2; v += x.step) {
    c.line(px(v), top, px(v), bottom, GRID);
    c.line(px(v), bottom, px(v), bottom + 6, BLACK, 2);
    const text = label(v, x.step);
    c.text(px(v) - textWidth(text) / 2, bottom + 14, text);
  }
  c.line(left, top, left, bottom, BLACK, 2);
  c.line(left, bottom, right, bottom, BLACK, 2);
  c.text((left + right - textWidth(xLabel)) / 2, bottom + 46, xLabel);
  c.text(24, (top + bottom + textWidth(yLabel)) / 2, yLabel, { vertical: true });

  for (const m of markers) {
    c.line(px(m.x), top, px(m.x), bottom, GREY, 1, [3, 5]);
    c.text(px(m.x) + 6, bottom - 24, m.label, { color: GREY });
  }
  for (const s of series) {
    let phase = 0;
    for (let i = 1; i < s.points.length; i++) {
      const [a, b] = [s.points[i - 1], s.points[i]];
      phase = c.line(px(a[0]), py(a[1]), px(b[0]), py(b[1]), s.color, 3, s.dashed ? [10, 7] : null, phase);
    }
  }

  const column = (right - left) / 2;
  series.forEach((s, n) => {
    const x0 = left + (n % columns) * column + 20;
    const rowY = legendTop + Math.floor(n / columns) * LEGEND_ROW;
    c.line(x0, rowY + 7, x0 + 40, rowY + 7, s.color, 3, s.dashed ? [10, 7] : null);
    c.text(x0 + 52, rowY, s.label);
  });
  return encodePng(width, height, c.rgb);
}
