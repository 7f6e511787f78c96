import type { SimRequest, SimResponse } from "../../src/http/types.js";
import type { Mutant } from "./base.js";
import { API_PATH, CONTROL_PATH, answer, apiError, bodyOf, jsonOf, textOf, withBody, withRaw } from "./gaps-support.js";

// Broken simulators for the gap rules of access (conformance/rules/gaps-access.ts, gaps-oauth.ts):
// idempotency, limits, the Identity, request bodies and OAuth connections.

const API = /^\/[^/]+\/v1\//;
const STOCK_SET = API_PATH("/products/[^/]+/inventory/[^/]+");
const PRODUCT_WRITE = [API_PATH("/products"), API_PATH("/products/[^/]+")];
const ME = API_PATH("/me");
const DISCONNECT = CONTROL_PATH("/connections/([^/]+)/disconnect");

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** Statuses answered before the key is read: never an outcome to remember. */
const NOT_REMEMBERED = new Set([401, 402, 403, 429]);

export const accessGapMutants: readonly Mutant[] = [
  {
    name: "put-stock-ignores-idempotency-key",
    breaks:
      "Limits: Idempotency: Idempotency-Key is optional on PUT of stock and a retry replays (this one never reads the key on PUT, so a retry answers changed false)",
    caughtBy: ["idempotency.optional-routes"],
    wrap: (next) => async (req) => {
      if (req.method !== "PUT" || !STOCK_SET.test(req.path)) return next(req);
      const { "idempotency-key": _k, ...headers } = req.headers;
      return next({ ...req, headers });
    },
  },
  {
    name: "idempotency-never-lapses",
    breaks:
      "States: stored idempotency records lapse after 24 hours (this one keeps them for ever, in a cache in front of the service)",
    caughtBy: ["idempotency.lapse-24h"],
    wrap: (next) => {
      const records = new Map<string, { request: string; res: SimResponse }>();
      return async (req) => {
        const key = req.headers["idempotency-key"];
        if (key === undefined || !API.test(req.path) || (req.method !== "POST" && req.method !== "PUT"))
          return next(req);
        const id = `${req.headers.authorization ?? ""}\u0000${key}`;
        const request = `${req.method} ${req.path}?${req.query}\u0000${textOf(req)}`;
        const stored = records.get(id);
        if (stored && stored.request === request)
          return { ...stored.res, headers: { ...stored.res.headers, "idempotent-replayed": "true" } };
        if (stored) return apiError(stored.res, 422, "IDEMPOTENCY_KEY_REUSED", "The key was used with another body.");
        const res = await next(req);
        if (res.status < 500 && !NOT_REMEMBERED.has(res.status) && res.headers["idempotent-replayed"] !== "true")
          records.set(id, { request, res });
        return res;
      };
    },
  },
  {
    name: "image-busy-saves-product",
    breaks:
      "Limits: a busy image download answers 429 RATE_LIMITED with nothing written (this one saves the product without its image first)",
    caughtBy: ["limits.image-busy"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const body = bodyOf(req);
      if (
        !PRODUCT_WRITE.some((p) => p.test(req.path)) ||
        res.status !== 429 ||
        typeof body?.image_url !== "string" ||
        !/download|image/i.test(jsonOf(res)?.error?.message ?? "")
      )
        return res;
      const { image_url: _i, ...rest } = body;
      const { "idempotency-key": _k, ...headers } = req.headers;
      await next(withBody({ ...req, headers }, rest));
      return res;
    },
  },
  {
    name: "no-address-lockout",
    breaks:
      "Limits: 300 failed authentications per network address in 5 minutes (this one has no limit per address, so every bad credential keeps getting 401)",
    caughtBy: ["limits.failed-auth-address"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!API.test(req.path) || res.status !== 429 || !/^300;/.test(res.headers["ratelimit-policy"] ?? "")) return res;
      const { "retry-after": _r, ...headers } = res.headers;
      const unauthorized = apiError({ ...res, headers }, 401, "UNAUTHORIZED", "The credential is not valid.");
      return {
        ...unauthorized,
        headers: {
          ...unauthorized.headers,
          "ratelimit-policy": "30;w=300",
          ratelimit: "limit=30, remaining=29, reset=300",
        },
      };
    },
  },
  {
    name: "me-domain-prefix-hostname",
    breaks: "Resources: Identity: domain_prefix is the store prefix (this one answers the store's host name)",
    caughtBy: ["auth.me-identity"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const me = jsonOf(res);
      if (req.method !== "GET" || !ME.test(req.path) || typeof me?.data?.domain_prefix !== "string") return res;
      return answer(res, res.status, {
        data: { ...me.data, domain_prefix: `${me.data.domain_prefix}.retail.example` },
      });
    },
  },
  {
    name: "lenient-json-body",
    breaks: "What the service does 5: requests are JSON (this one's body parser reads a body it cannot parse as {})",
    caughtBy: ["envelope.json-body"],
    wrap: (next) => async (req: SimRequest) => {
      if (
        !API.test(req.path) ||
        req.body === null ||
        !(req.headers["content-type"] ?? "").includes("json") ||
        isJson(textOf(req))
      )
        return next(req);
      return next(withRaw(req, "{}"));
    },
  },
  {
    name: "disconnect-keeps-tokens",
    breaks:
      "States: a disconnected OAuth connection stops immediately (this one marks it disconnected but its tokens keep working)",
    caughtBy: ["oauth.disconnect-stops"],
    wrap: (next) => async (req) => {
      const id = DISCONNECT.exec(req.path)?.[1];
      if (req.method !== "POST" || id === undefined) return next(req);
      return {
        status: 200,
        headers: { "content-type": "application/json; charset=utf-8" },
        body: JSON.stringify({ id, state: "revoked" }),
      };
    },
  },
];
