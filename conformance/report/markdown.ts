import type { Report } from "../types.js";
import { modelSummary } from "./model.js";
import { replayCommand } from "./replay.js";
import { runNotes } from "./run-notes.js";
import { headline, rerunNote } from "../verdict.js";

/** The model's account: what it compared and what the run reached of the spec. */
function modelLines(report: Report): string[] {
  const m = modelSummary(report);
  if (!m) return [];
  return [
    "## The model",
    "",
    ...m.lines.map((l) => `- ${l}`),
    ...(m.never.length > 0 ? ["", "Never reached:", "", ...m.never.map((n) => `- ${n}`)] : []),
    "",
  ];
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** A summary fit for a CI job summary: totals, failures with their spec sentence and replay, then every rule. */
export function toMarkdown(report: Report): string {
  const s = report.summary;
  const lines = [
    `# Conformance: ${headline(report).toLowerCase()}`,
    "",
    `**${s.verdict}**`,
    "",
    ...runNotes(report).flatMap((n) => [`- ${n}`]),
    ...(runNotes(report).length > 0 ? [""] : []),
    `Target \`${report.target}\`, seed ${report.seed}, ${report.runs} runs per property, ${(report.duration_ms / 1000).toFixed(1)} s.`,
    "",
    `| passed | failed | flaky | skipped | rules covered |`,
    `|---|---|---|---|---|`,
    `| ${s.passed} | ${s.failed} | ${s.flaky} | ${s.skipped} | ${s.covered} of ${s.catalog} |`,
    "",
  ];
  const failed = report.rules.filter((r) => r.status === "failed" || r.status === "flaky");
  const shared = report.failure_groups.filter((g) => g.rules.length > 1 || !g.cause.startsWith("rule "));
  if (shared.length > 0) {
    lines.push("## Failures by cause", "");
    for (const g of report.failure_groups)
      lines.push(
        `- ${g.cause.startsWith("rule ") ? `\`${g.rules[0]}\`` : `${g.cause}: ${g.rules.map((id) => `\`${id}\``).join(", ")}`}`,
      );
    lines.push("");
  }
  if (report.not_checked.length > 0) {
    lines.push("## Not checked", "");
    for (const g of report.not_checked)
      lines.push(`- ${g.rules.length} ${g.unlock}: ${g.rules.map((id) => `\`${id}\``).join(", ")}`);
    lines.push("");
  }
  if (failed.length > 0) {
    lines.push("## Failures", "");
    for (const r of failed) {
      const c = r.counterexample;
      lines.push(
        `### \`${r.id}\` ${r.title}${r.status === "failed" ? "" : " (flaky)"}`,
        "",
        `> ${r.spec_quote} (${r.spec_ref})`,
        "",
        `- Expected: ${c?.expected}`,
        `- Observed: ${c?.observed}`,
      );
      if (c?.input) lines.push(`- Minimal input: \`${c.input}\``);
      lines.push(`- Replay: \`${r.replay ?? replayCommand(report, r)}\``);
      if (r.ambient)
        lines.push(
          `- Seen by the ambient check \`${r.ambient}\` (every response is judged against the contract, whatever rule runs)`,
        );
      const again = rerunNote(r);
      if (again) lines.push(`- Run again: ${again}`);
      if (c && c.curl.length > 0)
        lines.push("", "Reproduce (set `RETAIL_TOKEN` first):", "", "```sh", ...c.curl, "```");
      lines.push("");
    }
  }
  lines.push(...modelLines(report));
  lines.push("## Rules", "", "| rule | area | status | note |", "|---|---|---|---|");
  for (const r of report.rules)
    lines.push(`| \`${r.id}\` | ${r.area} | ${r.status} | ${cell(r.reason ?? r.leniency ?? r.title)} |`);
  return `${lines.join("\n")}\n`;
}
