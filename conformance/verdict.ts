import type { FailureGroup, NotChecked, RuleResult, Summary } from "./types.js";
import type { Rule } from "./rule.js";

// An honest verdict: what was established and what was not. A run that skipped rules never reads as
// a bare green; the skips are grouped by what would let them run, the failures by their cause.

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function summarize(
  results: readonly RuleResult[],
  selected: readonly Rule[],
  catalog: number,
  interrupted: boolean,
): { summary: Summary; not_checked: NotChecked[]; failure_groups: FailureGroup[]; interrupted?: boolean } {
  const count = (s: RuleResult["status"]) => results.filter((r) => r.status === s).length;
  const passed = count("passed");
  const failed = count("failed");
  const skipped = count("skipped") + (selected.length - results.length);
  const byUnlock = new Map<string, string[]>();
  for (const r of results) {
    if (r.status !== "skipped") continue;
    const key = r.unlock ? `needs ${r.unlock}` : (r.reason ?? "skipped");
    byUnlock.set(key, [...(byUnlock.get(key) ?? []), r.id]);
  }
  const notChecked = [...byUnlock]
    .map(([unlock, rules]) => ({ unlock, rules }))
    .sort((a, b) => b.rules.length - a.rules.length);
  const byCause = new Map<string, string[]>();
  for (const r of results)
    if (r.status === "failed")
      byCause.set(r.cause ?? `rule ${r.id}`, [...(byCause.get(r.cause ?? `rule ${r.id}`) ?? []), r.id]);
  const groups = [...byCause]
    .map(([cause, rules]) => ({ cause, rules }))
    .sort((a, b) => b.rules.length - a.rules.length);
  const total = selected.length;
  const parts: string[] = [];
  if (failed > 0)
    parts.push(
      `${failed} of ${plural(total, "rule")} failed${groups.length < failed ? ` (${plural(groups.length, "cause")})` : ""}`,
    );
  parts.push(
    failed > 0
      ? `${passed} held`
      : passed === total
        ? `All ${plural(total, "rule")} held`
        : `${passed} of ${plural(total, "rule")} held`,
  );
  if (skipped > 0) {
    const top = notChecked.slice(0, 4).map((g) => `${g.rules.length} ${g.unlock}`);
    const rest = notChecked.slice(4).reduce((n, g) => n + g.rules.length, 0);
    parts.push(
      `${skipped} not checked${top.length > 0 ? `: ${top.join("; ")}${rest > 0 ? `; ${rest} for other reasons` : ""}` : ""}`,
    );
  }
  if (interrupted) parts.push("the run was interrupted");
  const summary: Summary = {
    passed,
    failed,
    skipped,
    covered: passed + failed,
    catalog,
    verdict: `${parts.join("; ")}.`,
  };
  return { summary, not_checked: notChecked, failure_groups: groups, ...(interrupted ? { interrupted: true } : {}) };
}
