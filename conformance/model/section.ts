import type { CoverageTotals } from "../../src/contract/journal.js";
import type { CoverageCount, ModelSection } from "../types.js";
import type { Oracle } from "./oracle.js";

// The report's account of the model: what it compared, what it could not, and the coverage of the run
// as the model counted it (the operations, statuses, error codes and rule branches of the spec met).

const count = (t: CoverageTotals): CoverageCount => ({ covered: t.covered, total: t.total, percent: t.percent });

export function modelSection(oracle: Oracle, control: boolean, selfCheck = false): ModelSection {
  const model = oracle.coverage();
  // An error code the target answered where the model could not follow (an injected fault, requests in
  // flight together) was met on the target all the same.
  const items = model.items.map((i) =>
    i.kind === "error_code" && i.count === 0 && oracle.observed.has(i.id)
      ? { ...i, count: oracle.observed.get(i.id) as number }
      : i,
  );
  const codes = items.filter((i) => i.kind === "error_code");
  const covered = codes.filter((i) => i.count > 0).length;
  const coverage = {
    ...model,
    items,
    totals: {
      ...model.totals,
      error_codes: {
        covered,
        total: codes.length,
        percent: Math.round((covered / Math.max(1, codes.length)) * 1000) / 10,
      },
    },
  };
  return {
    start: control ? "snapshot" : "seeded",
    compared: oracle.stats.compared,
    not_compared: { ...oracle.stats.skipped },
    restarts: oracle.stats.resyncs,
    ...(selfCheck
      ? {
          note: "The target is the simulator itself: the model compared it with itself, which proves nothing. The rules are the simulator's independent check.",
        }
      : {}),
    coverage: {
      operations: count(coverage.totals.operations),
      statuses: count(coverage.totals.statuses),
      error_codes: count(coverage.totals.error_codes),
      branches: count(coverage.totals.branches),
      never_reached: coverage.items
        .filter((i) => i.count === 0 && i.kind !== "status")
        .map((i) => ({ kind: i.kind, id: i.id, title: i.spec ? `${i.title} (${i.spec.section})` : i.title })),
    },
  };
}

/** The section of a run whose model could not start: nothing compared, and why. */
export function notStarted(why: string): ModelSection {
  const none = { covered: 0, total: 0, percent: 0 };
  return {
    start: "not started",
    compared: 0,
    not_compared: {},
    restarts: 0,
    note: why,
    coverage: { operations: none, statuses: none, error_codes: none, branches: none, never_reached: [] },
  };
}
