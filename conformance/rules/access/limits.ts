import { Skip, type Reply, type RuleContext } from "../../context.js";
import { rule, SPEC } from "../rule.js";
import { advance, createKey, prefixOfBaseUrl, retryAfter, sendUnpaced, storePrefix } from "./support.js";

// Spec, Limits, and Versioning's OpenAPI document. The probes that exhaust a limit need the control
// plane and its clock: they never run against a live target without one, they use a key or a token
// of their own, and they bypass the Pacer, which would otherwise wait the window out just before.

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

export const limitRules = [
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
    needs: { control: true, clock: true },
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
      ctx.check(wait >= 1 && wait <= 60, "Retry-After between 1 and 60 seconds", String(wait));
      rateHeaders(ctx, over, "the 429");
      await advance(ctx, wait);
      const after = await sendUnpaced(ctx, "GET", url, { token: key.token });
      ctx.check(
        after.status === 200,
        `the credential is accepted again after Retry-After (${wait} s)`,
        `status ${after.status} ${after.text.slice(0, 160)}`,
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
    needs: { control: true, clock: true },
    cost: 34,
    async run(ctx) {
      // A window of its own: failures of earlier rules from this address end first, and the lockout is lifted after.
      await advance(ctx, 301);
      const token = ctx.name("made-up-token");
      const url = `${ctx.run.target.baseUrl}/me`;
      for (let i = 1; i <= 30; i++) {
        const reply = await sendUnpaced(ctx, "GET", url, { token });
        ctx.check(
          reply.status === 401 && reply.json?.error?.code === "UNAUTHORIZED",
          `failed attempt ${i} of 30: 401 UNAUTHORIZED`,
          `status ${reply.status} ${reply.text.slice(0, 160)}`,
        );
      }
      const over = await sendUnpaced(ctx, "GET", url, { token });
      ctx.error(over, 429, "RATE_LIMITED");
      const wait = retryAfter(ctx, over);
      ctx.check(wait >= 1 && wait <= 300, "Retry-After between 1 and 300 seconds", String(wait));
      await advance(ctx, 301);
      ctx.error(await sendUnpaced(ctx, "GET", url, { token }), 401, "UNAUTHORIZED");
    },
  }),
];

/**
 * Spec, Endpoints: the operations the endpoint table gives with a path relative to {base_url}. Left
 * out: the rows without a path of their own (create and delete calls for brands, categories, tags,
 * suppliers), the document itself, and the OAuth endpoints, which live outside {base_url}.
 */
const TABLE_OPERATIONS: readonly string[] = [
  "GET /me",
  "GET /store",
  "GET /outlets",
  "GET /payment-types",
  "GET /taxes",
  "GET /products",
  "POST /products",
  "GET /products/{id}",
  "PATCH /products/{id}",
  "DELETE /products/{id}",
  "POST /products/{id}/variants",
  "GET /products/{id}/inventory",
  "PUT /products/{id}/inventory/{outlet_id}",
  "POST /inventory/adjustments",
  "POST /inventory/batch",
  "GET /inventory/adjustment-reasons",
  "GET /sales",
  "GET /sales/{id}",
  "GET /customers",
  "POST /customers",
  "DELETE /customers/{id}",
  "GET /brands/{id}",
  "GET /categories/{id}",
  "GET /tags/{id}",
];

/** A path with its parameters unnamed (`/products/{}`), without a trailing slash. */
const shape = (path: string): string => path.replace(/\{[^}]*\}/g, "{}").replace(/\/+$/, "");

/** The operations a document describes, as `METHOD /path` with unnamed parameters. */
function describedOperations(doc: any, prefix: string): Set<string> {
  const ops = new Set<string>();
  const paths = doc?.paths !== null && typeof doc?.paths === "object" ? doc.paths : {};
  for (const [path, item] of Object.entries<any>(paths)) {
    if (item === null || typeof item !== "object") continue;
    // Paths are relative to the server URL; a document may also spell them out from the API root.
    const relative = path.startsWith(`/${prefix}/v1/`) ? path.slice(`/${prefix}/v1`.length) : path;
    for (const method of Object.keys(item)) ops.add(`${method.toUpperCase()} ${shape(relative)}`);
  }
  return ops;
}

export const openapiRules = [
  rule({
    id: "openapi.document",
    area: "OpenAPI",
    title:
      "GET /openapi.json is an OpenAPI 3.1 document, version 1.0.0, with a server URL ending in the store prefix and /v1, describing every operation of the endpoint table",
    spec: {
      section: SPEC.what,
      quote:
        "GET /openapi.json under the store prefix serves the machine-readable description of the API, with the store prefix in its server URL.",
    },
    cost: 1,
    leniency:
      "The raw document or {data: document}; a trailing slash on the server URL; path parameters under any name; operations beyond the table's (the spec counts 44 but does not show them all). Only the table's rows with a path of their own are required.",
    async run(ctx) {
      const reply = await ctx.call("GET", "/openapi.json");
      ctx.status(reply, 200);
      const doc = typeof reply.json?.openapi === "string" ? reply.json : reply.json?.data;
      ctx.check(
        typeof doc?.openapi === "string" && /^3\.1(\.\d+)?$/.test(doc.openapi),
        "openapi 3.1.x",
        JSON.stringify(doc?.openapi ?? null),
      );
      ctx.check(doc.info?.version === "1.0.0", "info.version 1.0.0", JSON.stringify(doc.info?.version ?? null));
      let prefix: string;
      try {
        prefix = prefixOfBaseUrl(ctx);
      } catch {
        prefix = await storePrefix(ctx);
      }
      const urls = (Array.isArray(doc.servers) ? doc.servers : []).map((s: any) => s?.url);
      ctx.check(
        urls.some((u: unknown) => typeof u === "string" && u.replace(/\/+$/, "").endsWith(`/${prefix}/v1`)),
        `a server URL ending in /${prefix}/v1`,
        JSON.stringify(urls),
      );
      // What the service does: "The first release has 44 operations", and Versioning 2: later changes only
      // add fields and refusals. The description of the API describes each operation the endpoint table lists.
      const described = describedOperations(doc, prefix);
      const missing = TABLE_OPERATIONS.filter((op) => {
        const [method, path] = op.split(" ") as [string, string];
        return !described.has(`${method} ${shape(path)}`);
      });
      ctx.check(
        missing.length === 0,
        `paths describing each operation of the endpoint table (${TABLE_OPERATIONS.length})`,
        `missing: ${missing.join(", ")}`,
      );
    },
  }),
];
