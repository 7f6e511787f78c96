import type { Reply, RuleContext } from "../../context.js";
import { Skip } from "../../outcomes.js";
import { rule, SPEC } from "../rule.js";
import {
  advance,
  createKey,
  KEY_AND_RETRY_S,
  retryAfter,
  sendUnpaced,
  storePrefix,
  WAITS_FOR,
} from "../support/access.js";
import { errorCode } from "../../shapes.js";

// Spec, Limits: the rate-limit headers, the general limit and failed authentications per address and
// credential. The probes that exhaust a limit need the control plane and its clock: they never run
// against a live target without one, they use a key or a token of their own, and they bypass the
// Pacer, which would otherwise wait the window out just before.

/** A field of the RateLimit header, whatever the exact syntax around `name=value`. */
function field(header: string, name: string): number | undefined {
  const m = new RegExp(`(?:^|[\\s,;])${name}\\s*=\\s*"?(\\d+)`, "i").exec(header);
  return m ? Number(m[1]) : undefined;
}

function rateHeaders(
  ctx: RuleContext,
  reply: Reply,
  what: string,
): { limit: number; remaining: number; reset: number } {
  const policy = reply.headers["ratelimit-policy"];
  const value = reply.headers["ratelimit"] ?? "";
  ctx.check(
    typeof policy === "string" && policy.trim() !== "",
    `a RateLimit-Policy header on ${what}`,
    JSON.stringify(policy ?? null),
  );
  const [limit, remaining, reset] = ["limit", "remaining", "reset"].map((n) => field(value, n));
  ctx.check(
    limit !== undefined && remaining !== undefined && reset !== undefined,
    `a RateLimit header with limit, remaining and reset on ${what}`,
    JSON.stringify(reply.headers["ratelimit"] ?? null),
  );
  ctx.check((remaining as number) <= (limit as number), `remaining at most limit on ${what}`, value);
  return { limit: limit as number, remaining: remaining as number, reset: reset as number };
}

/** How long the probe may take in real time before a window could have turned on a live target. */
const REAL_TIME_BUDGET_MS = 45_000;

export const rateRules = [
  rule({
    id: "limits.headers",
    area: "Limits",
    title: "Every response carries RateLimit-Policy and RateLimit with limit, remaining and reset",
    spec: {
      section: SPEC.limits,
      quote: "Every response carries RateLimit-Policy and RateLimit (fields limit, remaining, reset in seconds).",
    },
    cost: 5,
    leniency: "The syntax around the fields is not checked: only that `limit`, `remaining` and `reset` carry numbers.",
    async run(ctx) {
      const answers: [string, Reply][] = [
        ["a 200 of GET /me", await ctx.call("GET", "/me")],
        ["a 200 of a list", await ctx.call("GET", "/outlets?limit=1")],
        ["a 400", await ctx.call("GET", "/outlets?limit=0")],
        ["a 404 of an unknown path", await ctx.call("GET", "/zz-rate-headers")],
        ["a 401 without a credential", await ctx.call("GET", "/me", { token: null })],
      ];
      for (const [what, reply] of answers) rateHeaders(ctx, reply, what);
    },
  }),
  rule({
    id: "limits.general-429",
    area: "Limits",
    title: "The 121st request of a credential within a minute answers 429 RATE_LIMITED with Retry-After",
    spec: { section: SPEC.limits, quote: "Requests per credential | 120 per minute" },
    // Waiting in real time: a given key's window, Retry-After, then `reset`.
    needs: {
      control: true,
      clock: true,
      orCredentials: ["key"],
      waits: { seconds: KEY_AND_RETRY_S + 60, for: WAITS_FOR.minute },
    },
    cost: 125,
    leniency:
      "After Retry-After seconds the credential is accepted again; nothing is assumed about the kind of window.",
    async run(ctx) {
      const key = await createKey(ctx, await storePrefix(ctx), []);
      const url = `${ctx.run.target.baseUrl}/me`;
      const started = Date.now();
      let last: Reply | undefined;
      for (let i = 1; i <= 120; i++) {
        last = await sendUnpaced(ctx, "GET", url, { token: key.token });
        ctx.check(
          last.status === 200,
          `request ${i} of 120 within a minute: 200`,
          `status ${last.status} ${last.text.slice(0, 160)}`,
        );
      }
      const over = await sendUnpaced(ctx, "GET", url, { token: key.token });
      if (Date.now() - started > REAL_TIME_BUDGET_MS)
        throw new Skip("121 requests took longer than 45 s of real time: the window may have turned");
      ctx.check(
        rateHeaders(ctx, last as Reply, "the 120th answer").remaining === 0,
        "remaining=0 on the 120th answer",
        (last as Reply).headers["ratelimit"] ?? "",
      );
      ctx.error(over, 429, "RATE_LIMITED");
      const wait = retryAfter(ctx, over);
      rateHeaders(ctx, over, "the 429");
      await advance(ctx, wait);
      const after = await sendUnpaced(ctx, "GET", url, { token: key.token });
      ctx.check(
        after.status === 200,
        `the credential is accepted again after Retry-After (${wait} s)`,
        `status ${after.status} ${after.text.slice(0, 160)}`,
      );
      // "reset in seconds": once that long has passed, the quota has reset (whatever the kind of window).
      const fresh = rateHeaders(ctx, after, "the first answer after the wait");
      await advance(ctx, Math.max(1, fresh.reset));
      const reset = rateHeaders(
        ctx,
        await sendUnpaced(ctx, "GET", url, { token: key.token }),
        "the answer after reset seconds",
      );
      ctx.check(
        reset.remaining >= fresh.remaining,
        `remaining back to at least ${fresh.remaining} once reset (${fresh.reset} s) has passed`,
        `remaining=${reset.remaining}`,
      );
    },
  }),
  rule({
    id: "limits.failed-auth-429",
    area: "Limits",
    title: "After 30 failed authentications of one address and credential in 5 minutes, the next answers 429",
    spec: {
      section: SPEC.limits,
      quote: "Failed authentication (responses 401, 402, 403), per network address and credential | 30 per 5 minutes",
    },
    // Waiting in real time: Retry-After, at most the five minutes of the window.
    needs: { control: true, clock: true, waits: { seconds: 300, for: WAITS_FOR.fiveMinutes } },
    cost: 34,
    leniency: "Once Retry-After seconds have passed, the credential is answered 401 again.",
    async run(ctx) {
      // A window of its own: failures of earlier rules from this address end first. Moving the clock
      // costs nothing; in real time the rule's made-up credential is a window of its own, and the
      // address's limit (300) is far off.
      if (ctx.hasControl) await advance(ctx, 301);
      const token = ctx.name("made-up-token");
      const url = `${ctx.run.target.baseUrl}/me`;
      for (let i = 1; i <= 30; i++) {
        const reply = await sendUnpaced(ctx, "GET", url, { token });
        ctx.check(
          reply.status === 401 && errorCode(reply) === "UNAUTHORIZED",
          `failed attempt ${i} of 30: 401 UNAUTHORIZED`,
          `status ${reply.status} ${reply.text.slice(0, 160)}`,
        );
      }
      const over = await sendUnpaced(ctx, "GET", url, { token });
      ctx.error(over, 429, "RATE_LIMITED");
      // The lockout is lifted after Retry-After (spec, Limits: "A 429 carries Retry-After (seconds)").
      await advance(ctx, retryAfter(ctx, over));
      ctx.error(await sendUnpaced(ctx, "GET", url, { token }), 401, "UNAUTHORIZED");
    },
  }),
];
