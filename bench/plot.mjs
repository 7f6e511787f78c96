// A line plot as SVG text: axes with tick labels at round values, light grid lines, one polyline per
// series (solid or dashed), dotted vertical markers and a legend. Used by the soak for memory against requests.

/** A round step (1, 2 or 5 times a power of ten) giving at most `count` intervals over `range`. */
export function niceStep(range, count) {
  const raw = range / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].find((m) => m * magnitude >= raw) * magnitude;
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

const xml = (s) => String(s).replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
const text = (x, y, s, attrs = "") => `<text x="${x}" y="${y}"${attrs}>${xml(s)}</text>`;
const line = (x1, y1, x2, y2, attrs) => `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" ${attrs}/>`;
const f = (v) => Math.round(v * 10) / 10;

/**
 * Renders a plot as an SVG document. `series`: [{label, color: "#rrggbb", points: [[x, y]], dashed?}];
 * `markers`: [{x, label}], dotted vertical lines; `xMax` the least the x axis shows. Both axes start at 0.
 */
export function renderPlot({ width = 1100, height = 700, title, xLabel, yLabel, series, markers = [], xMax = 0 }) {
  const [left, right, top] = [110, width - 40, 70];
  const rows = Math.ceil(series.length / 2);
  const legendTop = height - 20 - rows * 28;
  const bottom = legendTop - 90;
  const all = series.flatMap((s) => s.points);
  const x = axisMax(Math.max(xMax, ...all.map((p) => p[0])), 10);
  const y = axisMax(Math.max(0, ...all.map((p) => p[1])) * 1.05, 8);
  const px = (v) => f(left + ((right - left) * v) / x.top);
  const py = (v) => f(bottom - ((bottom - top) * v) / y.top);
  const dash = (s) => (s.dashed ? ' stroke-dasharray="10 7"' : "");
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="14">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    text(width / 2, 30, title, ' text-anchor="middle" font-size="16"'),
  ];
  for (let v = 0; v <= y.top + y.step / 2; v += y.step) {
    out.push(line(left, py(v), right, py(v), 'stroke="#e1e1e1"'));
    out.push(text(left - 10, py(v) + 5, label(v, y.step), ' text-anchor="end"'));
  }
  for (let v = 0; v <= x.top + x.step / 2; v += x.step) {
    out.push(line(px(v), top, px(v), bottom + 6, 'stroke="#e1e1e1"'));
    out.push(text(px(v), bottom + 24, label(v, x.step), ' text-anchor="middle"'));
  }
  out.push(`<path d="M${left} ${top}V${bottom}H${right}" fill="none" stroke="#141414" stroke-width="2"/>`);
  out.push(text((left + right) / 2, bottom + 54, xLabel, ' text-anchor="middle"'));
  out.push(text(0, 0, yLabel, ` text-anchor="middle" transform="translate(34 ${(top + bottom) / 2}) rotate(-90)"`));
  for (const m of markers) {
    out.push(line(px(m.x), top, px(m.x), bottom, 'stroke="#6e6e6e" stroke-dasharray="3 5"'));
    out.push(text(px(m.x) + 6, bottom - 12, m.label, ' fill="#6e6e6e"'));
  }
  for (const s of series) {
    const points = s.points.map(([a, b]) => `${px(a)},${py(b)}`).join(" ");
    out.push(`<polyline points="${points}" fill="none" stroke="${s.color}" stroke-width="3"${dash(s)}/>`);
  }
  series.forEach((s, n) => {
    const [x0, rowY] = [left + 20 + (n % 2) * ((right - left) / 2), legendTop + Math.floor(n / 2) * 28];
    out.push(line(x0, rowY + 7, x0 + 40, rowY + 7, `stroke="${s.color}" stroke-width="3"${dash(s)}`));
    out.push(text(x0 + 52, rowY + 12, s.label));
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
