// What every rule of one run shares: the target, the credentials, the pacer, what to clean up.
import type { IdempotencyMemory } from "./ambient/replay.js";
import type { Credentials } from "./credentials.js";
import type { TransportCount } from "./types.js";
import type { Pacer } from "./pacer.js";
import type { Patience } from "./patience.js";
import type { Target } from "./target.js";
import type { Oracle } from "./model/oracle.js";

/** State shared by every rule of one run. */
export interface RunState {
  readonly target: Target;
  /** The target's `{api_root}` (`apiRootOf` its base URL): request paths are read under it. */
  readonly apiRoot: string;
  /** The main credential (--token). */
  readonly token: string;
  /** Full keys of the store a rule may run with: the main one and any --extra-token. */
  readonly fullTokens: readonly string[];
  readonly credentials: Credentials;
  /** Each given credential's option and secret (`credentialOptions`): which ones a rule used, for its replay. */
  readonly given: readonly { readonly option: string; readonly secret: string }[];
  readonly seed: number;
  readonly runs: number;
  /** fast-check's path of a case to replay (--replay). */
  readonly replay?: string;
  /** Tags everything the run creates, so it only ever touches its own data. */
  readonly runId: string;
  readonly pacer: Pacer;
  /** --patient: the rules whose clock moves wait in real time within a budget (no control plane). */
  readonly patience?: Patience;
  /** Paths of resources the run created, deleted (and checked gone) at the end. */
  readonly cleanup: string[];
  /** Every credential the run sends or receives (the run's token, tokens rules use or are handed): reports redact them. */
  readonly secrets: Set<string>;
  /** Milliseconds a request may take before it counts as unanswered. */
  readonly timeoutMs: number;
  /** Set by SIGINT: rules stop at their next request, or at once while one is in flight. */
  readonly stop: StopSwitch;
  /** What each credential sent under each Idempotency-Key, for the ambient replay check. */
  readonly idempotency: IdempotencyMemory;
  /** The model in lockstep with the target (conformance/model/): every answer is compared with its prediction. */
  oracle?: Oracle;
  /** Why the model could not start (the run went on without it). */
  modelFailure?: string;
  /** The strict profile: the rules' `ctx.choice` checks hold the simulator to its own choices (in process only). */
  readonly strict?: boolean;
  /** Seconds the run moved the target's clock (idempotency records lapse after 24 hours). */
  clockMoved: number;
  counter: number;
  /** What the transport did to the run's requests: retried after no answer, and never answered. */
  readonly transport: TransportCount;
  /** Waits in real time (a retry's back-off); tests pass a fake. */
  readonly sleep: (ms: number) => Promise<void>;
}

/** Stops a run (a signal, a time budget, too many failures): `requested` is read before each request; `stopped` settles when it is asked. */
export interface StopSwitch {
  requested: boolean;
  /** What asked for the stop (`SIGINT`, `SIGTERM`, `--max-time 600 s`, `--max-failures 5`): the report names it. */
  reason?: string;
  readonly stopped?: Promise<void>;
  /** Asks for the stop, once: the first reason stays. */
  readonly request?: (reason: string) => void;
}

/** A stop switch whose `stopped` settles when the stop is requested. */
export function stopSwitch(): StopSwitch & { readonly request: (reason: string) => void } {
  let settle = () => {};
  const stopped = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const sw = {
    requested: false,
    reason: undefined as string | undefined,
    stopped,
    request(reason: string) {
      if (sw.requested) return;
      sw.requested = true;
      sw.reason = reason;
      settle();
    },
  };
  return sw;
}
