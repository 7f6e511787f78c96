import type { Report, RuleResult } from "../types.js";

const esc = (text: string) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

function ruleItem(r: RuleResult): string {
  const mark = { passed: "✔", failed: "✘", skipped: "–" }[r.status];
  const head = `<span class="mark ${r.status}" aria-hidden="true">${mark}</span> <code>${esc(r.id)}</code> ${esc(r.title)} <span class="sr">${r.status}</span>`;
  if (r.status !== "failed") {
    const note = r.reason ?? r.leniency;
    return `<li class="${r.status}">${head}${note ? `<div class="note">${esc(note)}</div>` : ""}</li>`;
  }
  const c = r.counterexample;
  return `<li class="failed"><details open><summary>${head}</summary>
<blockquote>${esc(r.spec_quote)} <cite>${esc(r.spec_ref)}</cite></blockquote>
<dl><dt>Expected</dt><dd>${esc(c?.expected ?? "")}</dd><dt>Observed</dt><dd>${esc(c?.observed ?? "")}</dd>
${c?.input ? `<dt>Minimal input</dt><dd><code>${esc(c.input)}</code></dd>` : ""}
<dt>Replay</dt><dd><code>retail-sim conformance --rules ${esc(r.id)} --seed ${c?.seed}${c?.path ? ` --replay ${esc(c.path)}` : ""}</code></dd>
${r.reproducible !== undefined ? `<dt>Run again</dt><dd>${r.reproducible ? "failed again: reproducible" : "passed: flaky"}</dd>` : ""}</dl>
${c && c.curl.length > 0 ? `<pre>${esc(c.curl.join("\n\n"))}</pre>` : ""}
</details></li>`;
}

/** A self-contained page: rules by area with their status at a glance, each failure expandable. */
export function toHtml(report: Report): string {
  const s = report.summary;
  const areas = [...new Set(report.rules.map((r) => r.area))];
  const sections = areas.map((area) => {
    const rules = report.rules.filter((r) => r.area === area);
    const failed = rules.filter((r) => r.status === "failed").length;
    return `<section><h2>${esc(area)} <small>${rules.length - failed}/${rules.length}</small></h2><ul>${rules.map(ruleItem).join("\n")}</ul></section>`;
  });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance report · ${esc(report.target)}</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:60rem;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.6rem;margin-bottom:.25rem}.verdict{font-size:1.2rem;font-weight:600}.ok{color:#0a6b2d}.bad{color:#a00000}
.totals{display:flex;gap:1rem;margin:1rem 0}.totals div{border:1px solid #ccc;border-radius:6px;padding:.5rem 1rem;min-width:7rem}
.totals b{display:block;font-size:1.5rem}h2{font-size:1.15rem;border-bottom:1px solid #ddd;padding-bottom:.2rem}h2 small{color:#555;font-weight:normal}
ul{list-style:none;padding:0}li{padding:.2rem 0}.mark{display:inline-block;width:1.2rem;font-weight:bold}
.mark.passed{color:#0a6b2d}.mark.failed{color:#a00000}.mark.skipped{color:#777}.note{color:#555;margin-left:1.6rem;font-size:.9em}
details{border-left:3px solid #a00000;padding-left:.75rem;margin:.25rem 0}blockquote{margin:.5rem 0;color:#333;font-style:italic}
dt{font-weight:600}dd{margin:0 0 .4rem 0}pre{background:#f4f4f4;padding:.5rem;overflow-x:auto;font-size:.85em}
.sr{position:absolute;left:-9999px}
</style></head><body><main>
<h1>Conformance report</h1>
<p class="verdict ${s.failed === 0 ? "ok" : "bad"}">${s.failed === 0 ? "Every selected rule held." : `${s.failed} rule${s.failed === 1 ? "" : "s"} failed.`}</p>
<p>Target <code>${esc(report.target)}</code> · seed ${report.seed} · ${report.runs} runs per property · ${(report.duration_ms / 1000).toFixed(1)} s · ${esc(report.started_at)}</p>
<div class="totals"><div><b>${s.passed}</b>passed</div><div><b>${s.failed}</b>failed</div><div><b>${s.skipped}</b>skipped</div><div><b>${s.covered}/${s.catalog}</b>rules covered</div></div>
${sections.join("\n")}
</main></body></html>
`;
}
