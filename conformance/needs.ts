import type { RunState } from "./run-state.js";
import { CREDENTIAL_OPTIONS, type CredentialNeed, type Credentials } from "./credentials.js";
import { minutes, type PlannedAs } from "./patience.js";
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

/**
 * Why the rule cannot run against this target, or undefined when it can. A rule that moves the clock by
 * what a person can wait for (`needs.waits`) runs without a control plane under --patient, when its
 * waits fit what is left of the budget (conformance/patience.ts).
 */
export function missingNeed(run: RunState, rule: RuleInfo): Missing | undefined {
  const lack = lacking(run, rule);
  if (lack || !waitsInRealTime(run, rule)) return lack;
  const refused = run.patience?.refusal(rule);
  return refused ? { reason: refused, unlock: "a longer --patient" } : undefined;
}

/** How the rule stands for --patient's plan: it waits in real time, runs without waiting, or is skipped anyway. */
export function plannedAs(run: RunState, rule: RuleInfo): PlannedAs {
  if (lacking(run, rule)) return "skipped";
  return waitsInRealTime(run, rule) ? "waits" : "runs";
}

const waitsInRealTime = (run: RunState, rule: RuleInfo): boolean =>
  run.target.controlUrl === undefined && Boolean(rule.needs?.clock && rule.needs.waits);

/** What the run lacks for the rule, the budget of --patient aside. */
function lacking(run: RunState, rule: RuleInfo): Missing | undefined {
  const n = rule.needs;
  if (!n || run.target.controlUrl !== undefined) return undefined;
  if (n.clock && !n.waits)
    return {
      reason: "needs to move the target's clock, which only a control plane can (--control)",
      unlock: "--control",
    };
  const alt = n.orCredentials ?? [];
  // A rule that can wait needs the control plane for its clock and for the credentials it names only.
  const given = alt.length > 0 ? alt.every((need) => hasCredential(run.credentials, need)) : Boolean(n.waits);
  if (n.control && !given) {
    if (alt.length > 0) {
      const options = alt.map((need) => CREDENTIAL_OPTIONS[need]).join(" and ");
      return {
        reason: `needs ${options}, or the target's control plane (--control)`,
        unlock: alt.map((need) => CREDENTIAL_OPTIONS[need].split(" ")[0]).join(" and "),
      };
    }
    return { reason: "needs the target's control plane (--control)", unlock: "--control" };
  }
  // Credentials in place of the control plane stand for all it gave the rule, shared data included.
  if (n.control && alt.length > 0 && !n.waits) return undefined;
  if (n.waits && !run.patience)
    return {
      reason: `needs to move the target's clock by ${minutes(n.waits.seconds)} in all (${n.waits.for}): --patient MINUTES waits that long in real time, or the target's control plane (--control) moves it`,
      unlock: "--control or --patient",
    };
  if (n.destructive)
    return {
      reason: "changes shared data beyond what the run creates: runs only with the target's control plane (--control)",
      unlock: "--control",
    };
  return undefined;
}
