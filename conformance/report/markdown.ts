import type { Report } from "../types.js";
import { replayCommand } from "./replay.js";

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** A summary fit for a CI job summary: totals, failures with their spec sentence and replay, then every rule. */
export function toMarkdown(report: Report): string {
  const s = report.summary;
  const lines = [
    `# Conformance: ${s.failed === 0 ? "passed" : `${s.failed} rule${s.failed === 1 ? "" : "s"} failed`}`,
    "",
    `Target \`${report.target}\`, seed ${report.seed}, ${report.runs} runs per property, ${(report.duration_ms / 1000).toFixed(1)} s.`,
    "",
    `| passed | failed | skipped | rules covered |`,
    `|---|---|---|---|`,
    `| ${s.passed} | ${s.failed} | ${s.skipped} | ${s.covered} of ${s.catalog} |`,
    "",
  ];
  const failed = report.rules.filter((r) => r.status === "failed");
  if (failed.length > 0) {
    lines.push("## Failures", "");
    for (const r of failed) {
      const c = r.counterexample;
      lines.push(`### \`${r.id}\` ${r.title}`, "", `> ${r.spec_quote} (${r.spec_ref})`, "", `- Expected: ${c?.expected}`, `- Observed: ${c?.observed}`);
      if (c?.input) lines.push(`- Minimal input: \`${c.input}\``);
      lines.push(`- Replay: \`${replayCommand(report, r)}\``);
      if (r.reproducible !== undefined) lines.push(`- ${r.reproducible ? "Reproducible: failed again when run once more" : "Flaky: passed when run once more"}`);
      if (c && c.curl.length > 0) lines.push("", "```sh", ...c.curl, "```");
      lines.push("");
    }
  }
  lines.push("## Rules", "", "| rule | area | status | note |", "|---|---|---|---|");
  for (const r of report.rules) lines.push(`| \`${r.id}\` | ${r.area} | ${r.status} | ${cell(r.reason ?? r.leniency ?? r.title)} |`);
  return `${lines.join("\n")}\n`;
}
