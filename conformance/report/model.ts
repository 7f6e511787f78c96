import type { Report } from "../types.js";

// The model's part of a report in words, for the Markdown and HTML reports and the command line: how it
// started, what it compared and could not, and which behaviours of the spec the run reached on the target.

export interface ModelSummary {
  readonly lines: readonly string[];
  /** What the run never reached: error codes, rule branches and operations, each with its spec section. */
  readonly never: readonly string[];
}

const pct = (c: { covered: number; total: number; percent: number }) => `${c.covered} of ${c.total} (${c.percent}%)`;

export function modelSummary(report: Report): ModelSummary | undefined {
  const m = report.model;
  if (!m) return undefined;
  const skipped = Object.entries(m.not_compared).map(([why, n]) => `${n} ${why}`);
  if (m.start === "not started") return { lines: [m.note ?? "The model did not start."], never: [] };
  const lines = [
    `Started from ${m.start === "snapshot" ? "the target's snapshot (its control plane): it knows every row" : "what the API shows (no control plane): lists are compared on the rows the run created"}.`,
    `Compared ${m.compared} answers with the model's prediction${skipped.length > 0 ? `; not compared: ${skipped.join(", ")}` : ""}${m.restarts > 0 ? `; the model started again from the target's state ${m.restarts} times` : ""}.`,
    `Reached on the target: rule branches ${pct(m.coverage.branches)}, error codes ${pct(m.coverage.error_codes)}, operations ${pct(m.coverage.operations)}, documented statuses ${pct(m.coverage.statuses)}.`,
    ...(m.note ? [m.note] : []),
  ];
  return { lines, never: m.coverage.never_reached.map((n) => `${n.kind.replace("_", " ")} \`${n.id}\`: ${n.title}`) };
}
