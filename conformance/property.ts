import fc from "fast-check";
import { BudgetExceeded, Interrupted, Mismatch, NoAnswer, PropertyFailure, Skip } from "./outcomes.js";
import type { RunState } from "./run-state.js";
import type { Exchange, RuleInfo } from "./types.js";

// A rule's fast-check property: each case on the full key with the most budget left, skips and
// interruptions ending it at once, and a failure carrying its minimal case, seed, path and requests.

/** What a property needs of the rule running it (a RuleContext). */
export interface PropertyHost {
  readonly run: RunState;
  readonly rule: RuleInfo;
  readonly exchanges: Exchange[];
  token: string;
  budget: number;
  firstMismatch?: Mismatch;
}

/** Runs a fast-check property; a failure carries the minimal case, its seed and path, and its requests. */
export async function runProperty<T>(
  host: PropertyHost,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  numRuns: number,
): Promise<void> {
  const check = async (value: T) => {
    try {
      await predicate(value);
    } catch (error) {
      if (error instanceof Mismatch && !(error instanceof BudgetExceeded)) host.firstMismatch ??= error;
      throw error;
    }
  };
  // Skips, interruptions and lost answers end the property at once; fast-check must not shrink them (a
  // request the transport lost says nothing about the input: the runner runs the rule again instead).
  let halt: Error | undefined;
  // Each case is a scenario of its own (it creates what it uses, and retries with its own key), so
  // with several full keys each case takes the one with the most budget: a property larger than one
  // key's window does not wait for that window while the others sit idle.
  const perCase = Math.max(1, Math.ceil(host.rule.cost / Math.max(1, numRuns)));
  const guarded = async (value: T) => {
    if (halt) throw halt;
    if (host.token !== null && host.run.fullTokens.includes(host.token) && host.run.fullTokens.length > 1)
      host.token = host.run.pacer.pick(host.run.fullTokens, perCase);
    try {
      await check(value);
    } catch (error) {
      if (error instanceof Skip || error instanceof Interrupted || error instanceof NoAnswer) halt = error;
      throw error;
    }
  };
  const params = { seed: host.run.seed, numRuns, endOnFailure: false };
  const before = host.exchanges.length;
  let result = await fc.check(fc.asyncProperty(arbitrary, guarded), { ...params, path: host.run.replay });
  if (halt) throw halt;
  // A path from another run of the rule (the target's data changed since) does not fit: run from the seed.
  if (
    host.run.replay &&
    result.failed &&
    result.counterexample === null &&
    /path/i.test(String(result.errorInstance ?? ""))
  ) {
    result = await fc.check(fc.asyncProperty(arbitrary, guarded), params);
    if (halt) throw halt;
  }
  if (!result.failed) return;
  if (!result.counterexample) {
    const e: unknown = result.errorInstance;
    throw e instanceof Mismatch ? e : new Mismatch("the property to run", String(e));
  }
  const value = result.counterexample[0] as T;
  // The minimal case runs once more for its requests: the rule's set-up before it stays in the record.
  const setup = host.exchanges.length;
  const record = () => [...host.exchanges.slice(0, before), ...host.exchanges.slice(setup)];
  host.budget += 100;
  try {
    await predicate(value);
  } catch (error) {
    if (error instanceof Skip || error instanceof Interrupted) throw error;
    // A case that breaks the rule's own code (a body it cannot read) still carries its seed and path.
    const mismatch =
      error instanceof Mismatch
        ? error
        : new Mismatch("the rule to run to the end", `it stopped: ${(error as Error)?.message ?? String(error)}`);
    throw new PropertyFailure(
      mismatch,
      host.run.seed,
      result.counterexamplePath ?? undefined,
      fc.stringify(value),
      record(),
    );
  }
  const first = result.errorInstance;
  const mismatch = first instanceof Mismatch ? first : new Mismatch("the property to hold", String(first));
  throw new PropertyFailure(
    new Mismatch(
      mismatch.expected,
      `${mismatch.observed} (the minimal case passed when run again: flaky)`,
      mismatch.ambient,
    ),
    host.run.seed,
    result.counterexamplePath ?? undefined,
    fc.stringify(value),
    record(),
  );
}
