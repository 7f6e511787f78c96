// The only place in the simulator that reads the wall clock.
// Engine code asks an injected Clock; tests move it instead of sleeping.

export type ClockMode = "system" | "manual";

export interface Clock {
  readonly mode: ClockMode;
  /** Milliseconds since the Unix epoch, on the simulator's clock. */
  now(): number;
  /** Moves the clock forward. Negative amounts are refused by the callers. */
  advance(ms: number): void;
  /** Sets the clock to an absolute time (never earlier than now; callers check). */
  set(ms: number): void;
  /** Back to the state right after start. */
  reset(): void;
}

export const DEFAULT_MANUAL_START = Date.parse("2026-01-01T00:00:00Z");

/**
 * The last instant a clock may start at or be moved to (docs/spec-choices.md, Control plane and fixtures):
 * a year before the last one a date-time with a four-digit year can write, room for every lifetime the
 * engine adds to now (the longest, a credential's 90 idle days).
 */
export const LAST_INSTANT = Date.parse("9999-01-01T00:00:00Z");

/** The first instant a clock may start at: the first a date-time with a four-digit year can write. */
export const FIRST_INSTANT = Date.parse("0000-01-01T00:00:00Z");

/** The refusal's message for a time before `FIRST_INSTANT`. */
export const BEFORE_FIRST_INSTANT = `is before the clock's first instant, ${new Date(FIRST_INSTANT).toISOString()}`;

/** The refusal's message for a time past `LAST_INSTANT`. */
export const PAST_LAST_INSTANT = `would put the clock past its last instant, ${new Date(LAST_INSTANT).toISOString()}`;

/** Wall clock plus a travel offset that `advance` and `set` move; `startAt` sets the first reading. */
export function systemClock(startAt?: number, wallNow: () => number = Date.now): Clock {
  const initialOffset = startAt === undefined ? 0 : startAt - wallNow();
  let offset = initialOffset;
  return {
    mode: "system",
    now: () => wallNow() + offset,
    advance(ms) {
      offset += ms;
    },
    set(ms) {
      offset = ms - wallNow();
    },
    reset() {
      offset = initialOffset;
    },
  };
}

/** Frozen at `start` until moved. */
export function manualClock(start: number = DEFAULT_MANUAL_START): Clock {
  let current = start;
  return {
    mode: "manual",
    now: () => current,
    advance(ms) {
      current += ms;
    },
    set(ms) {
      current = ms;
    },
    reset() {
      current = start;
    },
  };
}

export function createClock(mode: ClockMode, start?: number): Clock {
  return mode === "manual" ? manualClock(start) : systemClock(start);
}

/** rule envelope.timestamps-utc: ISO 8601 in UTC ending in `Z` (ids are UUIDs: kernel/random.ts). */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

let dateCache = { second: Number.NaN, text: "" };

/** RFC 9110 HTTP-date, for the Date header (taken from the simulator clock so responses are reproducible). */
export function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== dateCache.second) dateCache = { second, text: new Date(ms).toUTCString() };
  return dateCache.text;
}

/** Strict ISO 8601 date-time in UTC: `2026-01-01T00:00:00Z` or with fractional seconds. */
export const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

/**
 * A UTC date-time ending in Z, in milliseconds, or undefined. Only real instants: the month, day,
 * hour, minute and second must exist as written (`2026-02-30`, `24:00:00` and leap seconds are
 * refused rather than rolled over into another date).
 */
export function parseUtcDateTime(text: string): number | undefined {
  const m = UTC_PARTS.exec(text);
  if (!m) return undefined;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) return undefined;
  const d = new Date(ms);
  const same =
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() + 1 === Number(m[2]) &&
    d.getUTCDate() === Number(m[3]) &&
    d.getUTCHours() === Number(m[4]) &&
    d.getUTCMinutes() === Number(m[5]) &&
    d.getUTCSeconds() === Number(m[6]);
  return same ? ms : undefined;
}
const UTC_PARTS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?Z$/;

/** The `utc-date-time` format of the schemas: a real instant, UTC, ending in Z. */
export const isUtcDateTime = (text: string): boolean => parseUtcDateTime(text) !== undefined;

/** Real-time sleep; injected so tests can replace it with a controlled one. */
export type Sleep = (ms: number) => Promise<void>;
export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An IANA time zone name this runtime's Intl knows (`America/Chicago`, `UTC`); never an offset such as
 * `+01:00`, which some runtimes accept as a zone.
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
