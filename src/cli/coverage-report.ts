// What reads a CoverageReport (docs/interfaces.md, `retail-sim coverage`): the Markdown report and the short
// summary printed at the end of a test run, the check that a control plane's answer is a report, and the
// merge of the reports of several sandboxes. Pure functions; the HTML report is in coverage-html.ts.
import { COVERAGE_KINDS, coverageTotals, kindTotals } from "../contract/coverage-totals.js";
import type { CoverageItem, CoverageKind, CoverageReport, CoverageTotals } from "../contract/journal.js";

export type { CoverageItem, CoverageKind, CoverageReport, CoverageTotals } from "../contract/journal.js";

const LABELS: Readonly<Record<CoverageKind, string>> = {
  operation: "Operations",
  status: "Statuses",
  error_code: "Error codes",
  branch: "Rule branches",
};

/** The kinds in the order the reports show them, with their key in `totals` and their heading. */
export const KINDS: readonly {
  kind: CoverageKind;
  totals: Exclude<keyof CoverageReport["totals"], "all">;
  label: string;
}[] = COVERAGE_KINDS.map((k) => ({ ...k, label: LABELS[k.kind] }));

/** What the overall figure is, said wherever it is printed. */
export const OVERALL = "the mean of the four kinds' percents, each kind weighing the same";

/** The heading of the items only an injected fault produces. */
export const FAULT_ONLY = "Only through injected faults";

/** `42.9%`: the report's percent with one decimal. */
export const percent = (t: CoverageTotals): string => `${t.percent.toFixed(1)}%`;

/** A bar of `width` cells, full ones for the share covered: `████░░░░░░`. */
export function bar(t: CoverageTotals, width = 10): string {
  const full = Math.max(0, Math.min(width, Math.round((t.percent / 100) * width)));
  return "█".repeat(full) + "░".repeat(width - full);
}

const byId = (a: CoverageItem, b: CoverageItem) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * One kind's items: those never met, by id, those met, by id, and apart from both those not met that only
 * an injected fault produces (`reach: "fault"`: out of the totals until met), by id.
 */
export function itemsOf(
  report: CoverageReport,
  kind: CoverageKind,
): { never: CoverageItem[]; met: CoverageItem[]; faultOnly: CoverageItem[] } {
  const mine = report.items.filter((i) => i.kind === kind);
  return {
    never: mine.filter((i) => i.count === 0 && i.reach !== "fault").sort(byId),
    met: mine.filter((i) => i.count > 0).sort(byId),
    faultOnly: mine.filter((i) => i.count === 0 && i.reach === "fault").sort(byId),
  };
}

/** Every item never met that a request or a control route produces, kind by kind in the reports' order. */
export const neverMet = (report: CoverageReport): CoverageItem[] =>
  KINDS.flatMap(({ kind }) => itemsOf(report, kind).never);

/** Every item not met that only an injected fault produces, kind by kind in the reports' order. */
export const faultOnlyUnmet = (report: CoverageReport): CoverageItem[] =>
  KINDS.flatMap(({ kind }) => itemsOf(report, kind).faultOnly);

/** Unexpected answers, most frequent first. */
export const unexpectedOf = (report: CoverageReport): [string, number][] =>
  Object.entries(report.unexpected).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));

// ---- checking an answer -------------------------------------------------------------------------------

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;

function totalsProblem(v: unknown): string | undefined {
  if (!isObject(v)) return "is not an object";
  if (!isCount(v.covered) || !isCount(v.total)) return "has no whole covered and total";
  if (typeof v.percent !== "number" || !Number.isFinite(v.percent)) return "has no percent";
  return undefined;
}

/** Why a value is not a CoverageReport (the first thing wrong), or undefined when it is one. */
export function coverageReportProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "the answer is not a JSON object";
  if (typeof value.sandbox !== "string") return "`sandbox` is not a string";
  if (!isCount(value.requests)) return "`requests` is not a count";
  if (!isObject(value.totals)) return "`totals` is not an object";
  for (const key of [...KINDS.map((k) => k.totals), "all"] as const) {
    const problem = totalsProblem(value.totals[key]);
    if (problem) return `\`totals.${key}\` ${problem}`;
  }
  if (!Array.isArray(value.items)) return "`items` is not an array";
  const kinds = new Set<unknown>(KINDS.map((k) => k.kind));
  for (const [n, i] of value.items.entries()) {
    const bad =
      !isObject(i) ||
      !kinds.has(i.kind) ||
      typeof i.id !== "string" ||
      !isCount(i.count) ||
      typeof i.title !== "string" ||
      typeof i.provoke !== "string" ||
      (i.reach !== undefined && i.reach !== "fault") ||
      (i.spec !== undefined &&
        (!isObject(i.spec) || typeof i.spec.section !== "string" || typeof i.spec.quote !== "string"));
    if (bad) return `\`items[${n}]\` is not a coverage item`;
  }
  if (!isObject(value.unexpected) || !Object.values(value.unexpected).every(isCount))
    return "`unexpected` is not an object of counts";
  return undefined;
}

// ---- merging ------------------------------------------------------------------------------------------

/**
 * The totals of one kind's items as the route counts them: covered / total × 100, rounded to one decimal
 * (100 when total is 0), where total leaves out the items only a fault produces while they are unmet.
 */
export const totalsOf = (items: readonly CoverageItem[]): CoverageTotals => kindTotals(items);

/**
 * The coverage of several sandboxes as one report: each item's counts added up (an item met in any sandbox
 * is met, its `reach` kept), the requests and unexpected answers added up, the totals counted again as
 * the route counts them (`coverageTotals`). `sandbox` lists them.
 */
export function mergeCoverage(reports: readonly CoverageReport[]): CoverageReport {
  const items = new Map<string, CoverageItem>();
  const unexpected: Record<string, number> = {};
  for (const report of reports) {
    for (const item of report.items) {
      const key = `${item.kind} ${item.id}`;
      const seen = items.get(key);
      items.set(
        key,
        seen ? { ...seen, ...(item.reach ? { reach: item.reach } : {}), count: seen.count + item.count } : item,
      );
    }
    for (const [answer, n] of Object.entries(report.unexpected)) unexpected[answer] = (unexpected[answer] ?? 0) + n;
  }
  const all = [...items.values()].sort((a, b) => Number(a.count > 0) - Number(b.count > 0) || byId(a, b));
  return {
    sandbox: reports.map((r) => r.sandbox).join(", "),
    requests: reports.reduce((sum, r) => sum + r.requests, 0),
    totals: coverageTotals(all),
    items: all,
    unexpected,
  };
}

// ---- the summary --------------------------------------------------------------------------------------

/**
 * A few lines of plain text for the end of a test run: the totals per kind and overall (the mean of the
 * kinds' percents), then the first `limit` items never met (with how to provoke each) and how many more
 * there are, then how many items only an injected fault produces are left out, with their first ids.
 */
export function coverageSummary(report: CoverageReport, limit = 10): string {
  const rows = [
    ...KINDS.map((k) => [k.label, report.totals[k.totals]] as const),
    ["Overall", report.totals.all] as const,
  ];
  const fraction = (t: CoverageTotals) => `${t.covered}/${t.total}`;
  const wide = Math.max(...rows.map(([, t]) => fraction(t).length));
  const lines = [`Spec coverage of ${report.sandbox} (${report.requests} requests counted):`];
  for (const [label, t] of rows)
    lines.push(`  ${label.padEnd(13)} ${fraction(t).padStart(wide)} ${percent(t).padStart(6)} ${bar(t)}`);
  lines.push(`  (Overall: ${OVERALL}.)`);
  const never = neverMet(report);
  if (never.length > 0) {
    const shown = never.slice(0, Math.max(0, limit));
    lines.push(`Never met (${never.length}${shown.length < never.length ? `, the first ${shown.length}` : ""}):`);
    for (const i of shown) lines.push(`  ${i.kind.padEnd(10)} ${i.id}: ${i.provoke}`);
    if (shown.length < never.length) lines.push(`  ... and ${never.length - shown.length} more`);
  }
  const faults = faultOnlyUnmet(report);
  if (faults.length > 0) {
    const shown = faults.slice(0, Math.max(0, limit)).map((i) => i.id);
    const more = faults.length > shown.length ? `, ... and ${faults.length - shown.length} more` : "";
    lines.push(`${FAULT_ONLY} (${faults.length} not met, left out of the totals): ${shown.join(", ")}${more}`);
  }
  const odd = unexpectedOf(report);
  if (odd.length > 0) lines.push(`Unexpected answers: ${odd.map(([a, n]) => `${a} ×${n}`).join(", ")}`);
  return `${lines.join("\n")}\n`;
}

// ---- Markdown -----------------------------------------------------------------------------------------

/** Text for a Markdown table cell: markup shown as text, pipes and line breaks kept out of the table. */
const md = (text: string) =>
  text
    .replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c] as string)
    .replace(/([\\`*_[\]|])/g, "\\$1")
    .replace(/\r?\n/g, " ");

/** An id as inline code in a table cell (a fence longer than any run of backticks in it). */
function mdCode(text: string): string {
  const fence = "`".repeat(Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length)) + 1);
  const body = text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
  return /^`|`$/.test(body) ? `${fence} ${body} ${fence}` : `${fence}${body}${fence}`;
}

/** The report as Markdown (fit for a CI job summary): totals, then per kind the items never met first. */
export function coverageMarkdown(report: CoverageReport): string {
  const all = report.totals.all;
  const lines = [
    `# Spec coverage: ${percent(all)}`,
    "",
    `Sandbox ${mdCode(report.sandbox)}, ${report.requests} requests counted. Overall: ${OVERALL}; its covered and total are the kinds' sums.`,
    "",
    "| kind | covered | total | percent | |",
    "|---|---:|---:|---:|---|",
  ];
  for (const k of KINDS) {
    const t = report.totals[k.totals];
    lines.push(`| ${k.label} | ${t.covered} | ${t.total} | ${percent(t)} | ${bar(t)} |`);
  }
  lines.push(`| **Overall** | ${all.covered} | ${all.total} | ${percent(all)} | ${bar(all)} |`, "");
  for (const k of KINDS) {
    const { never, met } = itemsOf(report, k.kind);
    const t = report.totals[k.totals];
    lines.push(`## ${k.label}: ${t.covered} of ${t.total} (${percent(t)})`, "");
    if (never.length > 0) {
      lines.push(
        `### Never met (${never.length})`,
        "",
        "| id | title | spec | how to provoke it |",
        "|---|---|---|---|",
      );
      for (const i of never)
        lines.push(
          `| ${mdCode(i.id)} | ${md(i.title)} | ${i.spec ? `${md(i.spec.section)}: "${md(i.spec.quote)}"` : "-"} | ${md(i.provoke)} |`,
        );
      lines.push("");
    }
    if (met.length > 0) {
      lines.push(`### Met (${met.length})`, "", "| id | title | count |", "|---|---|---:|");
      for (const i of met) lines.push(`| ${mdCode(i.id)} | ${md(i.title)} | ${i.count} |`);
      lines.push("");
    }
    if (never.length === 0 && met.length === 0) lines.push("No items of this kind.", "");
  }
  const faults = faultOnlyUnmet(report);
  if (faults.length > 0) {
    lines.push(
      `## ${FAULT_ONLY} (${faults.length})`,
      "",
      "Not met, and left out of the totals until met: only an injected fault produces them (the simulator never fails of itself).",
      "",
      "| kind | id | title | how to provoke it |",
      "|---|---|---|---|",
      ...faults.map((i) => `| ${i.kind} | ${mdCode(i.id)} | ${md(i.title)} | ${md(i.provoke)} |`),
      "",
    );
  }
  const odd = unexpectedOf(report);
  if (odd.length > 0) {
    lines.push("## Unexpected answers", "", "Answers that matched no documented item.", "");
    lines.push("| answer | count |", "|---|---:|", ...odd.map(([a, n]) => `| ${mdCode(a)} | ${n} |`), "");
  }
  return lines.join("\n");
}
