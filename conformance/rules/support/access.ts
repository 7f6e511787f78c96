import type { CallOptions, Reply, RuleContext } from "../../context.js";
import { Mismatch, Skip } from "../../outcomes.js";
import { bodyOf, dataOf, type Identity, type Json, oauthCode } from "../../shapes.js";

// Shared helpers of the access rules (scopes, store states, credentials, idempotency, limits, OAuth):
// the store prefix, keys made through the control plane, requests that bypass the Pacer, expectations.

export const SCOPES = [
  "catalog:read",
  "catalog:write",
  "inventory:read",
  "inventory:write",
  "customers:read",
  "customers:write",
  "sales:read",
] as const;
export type Scope = (typeof SCOPES)[number];

/** Spec, Scopes: a `:write` scope satisfies the matching `:read`. */
export const grants = (held: readonly string[], needed: Scope): boolean =>
  held.includes(needed) || (needed.endsWith(":read") && held.includes(needed.replace(":read", ":write")));

/** Spec, Authentication 2: ticking a write scope also ticks its read scope. */
export const closure = (scopes: readonly string[]): string[] =>
  [...new Set(scopes.flatMap((s) => (s.endsWith(":write") ? [s, s.replace(":write", ":read")] : [s])))].sort();

export const DAY_S = 86_400;

/** The spec's time limits a rule may wait for in real time (`needs.waits.for`, conformance/patience.ts). */
export const WAITS_FOR = {
  minute: "the one-minute rate-limit windows",
  fiveMinutes: "the five-minute failure windows",
  code: "an authorization code's 10-minute lifetime",
  token: "an access token's 1-hour lifetime",
} as const;

/** A given key's minute windows waited out (KEY_WINDOW_S in patience.ts), then a Retry-After of a minute at most. */
export const KEY_AND_RETRY_S = 61 + 60;

/** Remembers values that must not reach a report (OAuth codes, tokens handed over outside ctx.send): the runner redacts them. */
export function secret(ctx: RuleContext, ...values: unknown[]): void {
  for (const v of values) if (typeof v === "string" && v.length >= 8) ctx.run.secrets.add(v);
}

// ---------------------------------------------------------------------------------------------
// The target.

/** The store prefix, found with GET /me (spec, Authentication 10); control plane paths need it. */
export async function storePrefix(ctx: RuleContext): Promise<string> {
  const me = await ctx.call("GET", "/me");
  ctx.status(me, 200);
  const prefix = dataOf<Identity>(me)?.domain_prefix;
  if (typeof prefix !== "string" || prefix.length === 0)
    throw new Mismatch("GET /me with data.domain_prefix, the store prefix", me.text.slice(0, 200));
  return prefix;
}

/** The path of `{base_url}{rest}` as the target sees it: what a control-plane fault's `path` matches. */
export const apiPath = (ctx: RuleContext, rest: string): string =>
  `${new URL(ctx.run.target.baseUrl).pathname.replace(/\/+$/, "")}${rest}`;

/** The store prefix from the base URL (`{api_root}/{store_prefix}/v1`), without a request. */
export function prefixOfBaseUrl(ctx: RuleContext): string {
  const m = /\/([^/]+)\/v1$/.exec(ctx.run.target.baseUrl);
  if (!m) throw new Error(`the base URL ${ctx.run.target.baseUrl} does not end in /{store_prefix}/v1`);
  return decodeURIComponent(m[1] as string);
}

/** `{api_root}`: the control URL without `/_sim`. */
export function apiRoot(ctx: RuleContext): string {
  const control = ctx.run.target.controlUrl;
  if (!control) throw new Error("needs the target's control plane (--control)");
  return control.replace(/\/_sim\/?$/, "");
}

export interface Key {
  readonly id: string;
  readonly token: string;
  readonly scopes: readonly string[];
}

/**
 * A key of the store with exactly these scopes: one handed to the run (--key SCOPES=TOKEN, whose
 * scopes are closed under "a write scope also ticks its read scope"), else a new one made through the
 * control plane (POST /_sim/stores/{prefix}/keys). Without either the rule is skipped, naming the option.
 */
export async function createKey(ctx: RuleContext, prefix: string, scopes: readonly string[]): Promise<Key> {
  const want = closure(scopes).join(",");
  const given = ctx.run.credentials.keys.find((k) => closure(k.scopes).join(",") === want);
  if (given) {
    // A rule that counts a given key's requests against its windows, waiting in real time (--patient):
    // they must first have passed since the run last used the key.
    if (!ctx.hasControl && ctx.rule.needs?.waits) await ctx.run.patience?.windowsPassed(ctx.rule, given.token);
    return { id: "", token: given.token, scopes };
  }
  if (!ctx.hasControl) {
    const label = scopes.length === 0 ? "none" : scopes.join(",");
    throw new Skip(
      `needs a key of the store with exactly the scopes ${label}: --key ${label}=TOKEN, or the target's control plane (--control)`,
      `--key ${label}=TOKEN`,
    );
  }
  const made = await ctx.control("POST", `/stores/${encodeURIComponent(prefix)}/keys`, {
    name: ctx.name("key"),
    scopes,
  });
  const key = bodyOf(made);
  if ((made.status !== 200 && made.status !== 201) || typeof key?.token !== "string") {
    throw new Error(`the control plane did not create a key: status ${made.status} ${made.text.slice(0, 200)}`);
  }
  return { id: String(key.id), token: key.token, scopes };
}

/**
 * Moves the target's clock forward (control: POST /_sim/clock); without a control plane under
 * --patient, lets the time pass in real time (the rule declares its waits in `needs.waits`).
 */
export async function advance(ctx: RuleContext, seconds: number): Promise<void> {
  if (!ctx.hasControl && ctx.run.patience) return ctx.run.patience.wait(ctx.rule, seconds);
  const moved = await ctx.control("POST", "/clock", { advance_seconds: seconds });
  if (moved.status !== 200)
    throw new Error(`the control plane did not move the clock: status ${moved.status} ${moved.text.slice(0, 200)}`);
}

/** A control call that must succeed; its JSON answer. */
export async function controlOk(
  ctx: RuleContext,
  method: string,
  path: string,
  body?: unknown,
): Promise<Json | undefined> {
  const reply = await ctx.control(method, path, body);
  if (reply.status < 200 || reply.status > 299)
    throw new Error(`control ${method} ${path} answered ${reply.status} ${reply.text.slice(0, 200)}`);
  return bodyOf(reply);
}

/**
 * A request that bypasses the Pacer: rules that probe a limit on purpose must reach it, and the Pacer
 * would wait the window out (moving the clock) just before. Recorded and judged like any other exchange.
 */
export function sendUnpaced(ctx: RuleContext, method: string, url: string, options: CallOptions = {}): Promise<Reply> {
  return ctx.send(method, url, { ...options, paced: false });
}

// ---------------------------------------------------------------------------------------------
// Expectations.

export const is2xx = (reply: Reply): boolean => reply.status >= 200 && reply.status <= 299;

/** JSON equality without regard to key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v !== null && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

/**
 * `Retry-After` in seconds (spec, Limits: "A 429 carries Retry-After (seconds)"): at least 1, and a wait
 * longer than the window is the server's choice (waiting that long works), but not past an hour, which
 * for limits of a minute or five reads as milliseconds (docs/spec-choices.md, Conformance).
 */
export function retryAfter(ctx: RuleContext, reply: Reply): number {
  const value = reply.headers["retry-after"];
  ctx.check(
    value !== undefined && /^\s*\d+\s*$/.test(value),
    "a Retry-After header in seconds",
    JSON.stringify(value ?? null),
  );
  const wait = Number(value);
  ctx.check(wait >= 1 && wait <= MAX_RETRY_AFTER, `Retry-After between 1 and ${MAX_RETRY_AFTER} seconds`, String(wait));
  return wait;
}

/** The longest `Retry-After` a limit of a minute or five minutes may ask for. */
export const MAX_RETRY_AFTER = 3600;

/** Spec, Authentication 8: token endpoint errors are `{error, error_description}`, not the standard envelope. */
export function oauthError(ctx: RuleContext, reply: Reply, error: string, statuses: readonly number[] = [400]): void {
  ctx.check(
    statuses.includes(reply.status) && oauthCode(reply) === error,
    `${statuses.join(" or ")} with error ${error}`,
    `status ${reply.status} ${reply.text.slice(0, 200)}`,
  );
  ctx.check(
    typeof oauthCode(reply) === "string" && typeof bodyOf(reply)?.error_description === "string",
    "the OAuth error shape {error, error_description}",
    reply.text.slice(0, 200),
  );
}

/** A created resource's path, tracked for the run's cleanup, when a create answered 2xx. */
export function trackCreated(ctx: RuleContext, reply: Reply, collection: string): string | undefined {
  const id = dataOf<{ id?: unknown }>(reply)?.id;
  if (!is2xx(reply) || typeof id !== "string") return undefined;
  ctx.track(`${collection}/${id}`);
  return id;
}
