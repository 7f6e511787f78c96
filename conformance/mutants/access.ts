import type { SimRequest, SimResponse } from "../../src/http/types.js";
import { API, mapJson, type Mutant } from "./base.js";

// Broken simulators for the access rules: scopes, credentials, store states, idempotency, limits,
// OAuth and the OpenAPI document.

const isJson = (res: SimResponse) =>
  typeof res.body === "string" && (res.headers["content-type"] ?? "").startsWith("application/json");
const errorCode = (res: SimResponse): unknown => {
  if (!isJson(res)) return undefined;
  try {
    return JSON.parse(res.body as string)?.error?.code;
  } catch {
    return undefined;
  }
};

const withoutHeaders = (res: SimResponse, ...names: string[]): SimResponse => ({
  ...res,
  headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => !names.includes(k.toLowerCase()))),
});

export const accessMutants: readonly Mutant[] = [
  {
    name: "insufficient-scope-404",
    breaks:
      "Scopes: a call without the needed scope answers 403 INSUFFICIENT_SCOPE (this one hides the route with 404 NOT_FOUND)",
    caughtBy: ["scopes.missing-scope"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!API.test(req.path) || res.status !== 403 || errorCode(res) !== "INSUFFICIENT_SCOPE") return res;
      return { ...res, status: 404, body: JSON.stringify({ error: { code: "NOT_FOUND", message: "Not found." } }) };
    },
  },
  {
    name: "unauthorized-403",
    breaks: "Errors: a revoked (or missing, unknown, idle) credential answers 401 UNAUTHORIZED (this one answers 403)",
    caughtBy: ["auth.revoked-key"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return API.test(req.path) && res.status === 401 ? { ...res, status: 403 } : res;
    },
  },
  {
    name: "paused-store-403",
    breaks: "Errors: a paused store answers 402 RETAILER_PAUSED (this one answers 403)",
    caughtBy: ["stores.status-codes"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return API.test(req.path) && errorCode(res) === "RETAILER_PAUSED" ? { ...res, status: 403 } : res;
    },
  },
  {
    name: "no-replay-header",
    breaks: "Idempotency: a replay carries Idempotent-Replayed: true (this one drops the header)",
    caughtBy: ["idempotency.replay"],
    wrap: (next) => async (req) => withoutHeaders(await next(req), "idempotent-replayed"),
  },
  {
    name: "idempotency-key-ignored",
    breaks:
      "Idempotency: a retry with the same key and body is replayed (this one never sees the Idempotency-Key header)",
    caughtBy: ["idempotency.replay", "idempotency.key-reused"],
    wrap: (next) => async (req) => {
      if (!API.test(req.path)) return next(req);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== "idempotency-key"));
      return next({ ...req, headers } as SimRequest);
    },
  },
  {
    name: "rate-headers-missing",
    breaks: "Limits: every response carries RateLimit-Policy and RateLimit (this one sends neither)",
    caughtBy: ["limits.headers"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return API.test(req.path) ? withoutHeaders(res, "ratelimit", "ratelimit-policy") : res;
    },
  },
  {
    name: "oauth-errors-in-envelope",
    breaks:
      "Authentication 8: token endpoint errors use {error, error_description} (this one answers the API's error envelope)",
    caughtBy: ["oauth.error-shape"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.path !== "/oauth/token" || res.status < 400) return res;
      return mapJson(res, (b) => ({
        error: { code: String(b?.error ?? "").toUpperCase(), message: String(b?.error_description ?? "") },
      }));
    },
  },
  {
    name: "openapi-version-bumped",
    breaks: "Versioning 2: the API description version is 1.0.0 and has stayed so (this one says 1.1.0)",
    caughtBy: ["openapi.document"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!/\/v1\/openapi\.json$/.test(req.path) || res.status !== 200) return res;
      return mapJson(res, (doc) => ({ ...doc, info: { ...doc.info, version: "1.1.0" } }));
    },
  },
];
