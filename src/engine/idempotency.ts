// Spec, Limits, Idempotency paragraph: a retry with the same key and body replays the stored status
// and data; a different body answers IDEMPOTENCY_KEY_REUSED; a key still processing answers
// IDEMPOTENCY_IN_PROGRESS; a 500 is not remembered; stored records lapse after 24 hours; keys are
// remembered per credential.

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** Spec, Limits: 1 to 255 printable characters without spaces. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]{1,255}$/;

export interface StoredResponse {
  readonly status: number;
  readonly body: string | null;
}

interface Entry {
  readonly fingerprint: string;
  response: StoredResponse | null;
  /** Set once stored; in-progress entries do not lapse. */
  expiresAt: number | null;
}

/** A stored record as a snapshot keeps it: whose key, the request's fingerprint, the answer and when it lapses. */
export interface IdempotencyRecord {
  readonly credential: string;
  readonly key: string;
  readonly fingerprint: string;
  readonly status: number;
  readonly body: string | null;
  readonly expiresAt: number;
}

export type Begin =
  | { readonly kind: "new" }
  | { readonly kind: "replay"; readonly response: StoredResponse }
  | { readonly kind: "in_progress" }
  | { readonly kind: "reused" };

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();
  private sweepAt = 0;

  begin(credentialId: string, key: string, fingerprint: string, now: number): Begin {
    this.sweep(now);
    const id = `${credentialId}\u0000${key}`;
    const entry = this.entries.get(id);
    if (entry && entry.expiresAt !== null && now >= entry.expiresAt) this.entries.delete(id);
    else if (entry) {
      if (entry.fingerprint !== fingerprint) return { kind: "reused" };
      if (entry.response === null) return { kind: "in_progress" };
      return { kind: "replay", response: entry.response };
    }
    this.entries.set(id, { fingerprint, response: null, expiresAt: null });
    return { kind: "new" };
  }

  /** Stores the outcome; a server fault (5xx) is forgotten so the client can retry. */
  finish(credentialId: string, key: string, response: StoredResponse, now: number): void {
    const id = `${credentialId}\u0000${key}`;
    const entry = this.entries.get(id);
    if (!entry) return;
    if (response.status >= 500) {
      this.entries.delete(id);
      return;
    }
    entry.response = response;
    entry.expiresAt = now + IDEMPOTENCY_TTL_MS;
  }

  clear(): void {
    this.entries.clear();
  }

  /** Snapshot: the stored records, oldest first; a request still in progress is left out (it never finished). */
  records(): IdempotencyRecord[] {
    const records: IdempotencyRecord[] = [];
    for (const [id, entry] of this.entries) {
      if (entry.response === null || entry.expiresAt === null) continue;
      const [credential, key] = id.split("\u0000") as [string, string];
      const { fingerprint, response, expiresAt } = entry;
      records.push({ credential, key, fingerprint, status: response.status, body: response.body, expiresAt });
    }
    return records;
  }

  /** Snapshot restore, into an empty store: what `records` gave, in its order. */
  restore(records: readonly IdempotencyRecord[]): void {
    for (const r of records) {
      const response = { status: r.status, body: r.body };
      this.entries.set(`${r.credential}\u0000${r.key}`, {
        fingerprint: r.fingerprint,
        response,
        expiresAt: r.expiresAt,
      });
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private sweep(now: number): void {
    if (now < this.sweepAt) return;
    this.sweepAt = now + 60_000;
    for (const [id, entry] of this.entries) {
      if (entry.expiresAt !== null && now >= entry.expiresAt) this.entries.delete(id);
    }
  }
}
