import { Chain, type Link } from "../kernel/chain.js";
import { fail, ok, type Result } from "../kernel/result.js";
import { DEFAULT_MAX_FIELD_ERRORS } from "../contract/errors.js";
import { WindowLedger } from "./limits.js";

// Every store of state the simulator keeps has a bound that holds whatever the clock does (a frozen
// manual clock included): when a store is full, its oldest entries go first. The caps are configurable
// (`--cap name=value`, the library's `caps` option); their defaults keep the demo and large fixtures
// within the memory figures of docs/performance.md under any request stream. Caps named "per ..." hold
// for each credential, store or answer of one sandbox; the others hold for the whole process, every
// sandbox's entries counted together.

export interface Caps {
  /** Idempotency records kept in the whole process. */
  readonly idempotencyRecords: number;
  /** Bytes of idempotency records (stored answers and their keys) kept in the whole process. */
  readonly idempotencyBytes: number;
  /** Idempotency records kept per credential. */
  readonly idempotencyRecordsPerCredential: number;
  /** Bytes of idempotency records kept per credential. */
  readonly idempotencyBytesPerCredential: number;
  /** Rate-limit windows (distinct counted keys) open in the whole process. */
  readonly rateLimitKeys: number;
  /** Pending OAuth sign-ins (consent tickets) and unexchanged authorization codes, each, per sandbox. */
  readonly oauthPending: number;
  /** Unexpired access tokens per OAuth connection; one more retires the connection's oldest. */
  readonly accessTokensPerConnection: number;
  /** OAuth connections per app and user; one more disconnects and forgets their oldest. */
  readonly connectionsPerAppUser: number;
  /** Stock movements remembered per store (the newest are kept). */
  readonly movementHistory: number;
  /** Rendered rows each JSON row cache keeps (per list of each store). */
  readonly rowCache: number;
  /** Field errors in one error answer; past it, one more entry says how many were left out. */
  readonly fieldErrors: number;
  /** Exchanges the request journal keeps per sandbox (the newest). */
  readonly journalEntries: number;
  /** Bytes of each request and response body the journal keeps (the start of it). */
  readonly journalBodyBytes: number;
  /** Bytes the journals of the whole process keep; past it, the process's oldest entries go first. */
  readonly journalBytes: number;
  /**
   * Bytes of heap the worlds of the whole process may take (the default sandbox, every other one, and
   * the fixture or snapshot each keeps for its resets), as `sandboxes.ts` estimates them from their source.
   */
  readonly worldBytes: number;
}

export const DEFAULT_CAPS: Caps = {
  idempotencyRecords: 200_000,
  idempotencyBytes: 64 * 1024 * 1024,
  idempotencyRecordsPerCredential: 20_000,
  idempotencyBytesPerCredential: 16 * 1024 * 1024,
  rateLimitKeys: 100_000,
  oauthPending: 10_000,
  accessTokensPerConnection: 10,
  connectionsPerAppUser: 100,
  movementHistory: 10_000,
  rowCache: 50_000,
  fieldErrors: DEFAULT_MAX_FIELD_ERRORS,
  journalEntries: 1000,
  journalBodyBytes: 16 * 1024,
  journalBytes: 64 * 1024 * 1024,
  worldBytes: 1024 * 1024 * 1024,
};

/** The command line's names of the caps (`--cap idempotency-bytes=1048576`), in the order they are documented. */
export const CAP_NAMES: Readonly<Record<keyof Caps, string>> = {
  idempotencyRecords: "idempotency-records",
  idempotencyBytes: "idempotency-bytes",
  idempotencyRecordsPerCredential: "idempotency-records-per-credential",
  idempotencyBytesPerCredential: "idempotency-bytes-per-credential",
  rateLimitKeys: "rate-limit-keys",
  oauthPending: "oauth-pending",
  accessTokensPerConnection: "access-tokens-per-connection",
  connectionsPerAppUser: "connections-per-app-user",
  movementHistory: "movement-history",
  rowCache: "row-cache",
  fieldErrors: "field-errors",
  journalEntries: "journal-entries",
  journalBodyBytes: "journal-body-bytes",
  journalBytes: "journal-bytes",
  worldBytes: "world-bytes",
};

/** Each cap is an integer from 1 to this (a cap of 0 would refuse what the spec allows). */
export const MAX_CAP = 2 ** 40;

/** The defaults with the given caps in place; a value that is not an integer from 1 to MAX_CAP is refused. */
export function resolveCaps(given: Partial<Caps> = {}): Result<Caps, string> {
  const caps: Record<string, number> = { ...DEFAULT_CAPS };
  for (const [name, value] of Object.entries(given)) {
    if (!(name in DEFAULT_CAPS)) return fail(`unknown cap "${name}"`);
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 1 || value > MAX_CAP)
      return fail(`cap ${CAP_NAMES[name as keyof Caps]} must be an integer from 1 to ${MAX_CAP}`);
    caps[name] = value;
  }
  return ok(caps as unknown as Caps);
}

/** The defaults with the given caps in place; a cap out of range is a mistake of the caller, thrown. */
export function capsOrThrow(given: Partial<Caps> | undefined): Caps {
  const caps = resolveCaps(given);
  if (!caps.ok) throw new Error(caps.error);
  return caps.value;
}

/** `name=value` pairs of the command line, by their kebab-case names, to caps. */
export function parseCapArgs(args: readonly string[]): Result<Partial<Caps>, string> {
  const byName = new Map(Object.entries(CAP_NAMES).map(([key, name]) => [name, key as keyof Caps]));
  const caps: Partial<Record<keyof Caps, number>> = {};
  for (const arg of args) {
    const match = /^([a-z-]+)=(\d{1,15})$/.exec(arg);
    const key = match ? byName.get(match[1] as string) : undefined;
    if (!match || key === undefined)
      return fail(`--cap takes name=integer with a name among: ${[...byName.keys()].join(", ")} (got "${arg}")`);
    caps[key] = Number(match[2]);
  }
  return ok(caps);
}

/** An entry a world keeps and the process counts: its size, and how its world lets it go. */
export interface Counted {
  readonly bytes: number;
  /** Takes the entry out of its world (which then calls `ProcessLedger.remove`). */
  drop(): void;
}

/**
 * The entries of one kind that every world of a process keeps, oldest first, counted against the
 * process-wide caps: adding one costs the same whatever the number held, and the oldest go first.
 */
export class ProcessLedger {
  private readonly chain = new Chain<Counted>();
  private heldBytes = 0;

  get records(): number {
    return this.chain.size;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  add(entry: Counted): Link<Counted> {
    this.heldBytes += entry.bytes;
    return this.chain.push(entry);
  }

  remove(link: Link<Counted>): void {
    if (link.linked) this.heldBytes -= link.value.bytes;
    this.chain.remove(link);
  }

  /** An entry held changed size by `delta` bytes. */
  resized(delta: number): void {
    this.heldBytes += delta;
  }

  /** Drops the oldest entries (whichever world keeps them) until at most `records` and `bytes` are held. */
  trim(records: number, bytes: number): void {
    while (this.chain.size > records || this.heldBytes > bytes) (this.chain.first as Counted).drop();
  }
}

/**
 * What one process holds against the caps that count every sandbox's entries together. Each world of a
 * simulator gets the same one; a world built alone (a test) gets one of its own. A world that is
 * discarded (a reset, a removed sandbox) gives its entries back.
 */
export class ProcessBounds {
  /** Idempotency records of every world (engine/idempotency.ts). */
  readonly idempotency = new ProcessLedger();
  /** The rate-limit windows of every world, against `rateLimitKeys`. */
  readonly rateLimitWindows: WindowLedger;
  /** Bytes charged to the worlds held, against `worldBytes` (sandboxes.ts). */
  worldBytesHeld = 0;

  constructor(readonly caps: Caps = DEFAULT_CAPS) {
    this.rateLimitWindows = new WindowLedger(caps.rateLimitKeys);
  }
}
