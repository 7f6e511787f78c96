import { Interrupted, Skip } from "./outcomes.js";
import type { Pacer } from "./pacer.js";
import type { RuleInfo } from "./types.js";

// --patient MINUTES: without a control plane, the rules whose clock moves are short enough to wait for
// (the rate-limit windows of a minute and of five, the code's ten-minute lifetime, the token's hour)
// wait in real time instead, within a time budget for the whole run. Each such rule declares in its
// `needs.waits` how long it waits in all; when the run reaches it, the waiting rules still to come are
// planned into what is left of the budget (after the requests of the other rules still to run), each
// of the spec's time limits once before any twice, shortest first; a rule left out of the plan is
// skipped, saying so. `advance()` (rules/support/access.ts) then waits with the run's own sleep, which
// a stop (SIGINT) cuts short.

/** How a rule stands in the plan: it waits in real time, it runs without waiting, or it is skipped anyway. */
export type PlannedAs = "waits" | "runs" | "skipped";

export interface PatienceOptions {
  /** The budget of the whole run, in ms (--patient MINUTES). */
  readonly budgetMs: number;
  /** When the run started, in `now`'s time. */
  readonly started: number;
  readonly now: () => number;
  /** The rules of the run, in order. */
  readonly rules: readonly RuleInfo[];
  /** How each rule stands (conformance/needs.ts `plannedAs`), asked when a plan is made. */
  readonly plannedAs: (rule: RuleInfo) => PlannedAs;
  /** Requests per second the run's keys allow (their windows), for the time the other rules need. */
  readonly perSecond: number;
  /** The run's pacer: its waits are the run's sleep (interruptible), announced and counted. */
  readonly pacer: Pacer;
  /** The run's stop switch (run-state.ts): a wait ends when a stop is requested. */
  readonly stop: { readonly requested: boolean };
}

/** Kept back at the end of the budget: the clean-up and the reports. */
const RESERVE_S = 30;

/** A key's windows (a minute at most for the limits per credential) have passed this long after its last use. */
const KEY_WINDOW_S = 61;

export const minutes = (seconds: number): string =>
  seconds < 90 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`;

export class Patience {
  /** When each credential was last sent, in `now`'s time: a given key's windows are waited out from there. */
  private readonly lastUse = new Map<string, number>();

  constructor(private readonly o: PatienceOptions) {}

  get budgetMs(): number {
    return this.o.budgetMs;
  }

  /** Seconds left of the budget. */
  left(): number {
    return (this.o.started + this.o.budgetMs - this.o.now()) / 1000;
  }

  /** Seconds the requests of these rules take at the pace the keys' windows allow. */
  private requestSeconds(rules: readonly RuleInfo[]): number {
    return rules.reduce((s, r) => s + r.cost, 0) / this.o.perSecond;
  }

  /**
   * The waiting rules from `rule` on that fit in what is left of the budget: each of the spec's time
   * limits once before any twice (so a short budget checks the most limits), shortest first.
   */
  plan(rule: RuleInfo): Set<string> {
    const rest = this.o.rules.slice(Math.max(0, this.o.rules.indexOf(rule)));
    const waiting = rest.filter((r) => r.needs?.waits && this.o.plannedAs(r) === "waits");
    const others = rest.filter((r) => this.o.plannedAs(r) === "runs");
    let available = this.left() - this.requestSeconds(others) - RESERVE_S;
    const seconds = (r: RuleInfo) => (r.needs?.waits?.seconds ?? 0) + this.requestSeconds([r]);
    const byLength = [...waiting].sort((a, b) => seconds(a) - seconds(b));
    const firsts = new Map<string, RuleInfo>();
    for (const r of byLength) if (!firsts.has(r.needs?.waits?.for ?? "")) firsts.set(r.needs?.waits?.for ?? "", r);
    const first = new Set(firsts.values());
    const order = [...first, ...byLength.filter((r) => !first.has(r))];
    const chosen = new Set<string>();
    for (const r of order) {
      if (seconds(r) > available) continue;
      chosen.add(r.id);
      available -= seconds(r);
    }
    return chosen;
  }

  /** Why a waiting rule is skipped now (it does not fit the plan), or undefined when it runs. */
  refusal(rule: RuleInfo): string | undefined {
    const waits = rule.needs?.waits;
    if (!waits || this.plan(rule).has(rule.id)) return undefined;
    const left = Math.max(0, this.left());
    return `waits ${minutes(waits.seconds)} in real time (${waits.for}), which does not fit what is left of the --patient budget (${minutes(left)}, with the rules still to run and the other waits planned in it): a longer --patient, or the target's control plane (--control), checks it`;
  }

  /** A request is sent with this credential now. */
  used(token: string | null): void {
    if (token) this.lastUse.set(token, this.o.now());
  }

  /**
   * Lets `seconds` pass in real time for `rule` (what `advance()` does without a control plane): the
   * run's sleep, announced like a wait for a window and cut short by a stop. A wait that would end past
   * the budget skips the rule instead (a target may ask for a longer Retry-After than planned).
   */
  async wait(rule: RuleInfo, seconds: number, why = rule.needs?.waits?.for ?? "the target's clock"): Promise<void> {
    if (seconds <= 0) return;
    if (seconds > this.left() - RESERVE_S / 2)
      throw new Skip(
        `would wait ${minutes(seconds)} in real time (${why}), past the end of the --patient budget (${minutes(Math.max(0, this.left()))} left)`,
        "a longer --patient",
      );
    let rest = seconds;
    while (rest > 0) {
      const now = Math.min(rest, 3600);
      await this.o.pacer.waitOut(now, `${why}, in real time (--patient; rule ${rule.id})`);
      rest -= now;
      if (this.o.stop.requested) throw new Interrupted("the run was interrupted");
    }
  }

  /**
   * A key given on the command line serves other rules too: before a rule counts requests against its
   * windows, they must have passed since this run last used it (the run cannot make a fresh key).
   */
  async windowsPassed(rule: RuleInfo, token: string): Promise<void> {
    const last = this.lastUse.get(token);
    if (last === undefined) return;
    const wait = Math.ceil(KEY_WINDOW_S - (this.o.now() - last) / 1000);
    if (wait > 0) await this.wait(rule, wait, "the windows of a given key, used earlier in the run");
  }
}
