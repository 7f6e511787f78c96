import type { Report } from "../types.js";

// What a report says about the run itself, beyond its rules, in words every format shows: why it could
// not run, what stopped it, what the transport lost and what was done about it, what flaky rules mean
// under the run's policy, and what it could not delete.

export function runNotes(report: Report): string[] {
  const s = report.summary;
  const t = report.transport;
  const out: string[] = [];
  if (report.could_not_run)
    out.push(`Could not run: ${report.could_not_run}. Nothing here is a verdict on the server.`);
  if (report.interrupted)
    out.push(
      `Interrupted (${report.stopped_by ?? "stopped"}): the rules not run are listed as not checked; this is not a pass.`,
    );
  if (report.api_root) out.push(`The API was found under \`${report.api_root}\`: every answer was judged under it.`);
  if (s.flaky > 0)
    out.push(
      `${s.flaky} flaky: failed, then passed when run again; ${report.flaky_policy === "fail" ? "they fail the run (--flaky fail)" : "reported, not failing the run (--flaky warn; --flaky fail makes them fail it)"}.`,
    );
  if (t && (t.retried > 0 || t.unanswered > 0 || t.rerun > 0))
    out.push(
      `Transport: ${t.retried} requests sent again after no answer (reads, keyed writes and the clean-up are safe to repeat); ${t.unanswered} never answered; ${t.rerun} rules run again because of it; ${t.answers} answers, ${t.server_errors} of them server faults (5xx).`,
    );
  for (const l of report.left_behind ?? []) out.push(`Left behind (delete it by hand): \`${l.path}\` (${l.status}).`);
  return out;
}
