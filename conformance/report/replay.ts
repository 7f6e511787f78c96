import type { Report, RuleResult } from "../types.js";

const shell = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/**
 * The command that runs a failed rule's case again: the same seed (which also rebuilds the same
 * in-process simulator) and, for a property, fast-check's path of the minimal case. On a live
 * target the credential is left for the reader to fill in.
 */
export function replayCommand(report: Report, r: RuleResult): string {
  const c = r.counterexample;
  const parts = ["retail-sim", "conformance"];
  if (/^https?:\/\//.test(report.target)) parts.push("--target", shell(report.target), "--token", "<credential>");
  parts.push("--rules", shell(r.id), "--seed", String(c?.seed ?? report.seed));
  if (c?.path) parts.push("--replay", shell(c.path));
  return parts.join(" ");
}
