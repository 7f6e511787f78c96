import type { Reply } from "../../context.js";
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

// Spec, Limits: the customer endpoints' own limit, probed with keys of its own made through the
// control plane, and its clock.

/** docs/spec-choices.md, Limits and Customers: the simulator's rate-limit headers on the customer routes. */
const HEADERS = "Header syntax";
const POLICIES = "Headers of a route with further limits";
const WINDOW = "Window kind";
const COUNTED = "What counts toward 120 per minute";
const BOTH = '120;w=60, 30;w=60;comment="customers"';

/** How long the probe may take in real time before a window could have turned on a live target. */
const REAL_TIME_BUDGET_MS = 45_000;

export const customerLimitRules = [
  rule({
    id: "limits.customers-429",
    area: "Limits",
    title:
      "The 31st customer request of a credential within a minute answers 429 RATE_LIMITED with Retry-After; other routes of that credential, and other credentials, still work",
    spec: {
      section: SPEC.limits,
      quote: "Customer endpoints, per credential | 30 per minute, additional to the general limit",
    },
    // Waiting in real time: windows of their own, then Retry-After.
    needs: {
      control: true,
      clock: true,
      orCredentials: ["key"],
      waits: { seconds: KEY_AND_RETRY_S, for: WAITS_FOR.minute },
    },
    cost: 38,
    leniency:
      "Counted on GET /customers?limit=1 with two keys of the rule's own; after Retry-After seconds the credential may list customers again; nothing is assumed about the kind of window.",
    choices: [HEADERS, POLICIES, WINDOW, COUNTED],
    async run(ctx) {
      const prefix = await storePrefix(ctx);
      // Two credentials (other scopes, so a run handed keys with --key gets two distinct ones), in windows of their own.
      const key = await createKey(ctx, prefix, ["customers:read"]);
      const other = await createKey(ctx, prefix, ["customers:write"]);
      // Moving the clock costs nothing; waiting in real time, createKey has waited out the given keys' windows.
      if (ctx.hasControl) await advance(ctx, 61);
      const customers = `${ctx.run.target.baseUrl}/customers?limit=1`;
      const me = `${ctx.run.target.baseUrl}/me`;
      const started = Date.now();
      const counted: Reply[] = [];
      for (let i = 1; i <= 30; i++) {
        const reply = await sendUnpaced(ctx, "GET", customers, { token: key.token });
        ctx.check(
          reply.status === 200,
          `customer request ${i} of 30 within a minute: 200`,
          `status ${reply.status} ${reply.text.slice(0, 160)}`,
        );
        counted.push(reply);
      }
      const over = await sendUnpaced(ctx, "GET", customers, { token: key.token });
      if (Date.now() - started > REAL_TIME_BUDGET_MS)
        throw new Skip("31 requests took longer than 45 s of real time: the window may have turned");
      ctx.error(over, 429, "RATE_LIMITED");
      const wait = retryAfter(ctx, over);
      // The nearest limit counts down from 29 under both policies, on a clock that stands still.
      const values = [...counted, over].map((r) => r.headers.ratelimit);
      const nearest = (i: number) => `limit=30, remaining=${Math.max(29 - i, 0)}, reset=60`;
      const wrong = values.findIndex((v, i) => v !== nearest(i));
      ctx.choice(HEADERS, wrong < 0, `RateLimit of answer ${wrong + 1}: ${nearest(wrong)}`, String(values[wrong]));
      const policies = [...counted, over].map((r) => r.headers["ratelimit-policy"]);
      const stray = policies.find((p) => p !== BOTH);
      ctx.choice(POLICIES, stray === undefined, `RateLimit-Policy ${BOTH} on every answer`, String(stray));
      ctx.choice(WINDOW, wait === 60, "Retry-After 60 (a window of 60 s opened by the first request)", `${wait}`);
      // Additional to the general limit: the credential's other routes are still within theirs.
      const elsewhere = await sendUnpaced(ctx, "GET", me, { token: key.token });
      ctx.check(
        elsewhere.status === 200,
        "GET /me with the same credential (not a customer endpoint): 200",
        `status ${elsewhere.status} ${elsewhere.text.slice(0, 160)}`,
      );
      // The 30 customer requests used the general window too, the 429 did not: 120 - 31 left, one policy.
      const general = `${elsewhere.headers["ratelimit-policy"]} | ${elsewhere.headers.ratelimit}`;
      ctx.choice(
        COUNTED,
        general === "120;w=60 | limit=120, remaining=89, reset=60",
        "GET /me after 30 customer requests and a 429: 120;w=60 | limit=120, remaining=89, reset=60",
        general,
      );
      // Per credential: another key's customer requests are counted apart.
      const apart = await sendUnpaced(ctx, "GET", customers, { token: other.token });
      ctx.check(
        apart.status === 200,
        "GET /customers with another credential of the store: 200 (the limit is per credential)",
        `status ${apart.status} ${apart.text.slice(0, 160)}`,
      );
      await advance(ctx, wait);
      const after = await sendUnpaced(ctx, "GET", customers, { token: key.token });
      ctx.check(
        after.status === 200,
        `customer requests accepted again after Retry-After (${wait} s)`,
        `status ${after.status} ${after.text.slice(0, 160)}`,
      );
    },
  }),
];
