import type { CoverageItem, CoverageKind, CoverageReport, CoverageTotals } from "./journal.js";

// The totals of a coverage report (docs/interfaces.md, Journal and coverage), counted in one place for
// the control plane's report and for the reports merged from several (cli/coverage-report.ts).

/** The kinds in the order reports show them, with their key in `totals`. */
export const COVERAGE_KINDS: readonly {
  readonly kind: CoverageKind;
  readonly totals: Exclude<keyof CoverageReport["totals"], "all">;
}[] = [
  { kind: "operation", totals: "operations" },
  { kind: "status", totals: "statuses" },
  { kind: "error_code", totals: "error_codes" },
  { kind: "branch", totals: "branches" },
];

const oneDecimal = (n: number) => Math.round(n * 10) / 10;

/** Whether an item is in the totals: met, or producible without an injected fault. */
export const scored = (item: CoverageItem): boolean => item.count > 0 || item.reach !== "fault";

/** The totals of one kind's items: those only a fault produces count once met, and are left out before. */
export function kindTotals(items: readonly CoverageItem[]): CoverageTotals {
  let covered = 0;
  let total = 0;
  for (const item of items) {
    if (item.count > 0) covered += 1;
    if (scored(item)) total += 1;
  }
  return { covered, total, percent: total === 0 ? 100 : oneDecimal((covered / total) * 100) };
}

/** Every kind's totals, and the overall figure: the kinds' sums, with the mean of their percents. */
export function coverageTotals(items: readonly CoverageItem[]): CoverageReport["totals"] {
  const [operations, statuses, error_codes, branches] = COVERAGE_KINDS.map(({ kind }) =>
    kindTotals(items.filter((i) => i.kind === kind)),
  ) as [CoverageTotals, CoverageTotals, CoverageTotals, CoverageTotals];
  const kinds = [operations, statuses, error_codes, branches];
  const all: CoverageTotals = {
    covered: kinds.reduce((n, t) => n + t.covered, 0),
    total: kinds.reduce((n, t) => n + t.total, 0),
    percent: oneDecimal(kinds.reduce((n, t) => n + t.percent, 0) / kinds.length),
  };
  return { operations, statuses, error_codes, branches, all };
}
