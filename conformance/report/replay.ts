import type { Report, RuleResult } from "../types.js";
import { reproEnvName } from "./env-names.js";

const shell = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/**
 * The command that runs a failed rule's case again: the options the run used (target, control plane,
 * runs, rate, timeout, and of the credential options those the rule's requests carried, with the OAuth
 * client's redirect URI), its own report folder, the same seed (which also rebuilds the same in-process
 * simulator) and, for a property, fast-check's path of the minimal case. Credentials come from the
 * environment variables the reproduction script names, never from the report.
 */
export function replayCommand(report: Report, r: RuleResult): string {
  const c = r.counterexample;
  const o = report.options;
  const parts = ["retail-sim", "conformance"];
  const target = o?.target ?? (/^https?:\/\//.test(report.target) ? report.target : undefined);
  if (target) parts.push("--target", shell(target), "--token", '"$RETAIL_TOKEN"');
  if (o?.control) parts.push("--control", shell(o.control));
  if (o?.controlToken) parts.push("--control-token", '"$RETAIL_CONTROL_TOKEN"');
  if (o?.credentials) parts.push(...reproEnvName(o.credentials, r.credentials));
  if (o?.oauthRedirectUri && (r.credentials ?? o.credentials).includes("--oauth-client"))
    parts.push("--oauth-redirect-uri", shell(o.oauthRedirectUri));
  if (o?.model === false) parts.push("--no-model");
  if (o?.rate) parts.push("--rate", String(o.rate));
  if (o?.timeout) parts.push("--timeout", String(o.timeout));
  if (o?.patient) parts.push("--patient", String(o.patient));
  parts.push(
    "--rules",
    shell(r.id),
    "--seed",
    String(c?.seed ?? report.seed),
    "--runs",
    String(o?.runs ?? report.runs),
  );
  if (c?.path) parts.push("--replay", shell(c.path));
  // Its own folder: a replay never overwrites the run's reports.
  parts.push("--out", shell(`reports/replay-${r.id}`));
  return parts.join(" ");
}
