import type { SimRequest, SimResponse } from "../../../../../src/http/types.js";
import type { Mutant } from "../../base.js";
import {
  bodyJson,
  bodyText,
  derived,
  errorCode,
  errorLike,
  isReset,
  json,
  keyOf,
  on,
  prefixOf,
  re,
  sub,
  withJson,
} from "../util.js";
import { badJsonBody, bearer, clientOf, credentials, grants, isTokenCall, scopeFor, tokenAnswer } from "./util.js";

// Two problems in one request, where the spec's words say which answer wins: a missing scope, an
// unknown, revoked or expired credential, a store that cannot use the API, a replay.

const KEY_REQUIRED = re("/inventory/(adjustments|batch)");
const WRITES = ["POST", "PUT", "PATCH"];
const bodyRefusal = (res: SimResponse): SimResponse =>
  errorLike(res, 400, "VALIDATION_FAILED", "body: must be a JSON object", [
    { field: "body", message: "must be a JSON object" },
  ]);
const missingKey = (res: SimResponse): SimResponse =>
  errorLike(res, 400, "VALIDATION_FAILED", "Idempotency-Key: is required on this route", [
    { field: "Idempotency-Key", message: "is required on this route" },
  ]);
const keyed = (req: SimRequest): boolean =>
  sub(req) !== null && req.method !== "GET" && !!req.headers["idempotency-key"];

export const doubleMutants: readonly Mutant[] = [
  {
    name: "blind.double.body-before-scope",
    breaks:
      'Authentication, Scopes: "A call without the needed scope answers 403 INSUFFICIENT_SCOPE." (the body is parsed before the scope is checked: an unreadable body answers 400)',
    caughtBy: ["model.access"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return errorCode(res) === "INSUFFICIENT_SCOPE" && WRITES.includes(req.method) && badJsonBody(req)
        ? bodyRefusal(res)
        : res;
    },
  },
  {
    name: "blind.double.row-before-scope",
    breaks:
      'Authentication, Scopes: "A call without the needed scope answers 403 INSUFFICIENT_SCOPE." (the row is loaded before the scope is checked: an unknown id answers 404)',
    caughtBy: ["model.catalog"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const single = re("/(products|brands|categories|tags|suppliers|customers|customer-groups|sales)/:id");
      if (!on(req, "GET", single) || errorCode(res) !== "INSUFFICIENT_SCOPE") return res;
      const token = await keyOf(next, req, prefixOf(req) ?? "", "full");
      const probe = await next(derived(req, "GET", req.path, "", { authorization: `Bearer ${token}` }));
      return probe.status === 404 ? withJson(res, json(probe), 404) : res;
    },
  },
  {
    name: "blind.double.key-header-before-scope",
    breaks:
      'Authentication, Scopes: "A call without the needed scope answers 403 INSUFFICIENT_SCOPE." (the Idempotency-Key header is checked first: a key without inventory:write and without the header answers 400)',
    caughtBy: ["model.access"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return on(req, "POST", KEY_REQUIRED) &&
        req.headers["idempotency-key"] === undefined &&
        errorCode(res) === "INSUFFICIENT_SCOPE"
        ? missingKey(res)
        : res;
    },
  },
  {
    name: "blind.double.route-before-auth",
    breaks:
      'Errors: "UNAUTHORIZED | 401 | credential missing, malformed, unknown, revoked or idle over 90 days" (the router runs before authentication: an unknown credential on an unknown path answers 404)',
    caughtBy: ["model.access"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return res.status === 401 && sub(req) !== null && scopeFor(req.method, sub(req)) === undefined
        ? errorLike(res, 404, "NOT_FOUND", "No such path.")
        : res;
    },
  },
  {
    name: "blind.double.key-header-before-auth",
    breaks:
      'Errors: "UNAUTHORIZED | 401 | credential missing, malformed, unknown, revoked or idle over 90 days" (the required Idempotency-Key is checked before the credential: a revoked key without the header answers 400)',
    caughtBy: ["model.inventory"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return on(req, "POST", KEY_REQUIRED) && req.headers["idempotency-key"] === undefined && res.status === 401
        ? missingKey(res)
        : res;
    },
  },
  {
    name: "blind.double.scope-before-expiry",
    breaks:
      'States and transitions, Credential: "no request for 90 days | a never-used key counts from its creation day | expired | next request answers UNAUTHORIZED" (scopes are checked before idle expiry: an expired key without the route\'s scope answers 403)',
    caughtBy: ["model.time"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const need = scopeFor(req.method, sub(req));
      if (res.status !== 401 || !need || !/expired/i.test(String(json(res)?.error?.message))) return res;
      const token = bearer(req);
      const key = (await credentials(next, req)).stores.flatMap((s) => s.keys).find((k) => k.token === token);
      return key && !grants(key.scopes, need)
        ? errorLike(res, 403, "INSUFFICIENT_SCOPE", `This call needs the ${need} scope.`)
        : res;
    },
  },
  {
    name: "blind.double.body-before-paused-store",
    breaks:
      'Errors: "RETAILER_PAUSED | 402 | store paused; owner must act in billing" (the paused check sits in the write path after the body parser: a paused store answers 400 to an unreadable body)',
    caughtBy: ["model.access"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return errorCode(res) === "RETAILER_PAUSED" && WRITES.includes(req.method) && badJsonBody(req)
        ? bodyRefusal(res)
        : res;
    },
  },
  {
    name: "blind.double.replay-after-revoke",
    breaks:
      'States and transitions, Credential: "active | revoke (keys) or disconnect (connections) | done by a store admin | revoked | apps using it stop immediately" (stored idempotent answers are served by a cache in front of authentication: a retry with a revoked key replays)',
    caughtBy: ["model.access"],
    wrap: (next) => {
      const stored = new Map<string, SimResponse>();
      return async (req) => {
        if (isReset(req)) stored.clear();
        const res = await next(req);
        if (!keyed(req)) return res;
        const id = `${req.headers.authorization}\n${req.headers["idempotency-key"]}\n${req.method} ${req.path}?${req.query}\n${bodyText(req)}`;
        const old = stored.get(id);
        if (res.status === 401 && old) {
          const { ratelimit, "ratelimit-policy": policy, date } = res.headers;
          return {
            ...old,
            headers: {
              ...old.headers,
              ...(ratelimit ? { ratelimit } : {}),
              ...(policy ? { "ratelimit-policy": policy } : {}),
              ...(date ? { date } : {}),
              "idempotent-replayed": "true",
            },
          };
        }
        if (res.status < 300 && !old && stored.size < 10_000) stored.set(id, res);
        return res;
      };
    },
  },
  {
    name: "blind.double.sku-check-before-replay",
    breaks:
      'Limits, Idempotency: "A retry with the same key and same body returns the same status and data with header Idempotent-Replayed: true." (SKU uniqueness is checked before the idempotency record: the retry of a create that sent a sku answers 409 CONFLICT)',
    caughtBy: ["idempotency.replay"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const b = bodyJson(req);
      if (!on(req, "POST", re("/products")) || res.headers["idempotent-replayed"] !== "true" || res.status >= 300)
        return res;
      if (typeof b?.sku !== "string") return res;
      const { "idempotent-replayed": _r, ...headers } = res.headers;
      return errorLike({ ...res, headers }, 409, "CONFLICT", "sku: is in use by another product", [
        { field: "sku", message: "is in use by another product" },
      ]);
    },
  },
  {
    name: "blind.double.body-before-key-reuse",
    breaks:
      'Limits, Idempotency: "A different body under the same key answers 422 IDEMPOTENCY_KEY_REUSED." (the body is parsed before the idempotency record is read: an unreadable body under a used key answers 400)',
    caughtBy: ["model.inventory"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return errorCode(res) === "IDEMPOTENCY_KEY_REUSED" && badJsonBody(req) ? bodyRefusal(res) : res;
    },
  },
  {
    name: "blind.double.auth-before-lockout",
    breaks:
      'Limits: "Failed authentication (responses 401, 402, 403), per network address and credential | 30 per 5 minutes" (the lockout is applied after authentication: an unknown credential keeps getting 401 past its 30 failures)',
    caughtBy: ["limits.failed-auth-429"],
    wrap: (next) => {
      const issued = new Set<string>();
      return async (req) => {
        if (isReset(req)) issued.clear();
        const res = await next(req);
        const answer = tokenAnswer(req, res);
        if (answer && issued.size < 10_000) issued.add(answer.access_token);
        if (sub(req) === null || res.status !== 429 || !(res.headers["ratelimit-policy"] ?? "").startsWith("30;w=300"))
          return res;
        const token = bearer(req);
        const keys = (await credentials(next, req)).stores.flatMap((s) => s.keys.map((k) => k.token));
        if (token !== undefined && (keys.includes(token) || issued.has(token))) return res;
        const { "retry-after": _ra, ...headers } = res.headers;
        return errorLike({ ...res, headers }, 401, "UNAUTHORIZED", "The credential is not known.");
      };
    },
  },
  {
    name: "blind.double.client-auth-before-token-limit",
    breaks:
      'Limits: "Token endpoint failures, per network address | 30 per 5 minutes; answered in the OAuth shape with error value invalid_request" (client credentials are checked before the limit: bad ones keep getting 401 invalid_client)',
    caughtBy: ["limits.token-failures"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!isTokenCall(req) || res.status !== 429 || json(res)?.error !== "invalid_request") return res;
      const client = clientOf(req);
      const known = (await credentials(next, req)).oauth_clients.some(
        (c) => c.client_id === client?.id && c.client_secret === client?.secret,
      );
      if (known) return res;
      const { "retry-after": _ra, ...headers } = res.headers;
      const basic: Record<string, string> = /^basic /i.test(req.headers.authorization ?? "")
        ? { "www-authenticate": "Basic" }
        : {};
      return withJson(
        { ...res, headers: { ...headers, ...basic } },
        { error: "invalid_client", error_description: "The client credentials are not valid." },
        401,
      );
    },
  },
];
