import { fail, ok, type Result } from "../kernel/result.js";
import { DEFAULT_MAX_FIELD_ERRORS } from "../contract/errors.js";
import { WindowLedger } from "./limits.js";

// Every store of state the simulator keeps has a bound that holds whatever the clock does (a frozen
// manual clock included): when a store is full, its oldest entries go first. The caps are configurable
// (`--cap name=value`, the library's `caps` option); their defaults keep the demo and large fixtures
// within the memory figures of docs/performance.md under any request stream. Caps named "per ..." hold
// for each credential, store, address or answer of one sandbox, or for each sandbox; the others hold for
// the whole process, every sandbox's entries counted together. What the spec promises per credential
// (idempotency records, rate-limit windows) is bounded per sandbox first, with the process-wide cap a
// last line that takes only from the sandbox holding the most: another sandbox's traffic never takes a
// record or a window from a sandbox holding no more than its share.

export interface Caps {
  /** Idempotency records kept in the whole process; past it, the sandbox holding the most lets its oldest go. */
  readonly idempotencyRecords: number;
  /** Bytes of idempotency records (stored answers and their keys) kept in the whole process; as above. */
  readonly idempotencyBytes: number;
  /** Idempotency records kept per sandbox; past it, the sandbox's own oldest go. */
  readonly idempotencyRecordsPerSandbox: number;
  /** Bytes of idempotency records kept per sandbox. */
  readonly idempotencyBytesPerSandbox: number;
  /** Idempotency records kept per credential. */
  readonly idempotencyRecordsPerCredential: number;
  /** Bytes of idempotency records kept per credential. */
  readonly idempotencyBytesPerCredential: number;
  /** Rate-limit windows (distinct counted keys) open in the whole process; past it, the sandbox holding the most lets one go. */
  readonly rateLimitKeys: number;
  /**
   * Rate-limit windows per sandbox, each of its two pools: the windows of its credentials (their own
   * limits, the failed-authentication pairs of a credential it knows) and those any request can open.
   */
  readonly rateLimitKeysPerSandbox: number;
  /** Failure windows charged to one address, or to one credential a sandbox knows (its failed pairs). */
  readonly rateLimitKeysPerCaller: number;
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
  idempotencyRecordsPerSandbox: 50_000,
  idempotencyBytesPerSandbox: 32 * 1024 * 1024,
  idempotencyRecordsPerCredential: 20_000,
  idempotencyBytesPerCredential: 16 * 1024 * 1024,
  rateLimitKeys: 100_000,
  rateLimitKeysPerSandbox: 20_000,
  rateLimitKeysPerCaller: 64,
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
  idempotencyRecordsPerSandbox: "idempotency-records-per-sandbox",
  idempotencyBytesPerSandbox: "idempotency-bytes-per-sandbox",
  idempotencyRecordsPerCredential: "idempotency-records-per-credential",
  idempotencyBytesPerCredential: "idempotency-bytes-per-credential",
  rateLimitKeys: "rate-limit-keys",
  rateLimitKeysPerSandbox: "rate-limit-keys-per-sandbox",
  rateLimitKeysPerCaller: "rate-limit-keys-per-caller",
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

/** One world's share of a kind of entry the process counts, and how it lets its own oldest go. */
export interface Holder {
  readonly size: number;
  readonly bytes: number;
  /** Lets its oldest entry go (and tells the ledger, through `count`). */
  dropOldest(): void;
}

/**
 * The entries of one kind that every world of a process keeps, counted against the process-wide caps.
 * Past a cap the world holding the most (records, or bytes past the byte cap) lets its own oldest go:
 * a world holding no more than the others never loses an entry to their traffic. Finding it looks at
 * each world once, only at the cap, which a world's own caps keep out of reach of one busy world.
 */
export class ProcessLedger {
  private readonly holders = new Set<Holder>();
  records = 0;
  bytes = 0;

  join(holder: Holder): void {
    this.holders.add(holder);
  }

  leave(holder: Holder): void {
    this.holders.delete(holder);
  }

  /** A holder's entries changed by `records` and `bytes`. */
  count(records: number, bytes: number): void {
    this.records += records;
    this.bytes += bytes;
  }

  /**
   * Has the world holding the most let its oldest go until at most `records` and `bytes` are held;
   * `asking`, the world that just added, loses a tie.
   */
  trim(records: number, bytes: number, asking: Holder): void {
    while (this.records > records || this.bytes > bytes) {
      const measure = this.records > records ? (h: Holder) => h.size : (h: Holder) => h.bytes;
      let most = asking;
      for (const h of this.holders) if (measure(h) > measure(most)) most = h;
      most.dropOldest();
    }
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
    this.rateLimitWindows = new WindowLedger(caps);
  }
}
