// The coverage report as one self-contained HTML page (no external assets, no script), in the style of
// the conformance suite's report: totals per kind with a bar, then per kind the items never met first,
// each with its spec sentence and how to provoke it, then the met ones with their counts.
import { escapeHtml as esc } from "../kernel/html.js";
import type { CoverageReport, CoverageTotals } from "../contract/journal.js";
import { FAULT_ONLY, faultOnlyUnmet, itemsOf, KINDS, OVERALL, percent, unexpectedOf } from "./coverage-report.js";

function meter(label: string, t: CoverageTotals, cls: string): string {
  const width = Math.max(0, Math.min(100, t.percent));
  return `<div class="total ${cls}" data-kind="${esc(cls)}"><span class="label">${esc(label)}</span><b><span class="covered">${t.covered}</span>/<span class="of">${t.total}</span></b><span class="pct">${percent(t)}</span><span class="bar" role="img" aria-label="${percent(t)} covered"><span style="width:${width}%"></span></span></div>`;
}

function kindSection(report: CoverageReport, k: (typeof KINDS)[number]): string {
  const { never, met } = itemsOf(report, k.kind);
  const t = report.totals[k.totals];
  const neverRows = never.map(
    (i) =>
      `<tr data-id="${esc(i.id)}"><td><code class="id">${esc(i.id)}</code></td><td>${esc(i.title)}</td><td>${
        i.spec
          ? `<blockquote>${esc(i.spec.quote)} <cite>${esc(i.spec.section)}</cite></blockquote>`
          : `<span class="none">no spec sentence</span>`
      }</td><td class="provoke">${esc(i.provoke)}</td></tr>`,
  );
  const metRows = met.map(
    (i) =>
      `<tr data-id="${esc(i.id)}"><td><code class="id">${esc(i.id)}</code></td><td>${esc(i.title)}</td><td class="n">${i.count}</td></tr>`,
  );
  const neverTable =
    never.length > 0
      ? `<h3>Never met (${never.length})</h3><table class="never"><thead><tr><th>id</th><th>title</th><th>spec</th><th>how to provoke it</th></tr></thead><tbody>${neverRows.join("\n")}</tbody></table>`
      : "";
  const metTable =
    met.length > 0
      ? `<h3>Met (${met.length})</h3><table class="met"><thead><tr><th>id</th><th>title</th><th class="n">count</th></tr></thead><tbody>${metRows.join("\n")}</tbody></table>`
      : "";
  const empty = never.length + met.length === 0 ? `<p class="none">No items of this kind.</p>` : "";
  const tone = t.covered === t.total ? "full" : t.covered === 0 ? "none" : "part";
  return `<section class="kind ${tone}" id="kind-${k.kind}"><h2>${esc(k.label)} <span class="count">${t.covered} of ${t.total} · ${percent(t)}</span></h2>
${neverTable}
${metTable}${empty}</section>`;
}

/** The report as a self-contained HTML page; every text of the report is escaped. */
export function coverageHtml(report: CoverageReport): string {
  const all = report.totals.all;
  const faults = faultOnlyUnmet(report);
  const faultOnly =
    faults.length > 0
      ? `<section class="fault-only"><h2>${FAULT_ONLY} <span class="count">${faults.length}</span></h2><p>Not met, and left out of the totals until met: only an injected fault produces them (the simulator never fails of itself).</p><table><thead><tr><th>kind</th><th>id</th><th>title</th><th>how to provoke it</th></tr></thead><tbody>${faults.map((i) => `<tr data-id="${esc(i.id)}"><td>${esc(i.kind)}</td><td><code class="id">${esc(i.id)}</code></td><td>${esc(i.title)}</td><td class="provoke">${esc(i.provoke)}</td></tr>`).join("\n")}</tbody></table></section>`
      : "";
  const odd = unexpectedOf(report);
  const unexpected =
    odd.length > 0
      ? `<section class="unexpected"><h2>Unexpected answers <span class="count">${odd.length}</span></h2><p>Answers that matched no documented item.</p><table><thead><tr><th>answer</th><th class="n">count</th></tr></thead><tbody>${odd.map(([a, n]) => `<tr><td><code>${esc(a)}</code></td><td class="n">${n}</td></tr>`).join("")}</tbody></table></section>`
      : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Spec coverage · ${esc(report.sandbox)}</title>
<style>
:root{--ok:#0a6b2d;--bad:#a00000;--part:#8a5a00;--line:#d8d8d8;--bar:#2458a6}
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.6rem;margin:0 0 .25rem}
.meta{color:#444;margin:.25rem 0 1rem}
.totals{display:flex;flex-wrap:wrap;gap:.75rem;margin:1rem 0 1.5rem}
.total{border:1px solid var(--line);border-top:4px solid var(--bar);border-radius:6px;padding:.5rem 1rem;min-width:9rem;display:flex;flex-direction:column}
.total.all{border-top-color:#1b1b1b}
.total b{font-size:1.6rem;line-height:1.2}.total .label{color:#444;font-size:.9em}.total .pct{font-weight:600}
.bar{display:block;height:.5rem;background:#eee;border-radius:999px;overflow:hidden;margin-top:.3rem}
.bar span{display:block;height:100%;background:var(--bar)}
section{margin:1.5rem 0}
h2{font-size:1.15rem;border-bottom:1px solid var(--line);padding-bottom:.25rem;margin:0 0 .5rem;display:flex;gap:.6rem;align-items:baseline}
h3{font-size:.95rem;margin:.75rem 0 .25rem}
.count{font-size:.8rem;font-weight:600;border-radius:999px;padding:.05rem .55rem;background:#eee;color:#444}
.kind.full h2 .count{background:#e3f3e8;color:var(--ok)}.kind.none h2 .count{background:#fbe3e3;color:var(--bad)}.kind.part h2 .count{background:#fff1d6;color:var(--part)}
table{border-collapse:collapse;width:100%;font-size:.9em}
th,td{text-align:left;vertical-align:top;padding:.3rem .5rem;border-bottom:1px solid #eee;overflow-wrap:anywhere}
th{font-weight:600;border-bottom-color:var(--line)}
table.never tbody tr{background:#fff7f7}
.n{text-align:right;font-variant-numeric:tabular-nums;width:6rem}
code{font-size:.88em;background:#f3f3f3;border-radius:3px;padding:0 .25rem}code.id{white-space:nowrap}
blockquote{margin:0;color:#333;font-style:italic}cite{display:block;font-style:normal;color:#666;font-size:.9em}cite::before{content:"— "}
.provoke{font-family:ui-monospace,monospace;font-size:.85em}
.none{color:#666}
</style></head><body><main>
<h1>Spec coverage</h1>
<p class="meta">Sandbox <code>${esc(report.sandbox)}</code> · ${report.requests} requests counted · overall ${percent(all)}: ${esc(OVERALL)}</p>
<div class="totals">${KINDS.map((k) => meter(k.label, report.totals[k.totals], k.kind)).join("")}${meter("Overall", all, "all")}</div>
${KINDS.map((k) => kindSection(report, k)).join("\n")}
${faultOnly}
${unexpected}
</main></body></html>
`;
}
