import type { RunState } from "./run-state.js";
import { CREDENTIAL_OPTIONS, type CredentialNeed, type Credentials } from "./credentials.js";
import type { RuleInfo } from "./types.js";

// Whether a rule can run against this target, and if not, what would let it: the verdict groups the
// rules not checked by it, so a QA team sees which option turns which skips into checks.

export type { CredentialNeed } from "./credentials.js";

export function hasCredential(c: Credentials, need: CredentialNeed): boolean {
  switch (need) {
    case "key":
      return c.keys.length > 0;
    case "extra":
      return c.extra.length > 0;
    default:
      return c[need] !== undefined;
  }
}

export interface Missing {
  readonly reason: string;
  /** The option (or options) that would let the rule run. */
  readonly unlock: string;
}

export function missingNeed(run: RunState, rule: RuleInfo): Missing | undefined {
  const n = rule.needs;
  if (!n || run.target.controlUrl !== undefined) return undefined;
  if (n.clock)
    return {
      reason: "needs to move the target's clock, which only a control plane can (--control)",
      unlock: "--control",
    };
  if (n.control) {
    const alt = n.orCredentials ?? [];
    if (alt.length > 0 && alt.every((need) => hasCredential(run.credentials, need))) return undefined;
    if (alt.length > 0) {
      const options = alt.map((need) => CREDENTIAL_OPTIONS[need]).join(" and ");
      return {
        reason: `needs ${options}, or the target's control plane (--control)`,
        unlock: alt.map((need) => CREDENTIAL_OPTIONS[need].split(" ")[0]).join(" and "),
      };
    }
    return { reason: "needs the target's control plane (--control)", unlock: "--control" };
  }
  if (n.destructive)
    return {
      reason: "changes shared data beyond what the run creates: runs only with the target's control plane (--control)",
      unlock: "--control",
    };
  return undefined;
}
