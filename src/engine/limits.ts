// Rate limits of the spec's Limits table, counted in fixed windows on the simulator's clock.
// A window opens at the first counted event and lasts `windowMs`; `reset` is the time left in it.

export interface Policy {
  readonly name: string;
  readonly limit: number;
  readonly windowMs: number;
}

export const POLICIES = {
  /** Spec, Limits: requests per credential, 120 per minute. */
  general: { name: "general", limit: 120, windowMs: 60_000 },
  /** Spec, Limits: customer endpoints, 30 per minute per credential, additional to the general limit. */
  customers: { name: "customers", limit: 30, windowMs: 60_000 },
  /** Spec, Limits: product writes including image_url, 10 per minute per credential. */
  imageWrites: { name: "image-writes", limit: 10, windowMs: 60_000 },
  /** Spec, Limits: token endpoint failures, 30 per 5 minutes per network address. */
  tokenFailures: { name: "token-failures", limit: 30, windowMs: 300_000 },
  /** Spec, Limits: failed authentication (401, 402, 403) per network address and credential. */
  failedPair: { name: "failed-auth", limit: 30, windowMs: 300_000 },
  /** Spec, Limits: failed authentication per network address. */
  failedAddress: { name: "failed-auth-address", limit: 300, windowMs: 300_000 },
} as const satisfies Record<string, Policy>;

export interface WindowState {
  readonly policy: Policy;
  readonly used: number;
  /** Milliseconds until the window ends (0 when no window is open). */
  readonly resetMs: number;
}

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private sweepAt = 0;

  /** Off only through an explicit choice (`--no-rate-limits`): then nothing is counted or refused. */
  constructor(readonly enabled = true) {}

  /** The window of `key` as it stands at `now`, without counting. */
  peek(policy: Policy, key: string, now: number): WindowState {
    if (!this.enabled) return { policy, used: 0, resetMs: 0 };
    const w = this.current(policy, key, now);
    return { policy, used: w ? w.count : 0, resetMs: w ? w.start + policy.windowMs - now : 0 };
  }

  /** True when one more event would exceed the policy. */
  exhausted(policy: Policy, key: string, now: number): boolean {
    return this.peek(policy, key, now).used >= policy.limit;
  }

  /** Counts one event; returns the window after counting. */
  hit(policy: Policy, key: string, now: number): WindowState {
    if (!this.enabled) return { policy, used: 0, resetMs: 0 };
    this.sweep(now);
    const id = `${policy.name}\u0000${key}`;
    let w = this.current(policy, key, now);
    if (!w) {
      w = { start: now, count: 0 };
      this.windows.set(id, w);
    }
    w.count += 1;
    return { policy, used: w.count, resetMs: w.start + policy.windowMs - now };
  }

  /** Takes back one counted event (a request another limit refused); returns the window after. */
  refund(policy: Policy, key: string, now: number): WindowState {
    const w = this.current(policy, key, now);
    if (w && w.count > 0) w.count -= 1;
    return this.peek(policy, key, now);
  }

  clear(): void {
    this.windows.clear();
  }

  /** Snapshot: every window (`key` names the policy and the counted key), in the order they opened. */
  records(): { key: string; start: number; count: number }[] {
    return [...this.windows].map(([key, w]) => ({ key, start: w.start, count: w.count }));
  }

  /** Snapshot restore, into an empty limiter: what `records` gave, in its order. */
  restore(records: readonly { key: string; start: number; count: number }[]): void {
    for (const r of records) this.windows.set(r.key, { start: r.start, count: r.count });
  }

  private current(policy: Policy, key: string, now: number): Window | undefined {
    const w = this.windows.get(`${policy.name}\u0000${key}`);
    return w && now < w.start + policy.windowMs && now >= w.start ? w : undefined;
  }

  /** Drops ended windows now and then, so keys sent by clients cannot grow memory without bound. */
  private sweep(now: number): void {
    if (now < this.sweepAt && this.windows.size < 100_000) return;
    this.sweepAt = now + 60_000;
    for (const [id, w] of this.windows) {
      if (now >= w.start + 300_000 || now < w.start) this.windows.delete(id);
    }
  }
}

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
