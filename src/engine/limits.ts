import { Chain, type Link } from "../kernel/chain.js";
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

/**
 * Whom a window is charged to (docs/spec-choices.md, Limits): a credential the sandbox knows (its own
 * limits, by its principal's id; its failed-authentication pairs, by its digest), or the address of a
 * request any client can send (failed authentication with a credential the sandbox does not know, token
 * failures, sign-ins, and the accounts typed there).
 */
export type Payer = { readonly credential: string } | { readonly address: string };

interface Window {
  readonly policy: Policy;
  readonly key: string;
  readonly start: number;
  count: number;
  /** Its world's pool: the credentials' or the strangers'. */
  readonly pool: Pool;
  /** Its place among its payer's windows (none when its key is the payer itself). */
  payer?: { readonly id: string; readonly link: Link<Window> };
}

/**
 * Windows counted against one cap, with the order they are let go in at the cap: the oldest under its
 * limit, else the oldest at its limit of a policy that does not guard against guessing. A guarding
 * window at its limit is never let go before it ends.
 */
class Pool {
  held = 0;
  private readonly open = new OrderedMap<Window, true>();
  private readonly spent = new OrderedMap<Window, true>();

  constructor(readonly cap: number) {}

  /** The window to let go first; undefined when every window held is a guarding one at its limit. */
  victim(): Window | undefined {
    return this.open.oldestKey() ?? this.spent.oldestKey();
  }

  /** Whether one more window fits, once a window is let go if need be. */
  hasRoom(): boolean {
    return this.held < this.cap || this.victim() !== undefined;
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
 * The rate-limit windows of every limiter (world) of a process, against `rate-limit-keys`: a last line
 * behind each world's own caps. At it, the world holding the most windows (of those that can let one
 * go) lets its own first go, so no sandbox's traffic takes a window from a sandbox holding fewer.
 */
export class WindowLedger {
  private held = 0;
  private readonly limiters = new Set<RateLimiter>();

  /** The caps of engine/caps.ts that bound windows (which imports this module, so they are named here). */
  constructor(
    readonly caps: {
      readonly rateLimitKeys: number;
      readonly rateLimitKeysPerSandbox: number;
      readonly rateLimitKeysPerCaller: number;
    },
  ) {}

  /** Windows held in the whole process. */
  get size(): number {
    return this.held;
  }

  join(limiter: RateLimiter): void {
    this.limiters.add(limiter);
  }

  leave(limiter: RateLimiter): void {
    this.limiters.delete(limiter);
  }

  count(delta: number): void {
    this.held += delta;
  }

  /** Makes room for one more window of `asking` (which loses a tie); false when no world can let one go. */
  makeRoom(asking: RateLimiter): boolean {
    while (this.held >= this.caps.rateLimitKeys) {
      let most = asking.victim() ? asking : undefined;
      for (const l of this.limiters) if (l.victim() && (!most || l.size > most.size)) most = l;
      if (!most) return false;
      most.forget(most.victim() as Window);
    }
    return true;
  }

  hasRoom(): boolean {
    if (this.held < this.caps.rateLimitKeys) return true;
    for (const l of this.limiters) if (l.victim()) return true;
    return false;
  }
}

/**
 * Fixed windows on one world's clock, a table per policy kept in the order the windows opened, which
 * is the order they end (every window of a policy lasts as long, and the clock never goes back). Each
 * call first drops the windows that have ended, from the front of each table: constant work per
 * request, amortized, whatever the number of windows.
 *
 * Bounded (docs/interfaces.md, Caps): each window is charged to a payer, and held in one of two pools
 * of `rate-limit-keys-per-sandbox` each: the windows of the credentials the world knows, and those any
 * request can open (charged to an address). At a cap, the payer's own windows go first, then its pool's;
 * nothing a stranger sends takes a window of a known credential. A guarding window at its limit is never
 * let go early; a failure window that cannot be made is not made (a key without a window of a guarding
 * policy is never refused for it), while a credential's own limit that cannot be made refuses it as full.
 */
export class RateLimiter {
  private readonly tables = new Map<string, OrderedMap<string, Window>>();
  private readonly keys: Pool;
  private readonly strangers: Pool;
  /** Each payer's windows other than its own, oldest first (against `rate-limit-keys-per-caller`). */
  private readonly payers = new Map<string, Chain<Window>>();
  /** Set when the world is discarded: nothing is kept from then on. */
  private released = false;

  /**
   * Off only through an explicit choice (`--no-rate-limits`): then nothing is counted or refused. The
   * ledger is the process's (`ProcessBounds`), shared by the limiters of every world.
   */
  constructor(
    readonly enabled: boolean,
    private readonly ledger: WindowLedger,
  ) {
    this.keys = new Pool(ledger.caps.rateLimitKeysPerSandbox);
    this.strangers = new Pool(ledger.caps.rateLimitKeysPerSandbox);
    ledger.join(this);
  }

  /** Windows this limiter holds. */
  get size(): number {
    return this.keys.held + this.strangers.held;
  }

  /** The window this world lets go first when the process is at its cap: a stranger's, then a credential's. */
  victim(): Window | undefined {
    return this.strangers.victim() ?? this.keys.victim();
  }

  /**
   * The window of `key` as it stands at `now`, without counting. A key without a window reads as
   * unused, except a credential's own limit that no room can be made for, which reads as full.
   */
  peek(policy: Policy, key: string, now: number): WindowState {
    if (!this.enabled) return { policy, used: 0, resetMs: 0 };
    this.expire(now);
    const w = this.tables.get(policy.name)?.get(key);
    if (w) return stateOf(w, now);
    const room = this.released || policy.guards || (this.keys.hasRoom() && this.ledger.hasRoom());
    return room ? { policy, used: 0, resetMs: 0 } : full(policy);
  }

  /** True when one more event would exceed the policy. */
  exhausted(policy: Policy, key: string, now: number): boolean {
    return this.peek(policy, key, now).used >= policy.limit;
  }

  /** Counts one event charged to `payer`; returns the window after counting. */
  hit(policy: Policy, key: string, now: number, payer: Payer): WindowState {
    if (!this.enabled) return { policy, used: 0, resetMs: 0 };
    this.expire(now);
    const table = this.table(policy);
    let w = table.get(key);
    if (!w) {
      if (this.released) return { policy, used: 1, resetMs: policy.windowMs };
      w = this.open(policy, key, now, payer);
      if (!w) return full(policy);
      table.set(key, w);
    }
    w.count += 1;
    w.pool.counted(w, w.count - 1);
    return stateOf(w, now);
  }

  /** Takes back one counted event (a request another limit refused); returns the window after. */
  refund(policy: Policy, key: string, now: number): WindowState {
    this.expire(now);
    const w = this.tables.get(policy.name)?.get(key);
    if (w && w.count > 0) {
      w.count -= 1;
      w.pool.counted(w, w.count + 1);
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

  /**
   * Puts windows back as `windows()` gave them, within the caps (the oldest go first as usual). A
   * snapshot does not say who paid: a guarding window is charged to the address its key starts with.
   */
  restore(records: readonly WindowRecord[]): void {
    const byName = new Map<string, Policy>(Object.values(POLICIES).map((p) => [p.name, p]));
    for (const r of records) {
      const policy = byName.get(r.policy);
      if (!policy || this.released) continue;
      const table = this.table(policy);
      const old = table.get(r.key);
      if (old) this.forget(old);
      const payer = policy.guards ? { address: r.key.split("\u0000")[0] as string } : { credential: r.key };
      const w = this.open(policy, r.key, r.start, payer);
      if (!w) continue;
      w.count = r.count;
      w.pool.counted(w, 0);
      table.set(r.key, w);
    }
  }

  /** Forgets every window and gives the process its share back: the world is discarded. */
  release(): void {
    this.ledger.count(-this.size);
    this.ledger.leave(this);
    this.tables.clear();
    this.payers.clear();
    this.keys.held = this.strangers.held = 0;
    this.released = true;
  }

  /** Drops one window (it ended, or a cap lets it go to make room). */
  forget(w: Window): void {
    if (!this.tables.get(w.policy.name)?.delete(w.key)) return;
    w.pool.removed(w);
    this.ledger.count(-1);
    if (!w.payer) return;
    const own = this.payers.get(w.payer.id) as Chain<Window>;
    own.remove(w.payer.link);
    if (own.size === 0) this.payers.delete(w.payer.id);
  }

  /**
   * A new window charged to `payer`, once its payer, its pool and the process have room; undefined when
   * one has none. A payer's own windows (keyed by the address or credential itself: one per policy, the
   * ones that bound it) count in its pool only; its cap counts the windows it opens for other keys.
   */
  private open(policy: Policy, key: string, start: number, payer: Payer): Window | undefined {
    const self = "address" in payer ? payer.address : payer.credential;
    const id = self === key ? undefined : `${"address" in payer ? "address" : "credential"}:${self}`;
    const pool = "address" in payer ? this.strangers : this.keys;
    const windows = id === undefined ? undefined : this.payers.get(id);
    while (windows && windows.size >= this.ledger.caps.rateLimitKeysPerCaller) {
      const victim = letGoFirst(windows);
      if (!victim) return undefined;
      this.forget(victim);
    }
    while (pool.held >= pool.cap) {
      const victim = pool.victim();
      if (!victim) return undefined;
      this.forget(victim);
    }
    if (!this.ledger.makeRoom(this)) return undefined;
    const w: Window = { policy, key, start, count: 0, pool, payer: undefined };
    pool.added(w);
    this.ledger.count(1);
    if (id === undefined) return w;
    let own = this.payers.get(id);
    if (!own) this.payers.set(id, (own = new Chain()));
    w.payer = { id, link: own.push(w) };
    return w;
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

/** A payer's window to let go first, by a pool's rule: its oldest under its limit, else its oldest at its limit that does not guard. */
function letGoFirst(windows: Chain<Window>): Window | undefined {
  let spent: Window | undefined;
  for (const w of windows.values()) {
    if (w.count < w.policy.limit) return w;
    spent ??= w.policy.guards ? undefined : w;
  }
  return spent;
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
