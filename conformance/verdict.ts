import type { FailureGroup, NotChecked, Report, RuleResult, Summary } from "./types.js";
import type { Rule } from "./rule.js";

// An honest verdict: what was established and what was not. A run that skipped rules never reads as
// a bare green; the skips are grouped by what would let them run, the failures by their cause; flaky
// rules, an interrupted run and one that could not run at
// all each say so apart. The headline and the exit code of every report and of the CLI come from here.

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** How a run ended, beyond its rules: stopped early (by what), or unable to judge the target (why). */
export interface RunEnd {
  readonly stoppedBy?: string;
  readonly couldNotRun?: string;
}

export function summarize(
  results: readonly RuleResult[],
  selected: readonly Rule[],
  catalog: number,
  end: RunEnd = {},
): {
  summary: Summary;
  not_checked: NotChecked[];
  failure_groups: FailureGroup[];
  interrupted?: boolean;
  stopped_by?: string;
  could_not_run?: string;
} {
  const count = (s: RuleResult["status"]) => results.filter((r) => r.status === s).length;
  const passed = count("passed");
  const failed = count("failed");
  const flaky = count("flaky");
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
    if (r.status === "failed") {
      const cause = r.cause ?? `rule ${r.id}`;
      byCause.set(cause, [...(byCause.get(cause) ?? []), r.id]);
    }
  const groups = [...byCause]
    .map(([cause, rules]) => ({ cause, rules }))
    .sort((a, b) => b.rules.length - a.rules.length);
  const total = selected.length;
  const parts: string[] = [];
  if (end.couldNotRun) parts.push(`Could not run: ${end.couldNotRun}`);
  if (failed > 0) {
    parts.push(
      `${failed} of ${plural(total, "rule")} failed${groups.length < failed ? ` (${plural(groups.length, "cause")})` : ""}`,
    );
  }
  if (flaky > 0) parts.push(`${flaky} flaky (failed, then passed when run again)`);
  parts.push(
    failed + flaky > 0 || end.couldNotRun
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
  if (end.stoppedBy) parts.push(`the run was interrupted (${end.stoppedBy})`);
  const summary: Summary = {
    passed,
    failed,
    flaky,
    skipped,
    covered: passed + failed + flaky,
    catalog,
    verdict: `${parts.join("; ")}.`,
  };
  return {
    summary,
    not_checked: notChecked,
    failure_groups: groups,
    ...(end.stoppedBy ? { interrupted: true, stopped_by: end.stoppedBy } : {}),
    ...(end.couldNotRun ? { could_not_run: end.couldNotRun } : {}),
  };
}

/**
 * What running a failure again showed, in words every report and the command line use: reproducible,
 * flaky, a server fault that did not come back (still a failure), or why it could not run again.
 */
export function rerunNote(r: RuleResult): string | undefined {
  if (r.reproducible === true) return "failed again when run once more: reproducible";
  if (r.reproducible === false)
    return r.status === "flaky"
      ? "passed when run once more: flaky"
      : "passed when run once more: an intermittent server fault, a failure however rare";
  return r.rerun;
}

/** Whether flaky rules fail the run: `--flaky fail`, or the report's own policy (warn by default). */
const flakyFails = (report: Report): boolean => report.flaky_policy === "fail" && report.summary.flaky > 0;

/**
 * The exit code: 2 when the run could not judge the target (an outage's failures are not the
 * server's verdict); 1 when a rule failed (or was flaky under `--flaky fail`); 2 when it was
 * interrupted before anything failed; 0 only when nothing of that happened. A run that did not run is never green.
 */
export function exitCode(report: Report): 0 | 1 | 2 {
  const s = report.summary;
  if (report.could_not_run) return 2;
  if (s.failed > 0 || flakyFails(report)) return 1;
  return report.interrupted ? 2 : 0;
}

/** The headline and the verdict in one line (stdout, the HTML report), the reason said once. */
export function verdictLine(report: Report): string {
  return `${headline(report)}: ${report.summary.verdict.replace(/^Could not run: /, "")}`;
}

/** One word or phrase for the run, the same in every report and on stdout. */
export function headline(report: Report): string {
  const s = report.summary;
  if (report.could_not_run) return "COULD NOT RUN";
  if (s.failed > 0 || flakyFails(report)) return "FAILED";
  if (report.interrupted) return `INTERRUPTED (${report.stopped_by ?? "stopped"})`;
  if (s.flaky > 0) return "PASSED, WITH FLAKY RULES";
  return s.skipped === 0 ? "PASSED" : "PASSED, WITH RULES NOT CHECKED";
}
