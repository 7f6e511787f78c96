// What reads a CoverageReport (docs/interfaces.md, `retail-sim coverage`): the Markdown report and the short
// summary printed at the end of a test run, the check that a control plane's answer is a report, and the
// merge of the reports of several sandboxes. Pure functions; the HTML report is in coverage-html.ts.
import type { CoverageItem, CoverageKind, CoverageReport, CoverageTotals } from "../contract/journal.js";

export type { CoverageItem, CoverageKind, CoverageReport, CoverageTotals } from "../contract/journal.js";

/** The kinds in the order the reports show them, with their key in `totals` and their heading. */
export const KINDS: readonly { kind: CoverageKind; totals: keyof CoverageReport["totals"]; label: string }[] = [
  { kind: "operation", totals: "operations", label: "Operations" },
  { kind: "status", totals: "statuses", label: "Statuses" },
  { kind: "error_code", totals: "error_codes", label: "Error codes" },
  { kind: "branch", totals: "branches", label: "Rule branches" },
];

/** `42.9%`: the report's percent with one decimal. */
export const percent = (t: CoverageTotals): string => `${t.percent.toFixed(1)}%`;

/** A bar of `width` cells, full ones for the share covered: `████░░░░░░`. */
export function bar(t: CoverageTotals, width = 10): string {
  const full = Math.max(0, Math.min(width, Math.round((t.percent / 100) * width)));
  return "█".repeat(full) + "░".repeat(width - full);
}

const byId = (a: CoverageItem, b: CoverageItem) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** One kind's items: those never met, by id, then those met, by id. */
export function itemsOf(report: CoverageReport, kind: CoverageKind): { never: CoverageItem[]; met: CoverageItem[] } {
  const mine = report.items.filter((i) => i.kind === kind);
  return {
    never: mine.filter((i) => i.count === 0).sort(byId),
    met: mine.filter((i) => i.count > 0).sort(byId),
  };
}

/** Every item never met, kind by kind in the reports' order. */
export const neverMet = (report: CoverageReport): CoverageItem[] =>
  KINDS.flatMap(({ kind }) => itemsOf(report, kind).never);

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
      (i.spec !== undefined &&
        (!isObject(i.spec) || typeof i.spec.section !== "string" || typeof i.spec.quote !== "string"));
    if (bad) return `\`items[${n}]\` is not a coverage item`;
  }
  if (!isObject(value.unexpected) || !Object.values(value.unexpected).every(isCount))
    return "`unexpected` is not an object of counts";
  return undefined;
}

// ---- merging ------------------------------------------------------------------------------------------

/** covered / total × 100, rounded to one decimal (100 when total is 0), as the route counts it. */
export function totalsOf(items: readonly CoverageItem[]): CoverageTotals {
  const covered = items.filter((i) => i.count > 0).length;
  const total = items.length;
  return { covered, total, percent: total === 0 ? 100 : Math.round((covered / total) * 1000) / 10 };
}

/**
 * The coverage of several sandboxes as one report: each item's counts added up (an item met in any sandbox
 * is met), the requests and unexpected answers added up, the totals counted again. `sandbox` lists them.
 */
export function mergeCoverage(reports: readonly CoverageReport[]): CoverageReport {
  const items = new Map<string, CoverageItem>();
  const unexpected: Record<string, number> = {};
  for (const report of reports) {
    for (const item of report.items) {
      const key = `${item.kind} ${item.id}`;
      const seen = items.get(key);
      items.set(key, seen ? { ...seen, count: seen.count + item.count } : item);
    }
    for (const [answer, n] of Object.entries(report.unexpected)) unexpected[answer] = (unexpected[answer] ?? 0) + n;
  }
  const all = [...items.values()].sort((a, b) => Number(a.count > 0) - Number(b.count > 0) || byId(a, b));
  const of = (kind: CoverageKind) => totalsOf(all.filter((i) => i.kind === kind));
  return {
    sandbox: reports.map((r) => r.sandbox).join(", "),
    requests: reports.reduce((sum, r) => sum + r.requests, 0),
    totals: {
      operations: of("operation"),
      statuses: of("status"),
      error_codes: of("error_code"),
      branches: of("branch"),
      all: totalsOf(all),
    },
    items: all,
    unexpected,
  };
}

// ---- the summary --------------------------------------------------------------------------------------

/**
 * A few lines of plain text for the end of a test run: the totals per kind and overall, then the first
 * `limit` items never met (with how to provoke each) and how many more there are.
 */
export function coverageSummary(report: CoverageReport, limit = 10): string {
  const rows = [...KINDS.map((k) => [k.label, report.totals[k.totals]] as const), ["All", report.totals.all] as const];
  const fraction = (t: CoverageTotals) => `${t.covered}/${t.total}`;
  const wide = Math.max(...rows.map(([, t]) => fraction(t).length));
  const lines = [`Spec coverage of ${report.sandbox} (${report.requests} requests counted):`];
  for (const [label, t] of rows)
    lines.push(`  ${label.padEnd(13)} ${fraction(t).padStart(wide)} ${percent(t).padStart(6)} ${bar(t)}`);
  const never = neverMet(report);
  if (never.length > 0) {
    const shown = never.slice(0, Math.max(0, limit));
    lines.push(`Never met (${never.length}${shown.length < never.length ? `, the first ${shown.length}` : ""}):`);
    for (const i of shown) lines.push(`  ${i.kind.padEnd(10)} ${i.id}: ${i.provoke}`);
    if (shown.length < never.length) lines.push(`  ... and ${never.length - shown.length} more`);
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
    `# Spec coverage: ${all.covered} of ${all.total} (${percent(all)})`,
    "",
    `Sandbox ${mdCode(report.sandbox)}, ${report.requests} requests counted.`,
    "",
    "| kind | covered | total | percent | |",
    "|---|---:|---:|---:|---|",
  ];
  for (const k of KINDS) {
    const t = report.totals[k.totals];
    lines.push(`| ${k.label} | ${t.covered} | ${t.total} | ${percent(t)} | ${bar(t)} |`);
  }
  lines.push(`| **All** | ${all.covered} | ${all.total} | ${percent(all)} | ${bar(all)} |`, "");
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
  const odd = unexpectedOf(report);
  if (odd.length > 0) {
    lines.push("## Unexpected answers", "", "Answers that matched no documented item.", "");
    lines.push("| answer | count |", "|---|---:|", ...odd.map(([a, n]) => `| ${mdCode(a)} | ${n} |`), "");
  }
  return lines.join("\n");
}
