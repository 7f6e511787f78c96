import { rateField } from "./ambient/judge.js";

// Keeps a run within the target's limits (spec, Limits: 120 requests per credential per minute, 30
// more on customer endpoints). It learns each credential's windows from the `RateLimit` header of
// every answer and waits a window out before it runs dry, so a run never draws a 429 it did not ask
// for. With several full keys (--extra-token) each rule takes the key with the most budget left, so
// the keys' windows run down side by side and a run with four keys waits about a quarter as long.
// Against a simulator with a control plane, waiting moves its clock instead of real time.

/** Keep this many requests of a window in reserve: a rule may need a few more than it announced. */
const RESERVE = 10;
const FAILED_AUTH_RESERVE = 8;

interface Window {
  remaining: number;
  /** When the window ends, in the pacer's time (ms). */
  endsAt: number;
}

export interface WaitNotice {
  readonly seconds: number;
  readonly why: string;
}

export interface PacerOptions {
  /** Requests per minute at most (--rate), across every key. */
  readonly perMinute?: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
  /** Moves the target's clock instead of waiting (a simulator with a control plane); false when it cannot. */
  readonly advance?: (seconds: number) => Promise<boolean>;
  readonly onWait?: (notice: WaitNotice) => void;
}

export class Pacer {
  private nextAt = 0;
  /** Per credential: its windows by their limit (120 general, 30 customers, 30 failed authentication, ...). */
  private readonly windows = new Map<string, Map<number, Window>>();
  /** Time moved on the target's clock by this pacer, in ms (windows end in the target's time). */
  private moved = 0;
  /** Real time spent waiting for windows, in ms. */
  waitedMs = 0;
  /** 429 answers to paced requests: limits the run drew without asking for them. */
  unrequested429 = 0;

  constructor(private readonly options: PacerOptions) {}

  private time(): number {
    return this.options.now() + this.moved;
  }

  /**
   * The full key a rule of about `need` requests should run with: one that has them to spare now
   * (the one with the most left, so the keys run down side by side); when none has, the one whose
   * low window ends soonest, so the wait is the shortest any key offers.
   */
  pick(tokens: readonly string[], need = 1): string {
    let best = tokens[0] as string;
    let bestScore = -Infinity;
    for (const token of tokens) {
      const { left, endsAt } = this.state(token);
      const score = left - RESERVE >= need ? left : -(endsAt - this.time());
      if (score > bestScore) [best, bestScore] = [token, score];
    }
    return best;
  }

  /** Requests left in a credential's open windows (Infinity when none is open), and when the lowest one ends. */
  private state(token: string): { left: number; endsAt: number } {
    let left = Infinity;
    let endsAt = 0;
    for (const w of this.windows.get(token)?.values() ?? []) {
      if (w.endsAt <= this.time() || w.remaining >= left) continue;
      left = w.remaining;
      endsAt = w.endsAt;
    }
    return { left, endsAt };
  }

  /** Before a request with `token`: waits while one of its windows is about to run dry, and spaces requests to --rate. */
  async before(token: string | null): Promise<void> {
    if (this.options.perMinute) {
      const now = this.options.now();
      if (now < this.nextAt) await this.options.sleep(this.nextAt - now);
      this.nextAt = Math.max(now, this.nextAt) + 60_000 / this.options.perMinute;
    }
    const key = token ?? "";
    for (const [limit, w] of this.windows.get(key) ?? []) {
      const reserve = limit <= 30 ? FAILED_AUTH_RESERVE : RESERVE;
      if (w.endsAt > this.time() && w.remaining <= Math.min(reserve, Math.floor(limit / 4))) {
        await this.waitOut(
          Math.ceil((w.endsAt - this.time()) / 1000),
          `the rate-limit window (${limit} requests) of the credential in use`,
        );
      }
    }
  }

  /** After an answer: remembers the window it reports; after a 429 nobody asked for, waits Retry-After out. */
  async after(
    token: string | null,
    status: number,
    headers: Record<string, string>,
    expected429 = false,
  ): Promise<void> {
    const value = headers["ratelimit"] ?? "";
    const limit = rateField(value, "limit");
    const remaining = rateField(value, "remaining");
    const reset = rateField(value, "reset");
    if (limit !== undefined && remaining !== undefined) {
      const key = token ?? "";
      let byLimit = this.windows.get(key);
      if (!byLimit) this.windows.set(key, (byLimit = new Map()));
      byLimit.set(limit, { remaining, endsAt: this.time() + Math.max(1, reset ?? 60) * 1000 });
    }
    if (status === 429 && !expected429) {
      this.unrequested429 += 1;
      const after = Number(headers["retry-after"] ?? reset ?? 60);
      await this.waitOut(Math.max(1, Number.isFinite(after) ? after : 60), "a 429 answer's Retry-After");
    }
  }

  /** Lets `seconds` pass: the simulator's clock when it can be moved, otherwise real time. */
  async waitOut(seconds: number, why: string): Promise<void> {
    const s = Math.max(1, Math.min(seconds, 3600));
    if (this.options.advance && (await this.options.advance(s))) {
      this.moved += s * 1000;
      return;
    }
    this.options.onWait?.({ seconds: s, why });
    const started = this.options.now();
    await this.options.sleep(s * 1000);
    this.waitedMs += this.options.now() - started;
  }
}
