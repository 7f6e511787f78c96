import type { AmbientViolation } from "./ambient/judge.js";
import type { Exchange } from "./types.js";

// How a rule ends when it does not pass: a mismatch (with the target not answering and the request
// budget spent as kinds of it), an interruption, a skip, or a property's minimal failing case.

/** A rule's expectation did not hold. `expected` and `observed` are what the report shows. */
export class Mismatch extends Error {
  constructor(
    readonly expected: string,
    readonly observed: string,
    /** The ambient check that saw it, when no rule's own expectation did. */
    readonly ambient?: AmbientViolation,
  ) {
    super(`expected ${expected}; observed ${observed}`);
  }
}

/** The strict profile: the simulator broke its own choice (docs/spec-choices.md `topic`), which the spec leaves open. */
export class ChoiceBroken extends Mismatch {
  constructor(
    readonly topic: string,
    expected: string,
    observed: string,
  ) {
    super(`the simulator's choice "${topic}": ${expected}`, observed);
  }
}

/** The target did not answer (timeout, reset, refused connection): the rule fails with what happened. */
export class NoAnswer extends Mismatch {
  constructor(
    expected: string,
    observed: string,
    /** How the answer was lost: the report groups failures by it. */
    readonly how: "timeout" | "refused" | "dropped",
  ) {
    super(expected, observed);
  }
}

/** The rule sent as many requests as it may (a looping cursor, a server that never says "done"). */
export class BudgetExceeded extends Mismatch {
  constructor(
    expected: string,
    observed: string,
    /** The first expectation that failed before the budget ran out: the cause when it has one. */
    readonly first?: Mismatch,
  ) {
    super(expected, observed);
  }
}

/** The run was interrupted (SIGINT): the rule stops where it is and is reported as not run. */
export class Interrupted extends Error {}

/** The rule cannot run against this target (a choice the target made differently, a missing capability). */
export class Skip extends Error {
  constructor(
    message: string,
    /** What would let it run (`--control`, `--key catalog:read=TOKEN`, ...), for the verdict. */
    readonly unlock?: string,
  ) {
    super(message);
  }
}

/** A property failed: the minimal case fast-check found, with what to replay it. */
export class PropertyFailure extends Error {
  constructor(
    readonly mismatch: Mismatch,
    readonly seed: number,
    readonly path: string | undefined,
    readonly input: string,
    readonly exchanges: Exchange[],
  ) {
    super(mismatch.message);
  }
}
