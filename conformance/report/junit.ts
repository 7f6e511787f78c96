import type { Report } from "../types.js";
import { replayCommand } from "./replay.js";

const xml = (text: string) =>
  text
    .replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c] as string)
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, "");

/** JUnit XML: one test case per rule, grouped by area; a failure carries the expectation and the requests. */
export function toJunit(report: Report): string {
  const areas = [...new Set(report.rules.map((r) => r.area))];
  const suites = areas.map((area) => {
    const rules = report.rules.filter((r) => r.area === area);
    const cases = rules.map((r) => {
      const name = `${r.id}: ${r.title}`;
      const time = (r.duration_ms / 1000).toFixed(3);
      if (r.status === "skipped")
        return `    <testcase classname="${xml(`conformance.${area}`)}" name="${xml(name)}" time="${time}"><skipped message="${xml(r.reason ?? "skipped")}"/></testcase>`;
      if (r.status === "passed")
        return `    <testcase classname="${xml(`conformance.${area}`)}" name="${xml(name)}" time="${time}"/>`;
      const c = r.counterexample;
      const detail = [
        `Spec (${r.spec_ref}): ${r.spec_quote}`,
        `Expected: ${c?.expected}`,
        `Observed: ${c?.observed}`,
        `Replay: ${replayCommand(report, r)}`,
        ...(r.reproducible === undefined
          ? []
          : [r.reproducible ? "Run again: failed again (reproducible)" : "Run again: passed (flaky)"]),
        ...(c?.curl ?? []),
      ].join("\n");
      return `    <testcase classname="${xml(`conformance.${area}`)}" name="${xml(name)}" time="${time}"><failure message="${xml(`expected ${c?.expected}; observed ${c?.observed}`)}">${xml(detail)}</failure></testcase>`;
    });
    const count = (s: string) => rules.filter((r) => r.status === s).length;
    return `  <testsuite name="${xml(area)}" tests="${rules.length}" failures="${count("failed")}" skipped="${count("skipped")}" errors="0">\n${cases.join("\n")}\n  </testsuite>`;
  });
  const s = report.summary;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="retail-sim conformance" tests="${report.rules.length}" failures="${s.failed}" skipped="${s.skipped}" errors="0" time="${(report.duration_ms / 1000).toFixed(3)}">\n${suites.join("\n")}\n</testsuites>\n`;
}
