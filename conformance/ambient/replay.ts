import { bodyOf, errorCode } from "../shapes.js";
import { OPERATIONS_BY_ID } from "../../src/contract/operations/index.js";
import { operationOf } from "./contract.js";
import { AMBIENT_QUOTES, type AmbientViolation } from "./judge.js";

// Spec, Limits (Idempotency): "A retry with the same key and same body returns the same status and
// data with header Idempotent-Replayed: true. A client error replays the same failure. A 500 is not
// remembered. A different body under the same key answers 422 IDEMPOTENCY_KEY_REUSED." Keys are
// remembered "per credential" for 24 hours. Every request of a run that carries a key is remembered
// here, so any rule that happens to retry is judged by these sentences too.

interface Sent {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly status: number;
  readonly data: string;
  /** Ticket of the answer: a later request is judged against it only if it was sent after this answer. */
  readonly answered: number;
  /** Seconds the run had moved the target's clock when this was answered. */
  readonly clock: number;
  readonly at: number;
}

export interface Answer {
  readonly token: string | null;
  readonly key: string | undefined;
  readonly method: string;
  readonly url: string;
  readonly body: string | undefined;
  readonly reply: { status: number; headers: Record<string, string>; json: unknown };
  /** The ticket taken when the request was sent. */
  readonly ticket: number;
  readonly clock: number;
}

/** Answers that are not the outcome of the keyed request: refused before idempotency, or not remembered. */
const NOT_AN_OUTCOME = new Set([401, 402, 403, 429, 500, 502, 503, 504]);
/** Keep a margin below the 24 hours a record lives. */
const LIFETIME_S = 23 * 3600;

const canon = (v: unknown, ignore?: string): string =>
  JSON.stringify(v, (_k, x) =>
    x !== null && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(
          Object.keys(x)
            .filter((k) => k !== ignore)
            .sort()
            .map((k) => [k, x[k]]),
        )
      : x,
  ) ?? "";

function sameDocument(a: string, b: string): boolean {
  try {
    return canon(JSON.parse(a)) === canon(JSON.parse(b));
  } catch {
    return false;
  }
}

function violation(expected: string, observed: string): AmbientViolation {
  return { check: "ambient.replay", quote: AMBIENT_QUOTES["ambient.replay"], expected, observed };
}

export class IdempotencyMemory {
  private tickets = 0;
  private readonly memory = new Map<string, Sent>();

  /** `apiRoot`: the target's `{api_root}`, under which request paths are read. */
  constructor(
    private readonly apiRoot: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A ticket for a request about to be sent (orders requests and answers of concurrent sends). */
  sent(): number {
    return ++this.tickets;
  }

  /**
   * Judges an answer to a keyed request against what the same credential sent under that key before.
   * `first` is true when this answer is the key's first outcome, a success: a retry of it must replay.
   */
  answer(a: Answer): { violation?: AmbientViolation; first: boolean } {
    // Spec, Limits: "1 to 255 printable characters without spaces": anything else is refused, never a key.
    if (a.key === undefined || !/^[\x21-\x7E]{1,255}$/.test(a.key)) return { first: false };
    const violation = this.judge(a);
    const status = a.reply.status;
    return { ...(violation ? { violation } : {}), first: this.firstOutcome === a && status >= 200 && status < 300 };
  }

  private firstOutcome: Answer | undefined;

  private judge(a: Answer): AmbientViolation | undefined {
    let path: string;
    try {
      path = new URL(a.url).pathname;
    } catch {
      return undefined;
    }
    const id = `${a.token ?? ""}\u0000${a.key}`;
    const before = this.memory.get(id);
    const status = a.reply.status;
    const replayed = /^\s*true\s*$/i.test(a.reply.headers["idempotent-replayed"] ?? "");
    // Spec, Inventory rules 3: a replayed batch marks every line `replayed: true`; the rest is the same data.
    const data = canon(bodyOf(a.reply)?.data ?? errorCode(a.reply) ?? null, "replayed");
    const fresh =
      before !== undefined &&
      before.answered < a.ticket &&
      a.clock - before.clock < LIFETIME_S &&
      this.now() - before.at < LIFETIME_S * 1000;
    const inProgress = status === 409 && errorCode(a.reply) === "IDEMPOTENCY_IN_PROGRESS";
    const remember = () => {
      this.firstOutcome = a;
      this.memory.set(id, {
        method: a.method,
        path,
        body: a.body ?? "",
        status,
        data,
        answered: ++this.tickets,
        clock: a.clock,
        at: this.now(),
      });
    };
    // Spec, Limits: "PATCH and DELETE take none" (nor do reads): a key sent there is no key.
    const op = operationOf(a.method, a.url, this.apiRoot);
    if (typeof op === "object" && OPERATIONS_BY_ID.get(op.operationId)?.idempotency === "none") return undefined;
    if (!fresh || before.method !== a.method || before.path !== path) {
      if (!NOT_AN_OUTCOME.has(status) && !inProgress) remember();
      return undefined;
    }
    if (NOT_AN_OUTCOME.has(status) || inProgress) return undefined;
    const where = `${a.method} ${path} with Idempotency-Key ${JSON.stringify((a.key ?? "").slice(0, 60))}`;
    const body = a.body ?? "";
    if (before.body !== body) {
      // The same document spelled differently (key order, spaces) is not judged either way.
      if (sameDocument(before.body, body)) return undefined;
      if (status === 422 && errorCode(a.reply) === "IDEMPOTENCY_KEY_REUSED") return undefined;
      return violation(
        "422 IDEMPOTENCY_KEY_REUSED for a different body under a key already used",
        `${where} and another body answered ${status}${errorCode(a.reply) ? ` ${errorCode(a.reply)}` : ""}`,
      );
    }
    // A client error must replay the same failure; whether it is recorded before or after the checks
    // that refuse it is the server's order of checks (spec-choices), so only the status and code are judged.
    if (before.status >= 400)
      return status === before.status && data === before.data
        ? undefined
        : violation(
            `the same failure as the first answer (${before.status} ${before.data})`,
            `${where} sent again answered ${status} ${data.slice(0, 80)}`,
          );
    if (!replayed)
      return violation(
        `the first answer replayed (${before.status}) with Idempotent-Replayed: true`,
        `${where} sent again with the same body answered ${status} without Idempotent-Replayed: true`,
      );
    if (status !== before.status)
      return violation(
        `the same status as the first answer (${before.status})`,
        `${where} replayed with status ${status}`,
      );
    if (data !== before.data)
      return violation(
        "the same data as the first answer",
        `${where} replayed other data: ${data.slice(0, 120)} instead of ${before.data.slice(0, 120)}`,
      );
    return undefined;
  }
}
