import { escapeHtml as esc } from "../../src/kernel/html.js";
import type { Report, RuleResult } from "../types.js";
import { modelSummary } from "./model.js";
import { replayCommand } from "./replay.js";
import { runNotes } from "./run-notes.js";
import { headline, rerunNote, verdictLine } from "../verdict.js";

const clip = (text: string, max = 90) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const MARK = { passed: "✔", failed: "✘", flaky: "≈", skipped: "–" } as const;

/** Rules shown with their expected, observed and replay: failures and flaky ones. */
const shown = (r: RuleResult): boolean => r.status === "failed" || r.status === "flaky";

/** Up to this many failures are shown unfolded; more start folded so the page stays a summary. */
const OPEN_FAILURES = 5;

/** Expected against observed, word by word: what they share is plain, what differs is marked. */
function diff(expected: string, observed: string): string {
  const a = expected.split(/(\s+)/);
  const b = observed.split(/(\s+)/);
  const inA = new Set(a);
  const inB = new Set(b);
  const line = (words: string[], other: Set<string>, cls: string) =>
    words.map((w) => (other.has(w) || /^\s*$/.test(w) ? esc(w) : `<mark class="${cls}">${esc(w)}</mark>`)).join("");
  return `<div class="diff"><div class="minus">- expected  ${line(a, inB, "del")}</div><div class="plus">+ observed  ${line(b, inA, "ins")}</div></div>`;
}

/** The model's account (markdown code spans as <code>). */
function modelSection(report: Report): string {
  const m = modelSummary(report);
  if (!m) return "";
  const html = (text: string) => esc(text).replace(/`([^`]*)`/g, "<code>$1</code>");
  const never =
    m.never.length > 0
      ? `<details><summary>Never reached (${m.never.length})</summary><ul>${m.never.map((n) => `<li>${html(n)}</li>`).join("")}</ul></details>`
      : "";
  return `<section class="model"><h2>The model</h2><ul>${m.lines.map((l) => `<li>${html(l)}</li>`).join("")}</ul>${never}</section>`;
}

function ruleItem(report: Report, r: RuleResult, open: boolean, inGroup = false): string {
  const head = `<span class="mark ${r.status}" aria-hidden="true">${MARK[r.status]}</span><code class="id">${esc(r.id)}</code> <span class="title">${esc(r.title)}</span> <span class="sr">${r.status}</span>`;
  if (shown(r) && !inGroup) {
    return `<li class="rule failed" data-rule-ref="${esc(r.id)}">${head} <a href="#fail-${esc(r.id)}">see the failure</a></li>`;
  }
  if (!shown(r)) {
    const note = r.status === "skipped" ? r.reason : r.leniency;
    const noteHtml = note
      ? `<div class="note">${r.status === "skipped" ? "Skipped: " : "Accepted where the spec is silent: "}${esc(note)}</div>`
      : "";
    return `<li class="rule ${r.status}" data-rule="${esc(r.id)}">${head}${noteHtml}</li>`;
  }
  const c = r.counterexample;
  const note = rerunNote(r);
  const again = note ? `<dt>Run again</dt><dd>${esc(note)}</dd>` : "";
  const curl =
    c && c.curl.length > 0
      ? `<h3>Reproduce <small>(a shell script: set RETAIL_TOKEN first)</small></h3><pre>${esc(c.curl.join("\n"))}</pre>`
      : "";
  const ambient = r.ambient
    ? `<dt>Seen by</dt><dd>the ambient check <code>${esc(r.ambient)}</code>: every response is judged against the contract, whatever rule runs</dd>`
    : "";
  const brief = `expected ${clip(c?.expected ?? "")}; observed ${clip(c?.observed ?? "")}`;
  return `<li class="rule failed" id="fail-${esc(r.id)}" data-rule="${esc(r.id)}"><details${open ? " open" : ""}><summary>${head}<div class="brief">${esc(brief)}</div></summary>
<div class="body">
<blockquote>${esc(r.spec_quote)} <cite>${esc(r.spec_ref)}</cite></blockquote>
<dl>
<dt>Expected</dt><dd class="expected">${esc(c?.expected ?? "")}</dd>
<dt>Observed</dt><dd class="observed">${esc(c?.observed ?? "")}</dd>
<dt>Difference</dt><dd>${diff(c?.expected ?? "", c?.observed ?? "")}</dd>
${ambient}
${c?.input ? `<dt>Minimal input</dt><dd><code>${esc(c.input)}</code></dd>` : ""}
<dt>Replay</dt><dd><code>${esc(r.replay ?? replayCommand(report, r))}</code></dd>
${again}
</dl>
${curl}
</div>
</details></li>`;
}

function counts(rules: readonly RuleResult[]): string {
  const parts = (["passed", "failed", "flaky", "skipped"] as const)
    .map((s) => [s, rules.filter((r) => r.status === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `<span class="count ${s}">${n} ${s}</span>`);
  return parts.join(" ");
}

/** A self-contained page: rules by area with their status at a glance, each failure expandable. */
export function toHtml(report: Report): string {
  const s = report.summary;
  const open = s.failed <= OPEN_FAILURES;
  const areas = [...new Set(report.rules.map((r) => r.area))];
  const sections = areas.map((area) => {
    const rules = report.rules.filter((r) => r.area === area);
    const worst = rules.some(shown) ? "failed" : rules.every((r) => r.status === "skipped") ? "skipped" : "passed";
    return `<section class="area ${worst}"><h2>${esc(area)} ${counts(rules)}</h2><ul>${rules.map((r) => ruleItem(report, r, open)).join("\n")}</ul></section>`;
  });
  const verdict = verdictLine(report);
  const tone = headline(report).startsWith("PASSED") ? (s.skipped > 0 || s.flaky > 0 ? "partial" : "ok") : "bad";
  const notes = runNotes(report);
  const notesHtml =
    notes.length > 0
      ? `<ul class="notes">${notes.map((n) => `<li>${esc(n).replace(/`([^`]*)`/g, "<code>$1</code>")}</li>`).join("")}</ul>`
      : "";
  const flaky = report.rules.filter((r) => r.status === "flaky");
  const flakyHtml =
    flaky.length > 0
      ? `<section class="failures flaky"><h2>Flaky (failed, then passed when run again)</h2><ul>${flaky.map((r) => ruleItem(report, r, open, true)).join("\n")}</ul></section>`
      : "";
  const byId = new Map(report.rules.map((r) => [r.id, r]));
  const groups = report.failure_groups.map((g) => {
    const title = g.cause.startsWith("rule ")
      ? ""
      : `<h3 class="cause">${esc(g.cause)} <span class="count failed">${g.rules.length} rule${g.rules.length === 1 ? "" : "s"}</span></h3>`;
    return `${title}<ul>${g.rules.map((id) => ruleItem(report, byId.get(id) as RuleResult, open, true)).join("\n")}</ul>`;
  });
  const failures =
    groups.length > 0
      ? `<section class="failures failed"><h2>Failures, by cause</h2>${groups.join("\n")}</section>`
      : "";
  const notChecked =
    report.not_checked.length > 0
      ? `<section class="skipped"><h2>Not checked</h2><ul>${report.not_checked.map((g) => `<li class="rule skipped"><b>${g.rules.length}</b> ${esc(g.unlock)}: ${g.rules.map((id) => `<code class="id">${esc(id)}</code>`).join(" ")}</li>`).join("")}</ul></section>`
      : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance report (${esc(headline(report).toLowerCase())}) · ${esc(report.target)}</title>
<style>
:root{--ok:#0a6b2d;--bad:#a00000;--skip:#6b6b6b;--line:#d8d8d8}
body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:64rem;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.6rem;margin:0 0 .25rem}
.verdict{font-size:1.25rem;font-weight:600;margin:.25rem 0}.verdict.ok{color:var(--ok)}.verdict.bad{color:var(--bad)}.verdict.partial{color:#8a5a00}
.diff{font:.82em ui-monospace,monospace;white-space:pre-wrap;overflow-wrap:anywhere;border:1px solid #e4e4e4;border-radius:4px;padding:.4rem .6rem}.minus{color:#7a0000}.plus{color:#0a4d1f}mark.del{background:#fbd3d3}mark.ins{background:#cdebd5}
h3.cause{font-size:1rem;margin:1rem 0 .25rem;display:flex;gap:.6rem;align-items:baseline}
.meta{color:#444;margin:.25rem 0 1rem}
.totals{display:flex;flex-wrap:wrap;gap:.75rem;margin:1rem 0 1.5rem}
.totals div{border:1px solid var(--line);border-top-width:4px;border-radius:6px;padding:.5rem 1rem;min-width:7rem}
.totals b{display:block;font-size:1.6rem;line-height:1.2}
.totals .passed{border-top-color:var(--ok)}.totals .failed{border-top-color:var(--bad)}.totals .skipped{border-top-color:var(--skip)}.totals .covered{border-top-color:#2458a6}
section{margin:1.25rem 0}
h2{font-size:1.1rem;border-bottom:1px solid var(--line);padding-bottom:.25rem;margin:0 0 .25rem;display:flex;gap:.6rem;align-items:baseline;flex-wrap:wrap}
.count{font-size:.8rem;font-weight:600;border-radius:999px;padding:.05rem .55rem}
.count.flaky{background:#fdf0d5;color:#8a5a00}.totals .flaky{border-top-color:#c98a00}.mark.flaky{color:#8a5a00}
.count.passed{background:#e3f3e8;color:var(--ok)}.count.failed{background:#fbe3e3;color:var(--bad)}.count.skipped{background:#eee;color:#444}
ul{list-style:none;padding:0;margin:0}
li.rule{padding:.3rem 0 .3rem .9rem;border-bottom:1px dotted #eee}li.rule.failed{padding-left:0}
.mark{display:inline-block;width:1.3rem;font-weight:bold;text-align:center}
.mark.passed{color:var(--ok)}.mark.failed{color:var(--bad)}.mark.skipped{color:var(--skip)}
code.id{font-size:.88em;background:#f3f3f3;border-radius:3px;padding:0 .25rem;margin-right:.25rem}
li.skipped .title{color:#555}
.note{color:#555;margin-left:1.55rem;font-size:.88em}
details summary{cursor:pointer;list-style:none}
details summary::-webkit-details-marker{display:none}
details summary::before{content:"▸";display:inline-block;width:.9rem;color:var(--bad)}
details[open] summary::before{content:"▾"}
.brief{color:#555;font-size:.88em;margin-left:2.45rem;overflow-wrap:anywhere}details[open] .brief{display:none}
li.failed{background:#fff7f7}
details .body{border-left:3px solid var(--bad);margin:.4rem 0 .4rem .45rem;padding:.1rem 0 .1rem .9rem}
blockquote{margin:.5rem 0;color:#333;font-style:italic}cite{font-style:normal;color:#666;font-size:.9em}cite::before{content:"— "}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:.5rem 0}
dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}dd.observed{color:var(--bad)}
h3{font-size:.95rem;margin:.75rem 0 .25rem}h3 small{font-weight:normal;color:#666}
pre{background:#f4f4f4;border:1px solid #e4e4e4;border-radius:4px;padding:.6rem;overflow-x:auto;font-size:.82em;white-space:pre-wrap;overflow-wrap:anywhere;margin:0}
.sr{position:absolute;left:-9999px}
@media print{details{display:block}details>*{display:block}}
</style></head><body><main>
<h1>Conformance report</h1>
<p class="verdict ${tone}">${esc(verdict)}</p>
${notesHtml}
<p class="meta">Target <code>${esc(report.target)}</code> · seed ${report.seed} · ${report.runs} runs per property · ${(report.duration_ms / 1000).toFixed(1)} s · ${esc(report.started_at)} · ${esc(report.tool.name)} ${esc(report.tool.version)}</p>
<div class="totals"><div class="passed"><b>${s.passed}</b>passed</div><div class="failed"><b>${s.failed}</b>failed</div><div class="flaky"><b>${s.flaky}</b>flaky</div><div class="skipped"><b>${s.skipped}</b>skipped</div><div class="covered"><b>${s.covered}/${s.catalog}</b>rules covered</div></div>
${failures}
${flakyHtml}
${notChecked}
${modelSection(report)}
<h2 class="all">Every rule, by area</h2>
${sections.join("\n")}
</main></body></html>
`;
}
