import { OrderedMap } from "../kernel/ordered-map.js";

// Rate limits of the spec's Limits table, counted in fixed windows on the simulator's clock.
// A window opens at the first counted event and lasts `windowMs`; `reset` is the time left in it.

export interface Policy {
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
  /**
   * Whether the policy guards against guessing (failed authentication, token failures): a window of it
   * at its limit is kept until it ends, whatever the cap on windows, so no flood of other keys can lift
   * a lockout (docs/spec-choices.md, Limits).
   */
  readonly guards: boolean;
}

export const POLICIES = {
  /** Spec, Limits: requests per credential, 120 per minute. */
  general: { name: "general", limit: 120, windowMs: 60_000, guards: false },
  /** Spec, Limits: customer endpoints, 30 per minute per credential, additional to the general limit. */
  customers: { name: "customers", limit: 30, windowMs: 60_000, guards: false },
  /** Spec, Limits: product writes including image_url, 10 per minute per credential. */
  imageWrites: { name: "image-writes", limit: 10, windowMs: 60_000, guards: false },
  /** Spec, Limits: token endpoint failures, 30 per 5 minutes per network address. */
  tokenFailures: { name: "token-failures", limit: 30, windowMs: 300_000, guards: true },
  /** Spec, Limits: failed authentication (401, 402, 403) per network address and credential. */
  failedPair: { name: "failed-auth", limit: 30, windowMs: 300_000, guards: true },
  /** Spec, Limits: failed authentication per network address. */
  failedAddress: { name: "failed-auth-address", limit: 300, windowMs: 300_000, guards: true },
  /** Failed sign-ins on the consent screen per network address (docs/spec-choices.md, OAuth). */
  signInAddress: { name: "sign-in-address", limit: 30, windowMs: 300_000, guards: true },
  /** Failed sign-ins on the consent screen per account as typed (docs/spec-choices.md, OAuth). */
  signInAccount: { name: "sign-in-account", limit: 10, windowMs: 300_000, guards: true },
} as const satisfies Record<string, Policy>;

export interface WindowState {
  readonly policy: Policy;
  readonly used: number;
  /** Milliseconds until the window ends (0 when no window is open). */
  readonly resetMs: number;
}

/** One counted key's window, as exported and restored (a snapshot of the limiter). */
export interface WindowRecord {
  /** The policy's name (`general`, `failed-auth`, ...). */
  readonly policy: string;
  readonly key: string;
  /** When the window opened, on the world's clock (epoch ms). */
  readonly start: number;
  readonly count: number;
}

interface Window {
  readonly owner: RateLimiter;
  readonly policy: Policy;
  readonly key: string;
  readonly start: number;
  count: number;
}

/**
 * The rate-limit windows of every limiter of a process, against the cap on them (`rate-limit-keys`).
 * At the cap, making a window lets another go: the oldest window under its limit, else the oldest at
 * its limit of a policy that does not guard against guessing. A guarding window at its limit is never
 * let go before it ends; when every window is one of those, no window can be made, and a key without
 * one is refused as if its window were full until some end (docs/spec-choices.md, Limits).
 */
export class WindowLedger {
  private held = 0;
  /** Windows under their limit, oldest first: the first to go. */
  private readonly open = new OrderedMap<Window, true>();
  /** Windows at their limit that may go (their policy does not guard), oldest first. */
  private readonly spent = new OrderedMap<Window, true>();

  constructor(readonly cap: number) {}

  /** Windows held in the whole process. */
  get size(): number {
    return this.held;
  }

  /** Whether one more window can be made (under the cap, or one can be let go). */
  hasRoom(): boolean {
    return this.held < this.cap || this.open.size > 0 || this.spent.size > 0;
  }

  /** Makes room for one more window; false when none can be let go. */
  makeRoom(): boolean {
    while (this.held >= this.cap) {
      const victim = this.open.oldestKey() ?? this.spent.oldestKey();
      if (victim === undefined) return false;
      const before = this.held;
      victim.owner.forget(victim);
      // A window listed here is held: if its limiter no longer had it, it is let go here all the same.
      if (this.held === before) this.removed(victim);
    }
    return true;
  }

  added(window: Window): void {
    this.held += 1;
    this.place(window);
  }

  removed(window: Window): void {
    this.held -= 1;
    this.open.delete(window);
    this.spent.delete(window);
  }

  /** After a window's count changed from `before`: it may have reached its limit, or left it. */
  counted(window: Window, before: number): void {
    const limit = window.policy.limit;
    if (before >= limit !== window.count >= limit) this.place(window);
  }

  private place(window: Window): void {
    if (window.count < window.policy.limit) {
      this.spent.delete(window);
      this.open.set(window, true);
    } else {
      this.open.delete(window);
      if (!window.policy.guards) this.spent.set(window, true);
    }
  }
}

/**
 * Fixed windows on one world's clock, a table per policy kept in the order the windows opened, which
 * is the order they end (every window of a policy lasts as long, and the clock never goes back). Each
 * call first drops the windows that have ended, from the front of each table: constant work per
 * request, amortized, whatever the number of windows; the ledger bounds that number.
 */
export class RateLimiter {
  private readonly tables = new Map<string, OrderedMap<string, Window>>();
  /** Set when the world is discarded: nothing is kept from then on. */
  private released = false;

  /**
   * Off only through an explicit choice (`--no-rate-limits`): then nothing is counted or refused. The
   * ledger is the process's (`ProcessBounds`), shared by the limiters of every world.
   */
  constructor(
    readonly enabled: boolean,
    private readonly ledger: WindowLedger,
  ) {}

  /** Windows this limiter holds. */
  get size(): number {
    let n = 0;
    for (const table of this.tables.values()) n += table.size;
    return n;
  }

  /** The window of `key` as it stands at `now`, without counting. */
  peek(policy: Policy, key: string, now: number): WindowState {
    if (!this.enabled) return { policy, used: 0, resetMs: 0 };
    this.expire(now);
    const w = this.tables.get(policy.name)?.get(key);
    if (w) return stateOf(w, now);
    return this.released || this.ledger.hasRoom() ? { policy, used: 0, resetMs: 0 } : full(policy);
  }

  /** True when one more event would exceed the policy. */
  exhausted(policy: Policy, key: string, now: number): boolean {
    return this.peek(policy, key, now).used >= policy.limit;
  }

  /** Counts one event; returns the window after counting. */
  hit(policy: Policy, key: string, now: number): WindowState {
    if (!this.enabled) return { policy, used: 0, resetMs: 0 };
    this.expire(now);
    const table = this.table(policy);
    let w = table.get(key);
    if (!w) {
      if (this.released) return { policy, used: 1, resetMs: policy.windowMs };
      if (!this.ledger.makeRoom()) return full(policy);
      w = { owner: this, policy, key, start: now, count: 0 };
      table.set(key, w);
      this.ledger.added(w);
    }
    w.count += 1;
    this.ledger.counted(w, w.count - 1);
    return stateOf(w, now);
  }

  /** Takes back one counted event (a request another limit refused); returns the window after. */
  refund(policy: Policy, key: string, now: number): WindowState {
    this.expire(now);
    const w = this.tables.get(policy.name)?.get(key);
    if (w && w.count > 0) {
      w.count -= 1;
      this.ledger.counted(w, w.count + 1);
    }
    return this.peek(policy, key, now);
  }

  /** Every window, each policy's oldest first (what a snapshot keeps). */
  windows(): WindowRecord[] {
    // In the order of POLICIES, whatever order the limits were first met in: a restored limiter lists the same.
    const out: WindowRecord[] = [];
    for (const { name } of Object.values(POLICIES))
      for (const w of this.tables.get(name)?.values() ?? [])
        out.push({ policy: name, key: w.key, start: w.start, count: w.count });
    return out;
  }

  /** Puts windows back as `windows()` gave them (within the cap: the oldest go first as usual). */
  restore(records: readonly WindowRecord[]): void {
    const byName = new Map<string, Policy>(Object.values(POLICIES).map((p) => [p.name, p]));
    for (const r of records) {
      const policy = byName.get(r.policy);
      if (!policy || this.released || !this.ledger.makeRoom()) continue;
      const table = this.table(policy);
      const old = table.get(r.key);
      if (old) this.forget(old);
      const w: Window = { owner: this, policy, key: r.key, start: r.start, count: r.count };
      table.set(r.key, w);
      this.ledger.added(w);
    }
  }

  /** Forgets every window and gives the process its share back: the world is discarded. */
  release(): void {
    for (const table of this.tables.values()) for (const w of table.values()) this.ledger.removed(w);
    this.tables.clear();
    this.released = true;
  }

  /** Drops one window (it ended, or the ledger lets it go to make room). */
  forget(w: Window): void {
    if (this.tables.get(w.policy.name)?.delete(w.key)) this.ledger.removed(w);
  }

  private table(policy: Policy): OrderedMap<string, Window> {
    let table = this.tables.get(policy.name);
    if (!table) this.tables.set(policy.name, (table = new OrderedMap()));
    return table;
  }

  private expire(now: number): void {
    for (const table of this.tables.values()) {
      for (let w = table.oldest(); w !== undefined && now >= w.start + w.policy.windowMs; w = table.oldest())
        this.forget(w);
    }
  }
}

const stateOf = (w: Window, now: number): WindowState => ({
  policy: w.policy,
  used: w.count,
  resetMs: w.start + w.policy.windowMs - now,
});

/** What a key without a window meets when no window can be made: a full window, as long as the policy's. */
const full = (policy: Policy): WindowState => ({ policy, used: policy.limit, resetMs: policy.windowMs });

/** Draft RFC `RateLimit-Policy` item: `120;w=60`; limits beyond the general one name themselves in a comment. */
export function policyHeader(policy: Policy): string {
  const base = `${policy.limit};w=${policy.windowMs / 1000}`;
  return policy.name === "general" || policy.name.startsWith("failed") ? base : `${base};comment="${policy.name}"`;
}

/** Draft RFC `RateLimit` fields `limit`, `remaining`, `reset` (seconds, rounded up). */
export function rateLimitHeader(state: WindowState): string {
  const remaining = Math.max(0, state.policy.limit - state.used);
  const reset = state.used === 0 ? state.policy.windowMs / 1000 : Math.max(0, Math.ceil(state.resetMs / 1000));
  return `limit=${state.policy.limit}, remaining=${remaining}, reset=${reset}`;
}

export function retryAfterSeconds(state: WindowState): number {
  return Math.max(1, Math.ceil(state.resetMs / 1000));
}
