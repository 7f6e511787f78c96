import type { Counterexample, Exchange, Report, RuleResult } from "../types.js";

// report.json with a fixed key order, whatever order the objects were built in: the fields
// docs/interfaces.md promises (Command line, retail-sim conformance) first (`summary`, then each rule's `id, title, status, spec_ref`,
// `counterexample` last), so two runs diff line by line.

const REPORT_KEYS = [
  "tool",
  "target",
  "seed",
  "runs",
  "options",
  "started_at",
  "duration_ms",
  "summary",
  "could_not_run",
  "interrupted",
  "stopped_by",
  "flaky_policy",
  "api_root",
  "pacing",
  "transport",
  "left_behind",
  "model",
  "failure_groups",
  "not_checked",
  "rules",
] as const;
const TOOL_KEYS = ["name", "version"] as const;
const SUMMARY_KEYS = ["passed", "failed", "flaky", "skipped", "covered", "catalog", "verdict"] as const;
const RULE_KEYS = [
  "id",
  "title",
  "status",
  "reason",
  "unlock",
  "spec_ref",
  "spec_quote",
  "area",
  "leniency",
  "cause",
  "ambient",
  "reproducible",
  "rerun",
  "transport",
  "replay",
  "credentials",
  "duration_ms",
  "requests",
  "counterexample",
] as const;
const COUNTEREXAMPLE_KEYS = ["expected", "observed", "seed", "path", "input", "requests", "curl"] as const;
const EXCHANGE_KEYS = [
  "method",
  "url",
  "requestHeaders",
  "requestBody",
  "status",
  "responseHeaders",
  "responseBody",
] as const;

/** The listed keys in that order (left out when undefined), then any others in the order they came. */
function ordered<T extends object>(
  value: T,
  keys: readonly string[],
  // deliberately untyped: each key's function takes that key's value, of a type of its own
  // biome-ignore lint/suspicious/noExplicitAny: a map of functions over values of different types
  inner: Record<string, (v: any) => unknown> = {},
): Record<string, unknown> {
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of [...keys, ...Object.keys(source).filter((k) => !keys.includes(k))]) {
    const v = source[key];
    if (v === undefined) continue;
    out[key] = inner[key] ? inner[key]!(v) : v;
  }
  return out;
}

const exchange = (e: Exchange) => ordered(e, EXCHANGE_KEYS);
const counterexample = (c: Counterexample) =>
  ordered(c, COUNTEREXAMPLE_KEYS, { requests: (rs: Exchange[]) => rs.map(exchange) });
const rule = (r: RuleResult) => ordered(r, RULE_KEYS, { counterexample });

/** The report as a plain object in the stable key order. */
export function toJsonObject(report: Report): Record<string, unknown> {
  return ordered(report, REPORT_KEYS, {
    tool: (t: Report["tool"]) => ordered(t, TOOL_KEYS),
    summary: (s: Report["summary"]) => ordered(s, SUMMARY_KEYS),
    rules: (rs: RuleResult[]) => rs.map(rule),
  });
}

export function toJson(report: Report): string {
  return `${JSON.stringify(toJsonObject(report), null, 2)}\n`;
}
