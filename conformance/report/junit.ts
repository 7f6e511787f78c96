import type { Report, RuleResult } from "../types.js";
import { replayCommand } from "./replay.js";
import { runNotes } from "./run-notes.js";
import { rerunNote } from "../verdict.js";

const xml = (text: string) =>
  text
    .replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c] as string)
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "");

/** What a failing or flaky rule carries: the sentence, expected and observed, the replay and the script. */
function detail(report: Report, r: RuleResult): string {
  const c = r.counterexample;
  return [
    `Spec (${r.spec_ref}): ${r.spec_quote}`,
    `Expected: ${c?.expected}`,
    `Observed: ${c?.observed}`,
    `Replay: ${r.replay ?? replayCommand(report, r)}`,
    ...(rerunNote(r) ? [`Run again: ${rerunNote(r)}`] : []),
    ...(c?.curl ?? []),
  ].join("\n");
}

/**
 * One test case's body by status. A flaky rule is marked the way Surefire does (`<flakyFailure>` in a
 * passing test case, plus a `flaky` property) under `--flaky warn`, and is a `<failure>` under
 * `--flaky fail`.
 */
function body(report: Report, r: RuleResult): string {
  const c = r.counterexample;
  const message = xml(`expected ${c?.expected}; observed ${c?.observed}`);
  switch (r.status) {
    case "passed":
      return "";
    case "skipped":
      return `<skipped message="${xml(r.reason ?? "skipped")}"/>`;
    case "flaky":
      return report.flaky_policy === "fail"
        ? `<failure message="${xml("flaky (--flaky fail): ")}${message}" type="flaky">${xml(detail(report, r))}</failure><properties><property name="flaky" value="true"/></properties>`
        : `<properties><property name="flaky" value="true"/></properties><flakyFailure message="${message}" type="flaky"><stackTrace>${xml(detail(report, r))}</stackTrace></flakyFailure>`;
    case "failed":
      return `<failure message="${message}" type="${xml(r.ambient ?? "rule")}">${xml(detail(report, r))}</failure>`;
  }
}

/**
 * JUnit XML: one test case per rule, grouped by area; a failure carries the expectation and the requests.
 * A run that could not run, or was interrupted, has one more test case in error, so no CI parser reads
 * it as passed; what the run could not delete is in `<system-err>`.
 */
export function toJunit(report: Report): string {
  const areas = [...new Set(report.rules.map((r) => r.area))];
  const failing = (r: RuleResult) => r.status === "failed" || (r.status === "flaky" && report.flaky_policy === "fail");
  const suites = areas.map((area) => {
    const rules = report.rules.filter((r) => r.area === area);
    const cases = rules.map((r) => {
      const open = `    <testcase classname="${xml(`conformance.${area}`)}" name="${xml(`${r.id}: ${r.title}`)}" time="${(r.duration_ms / 1000).toFixed(3)}"`;
      const inner = body(report, r);
      return inner === "" ? `${open}/>` : `${open}>${inner}</testcase>`;
    });
    const failures = rules.filter(failing).length;
    const skipped = rules.filter((r) => r.status === "skipped").length;
    return `  <testsuite name="${xml(area)}" tests="${rules.length}" failures="${failures}" skipped="${skipped}" errors="0">\n${cases.join("\n")}\n  </testsuite>`;
  });
  const end = report.could_not_run
    ? `could not run: ${report.could_not_run}`
    : report.interrupted
      ? `interrupted (${report.stopped_by ?? "stopped"}) before every rule ran`
      : undefined;
  if (end)
    suites.push(
      `  <testsuite name="run" tests="1" failures="0" skipped="0" errors="1">\n    <testcase classname="conformance.run" name="the run" time="${(report.duration_ms / 1000).toFixed(3)}"><error message="${xml(end)}" type="${report.could_not_run ? "could-not-run" : "interrupted"}">${xml(runNotes(report).join("\n"))}</error></testcase>\n  </testsuite>`,
    );
  const failures = report.rules.filter(failing).length;
  const errors = end ? 1 : 0;
  const skipped = report.rules.filter((r) => r.status === "skipped").length;
  const tests = report.rules.length + (end ? 1 : 0);
  const notes = runNotes(report);
  const err = notes.length > 0 ? `\n  <system-err>${xml(notes.join("\n"))}</system-err>` : "";
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="retail-sim conformance" tests="${tests}" failures="${failures}" skipped="${skipped}" errors="${errors}" time="${(report.duration_ms / 1000).toFixed(3)}">\n${suites.join("\n")}${err}\n</testsuites>\n`;
}
