import { Chain, type Link } from "../kernel/chain.js";
import type { Caps, Holder, ProcessBounds, ProcessLedger } from "./caps.js";

// Spec, Limits, Idempotency paragraph: a retry with the same key and body replays the stored status
// and data; a different body answers IDEMPOTENCY_KEY_REUSED; a key still processing answers
// IDEMPOTENCY_IN_PROGRESS; a 500 is not remembered; stored records lapse after 24 hours; keys are
// remembered per credential.
//
// Bounded (engine/caps.ts): by count and by bytes per credential and per world, the credential's or
// the world's own oldest going first; and in the whole process (every world's records counted together
// in `ProcessBounds`), where the world holding the most lets its oldest go. A lapsed
// record is gone on time: the records of a world lapse in the order they were stored (the lifetime is
// constant and the world's clock only moves forward), so each request drops the ones at the front that
// have lapsed, and never looks at the others.

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** Spec, Limits: 1 to 255 printable characters without spaces. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

/** What a record costs besides its key, its credential's id and its answer: the entry, its links, the fingerprint. */
export const RECORD_OVERHEAD_BYTES = 200;

/** How records name whose personal details their answer shows: `customer:<id>`, the id in lower case. */
export const personalSubject = (kind: "customer", id: string): string => `${kind}:${id.toLowerCase()}`;

export interface StoredResponse {
  readonly status: number;
  readonly body: string | null;
}

/** A stored record, as `records()` lists them and `restore()` takes them back. */
export interface IdempotencyRecord {
  readonly credentialId: string;
  readonly key: string;
  /** The digest of the request the record answers (method, path, query and body). */
  readonly fingerprint: string;
  readonly response: StoredResponse;
  readonly expiresAt: number;
  /** Whose personal details the answer shows (`customer:<id>`): erasure rewrites it (`rewrite`). */
  readonly subject?: string;
}

export type Begin =
  | { readonly kind: "new" }
  | { readonly kind: "replay"; readonly response: StoredResponse }
  | { readonly kind: "in_progress" }
  | { readonly kind: "reused" };

/** A request under way: only its fingerprint is kept (these are as many as the requests in flight). */
interface Pending {
  readonly fingerprint: string;
}

/** A stored record and its places in the two orders it is kept in: its world's and its credential's. */
class Stored implements IdempotencyRecord {
  inWorld!: Link<Stored>;
  inCredential!: Link<Stored>;
  bytes: number;

  constructor(
    readonly id: string,
    readonly credentialId: string,
    readonly key: string,
    readonly fingerprint: string,
    public response: StoredResponse,
    readonly expiresAt: number,
    readonly subject: string | undefined,
  ) {
    this.bytes = recordBytes(key, credentialId, response);
  }
}

export const recordBytes = (key: string, credentialId: string, response: StoredResponse): number =>
  RECORD_OVERHEAD_BYTES + key.length + credentialId.length + (response.body ? Buffer.byteLength(response.body) : 0);

/** One credential's records, oldest first, and their bytes. */
interface Holding {
  readonly chain: Chain<Stored>;
  bytes: number;
}

export class IdempotencyStore implements Holder {
  private readonly entries = new Map<string, Pending | Stored>();
  /** Stored records in the order they were stored, which is the order they lapse in. */
  private readonly byAge = new Chain<Stored>();
  private readonly byCredential = new Map<string, Holding>();
  private readonly bySubject = new Map<string, Set<Stored>>();
  private readonly ledger: ProcessLedger;
  private readonly caps: Caps;
  private heldBytes = 0;
  private discarded = false;

  constructor(bounds: ProcessBounds) {
    this.ledger = bounds.idempotency;
    this.caps = bounds.caps;
    this.ledger.join(this);
  }

  begin(credentialId: string, key: string, fingerprint: string, now: number): Begin {
    this.expire(now);
    const id = `${credentialId}\u0000${key}`;
    const entry = this.entries.get(id);
    if (entry) {
      if (entry.fingerprint !== fingerprint) return { kind: "reused" };
      if (!(entry instanceof Stored)) return { kind: "in_progress" };
      return { kind: "replay", response: entry.response };
    }
    if (!this.discarded) this.entries.set(id, { fingerprint });
    return { kind: "new" };
  }

  /**
   * Stores the outcome. A server fault (5xx) is forgotten so the client can retry; so is an answer
   * larger than the byte caps allow (the key then reads as new). `subject` names whose personal
   * details the answer shows.
   */
  finish(credentialId: string, key: string, response: StoredResponse, now: number, subject?: string): void {
    const id = `${credentialId}\u0000${key}`;
    const entry = this.entries.get(id);
    if (!entry || entry instanceof Stored) return;
    this.entries.delete(id);
    // rule idempotency.error-500-not-remembered: a 500 is not remembered; any other answer, a client error too, is.
    // rule idempotency.client-error-replayed: a client error is stored and replayed like a success.
    if (response.status >= 500) return;
    this.keep(new Stored(id, credentialId, key, entry.fingerprint, response, now + IDEMPOTENCY_TTL_MS, subject));
  }

  /** Drops the records that have lapsed by `now`: the oldest, at the front; work only for those dropped. */
  expire(now: number): void {
    for (let first = this.byAge.first; first && now >= first.expiresAt; first = this.byAge.first) this.remove(first);
  }

  /**
   * Gives every answer stored about `subject` a new body (erasure: the customer as it reads now),
   * keeping its status; the byte caps still hold afterwards.
   */
  rewrite(subject: string, body: string): void {
    for (const record of [...(this.bySubject.get(subject) ?? [])]) {
      const before = record.bytes;
      record.response = { status: record.response.status, body };
      record.bytes = recordBytes(record.key, record.credentialId, record.response);
      this.resized(record, record.bytes - before);
    }
  }

  /** The stored records, oldest first (in-progress requests are not records). */
  records(): IdempotencyRecord[] {
    return [...this.byAge.values()].map(({ credentialId, key, fingerprint, response, expiresAt, subject }) =>
      subject === undefined
        ? { credentialId, key, fingerprint, response, expiresAt }
        : { credentialId, key, fingerprint, response, expiresAt, subject },
    );
  }

  /** Takes records back (a snapshot's), oldest first; the lapsed ones by `now` and what the caps refuse are left out. */
  restore(records: readonly IdempotencyRecord[], now: number): void {
    const ordered = [...records].sort((a, b) => a.expiresAt - b.expiresAt);
    for (const r of ordered) {
      if (now >= r.expiresAt) continue;
      const id = `${r.credentialId}\u0000${r.key}`;
      const old = this.entries.get(id);
      if (old instanceof Stored) this.remove(old);
      this.keep(new Stored(id, r.credentialId, r.key, r.fingerprint, r.response, r.expiresAt, r.subject));
    }
  }

  /** The world is gone (reset or removed): its records leave the process's count; nothing is kept from now on. */
  discard(): void {
    this.discarded = true;
    for (let first = this.byAge.first; first; first = this.byAge.first) this.remove(first);
    this.entries.clear();
    this.ledger.leave(this);
  }

  /** Stored records of this world. */
  get size(): number {
    return this.byAge.size;
  }

  /** Bytes of this world's stored records. */
  get bytes(): number {
    return this.heldBytes;
  }

  dropOldest(): void {
    this.remove(this.byAge.first as Stored);
  }

  /** One credential's stored records and their bytes. */
  usage(credentialId: string): { records: number; bytes: number } {
    const holding = this.byCredential.get(credentialId);
    return { records: holding?.chain.size ?? 0, bytes: holding?.bytes ?? 0 };
  }

  /** Takes a record out of every order and count (lapsed, evicted, discarded). */
  remove(record: Stored): void {
    if (!record.inWorld.linked) return;
    this.entries.delete(record.id);
    this.byAge.remove(record.inWorld);
    this.ledger.count(-1, -record.bytes);
    this.heldBytes -= record.bytes;
    const holding = this.byCredential.get(record.credentialId) as Holding;
    holding.chain.remove(record.inCredential);
    holding.bytes -= record.bytes;
    if (holding.chain.size === 0) this.byCredential.delete(record.credentialId);
    if (record.subject !== undefined) {
      const about = this.bySubject.get(record.subject);
      about?.delete(record);
      if (about?.size === 0) this.bySubject.delete(record.subject);
    }
  }

  private keep(record: Stored): void {
    const caps = this.caps;
    if (this.discarded) return;
    // A record larger than a byte cap is not kept: it would push out every other and then itself.
    if (
      record.bytes >
      Math.min(caps.idempotencyBytesPerCredential, caps.idempotencyBytesPerSandbox, caps.idempotencyBytes)
    )
      return;
    this.entries.set(record.id, record);
    record.inWorld = this.byAge.push(record);
    this.ledger.count(1, record.bytes);
    this.heldBytes += record.bytes;
    let holding = this.byCredential.get(record.credentialId);
    if (!holding) this.byCredential.set(record.credentialId, (holding = { chain: new Chain(), bytes: 0 }));
    record.inCredential = holding.chain.push(record);
    holding.bytes += record.bytes;
    if (record.subject !== undefined) {
      let about = this.bySubject.get(record.subject);
      if (!about) this.bySubject.set(record.subject, (about = new Set()));
      about.add(record);
    }
    this.bound(holding);
  }

  private resized(record: Stored, delta: number): void {
    this.heldBytes += delta;
    this.ledger.count(0, delta);
    const holding = this.byCredential.get(record.credentialId) as Holding;
    holding.bytes += delta;
    this.bound(holding);
  }

  /**
   * The oldest go first: the credential's until within its caps, then this world's, then the world's
   * holding the most in the process (docs/interfaces.md, Caps).
   */
  private bound(holding: Holding): void {
    const caps = this.caps;
    while (
      holding.chain.size > caps.idempotencyRecordsPerCredential ||
      holding.bytes > caps.idempotencyBytesPerCredential
    )
      this.remove(holding.chain.first as Stored);
    while (this.size > caps.idempotencyRecordsPerSandbox || this.heldBytes > caps.idempotencyBytesPerSandbox)
      this.dropOldest();
    this.ledger.trim(caps.idempotencyRecords, caps.idempotencyBytes, this);
  }
}
