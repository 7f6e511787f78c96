import type { Mutant } from "../base.js";
import {
  clockMs,
  derived,
  errorCode,
  errorLike,
  isReset,
  json,
  keyOf,
  on,
  prefixOf,
  re,
  reError,
  sub,
  withJson,
} from "./util.js";

// Blind mutants of authentication, scopes, store states and rate limits.

export const accessMutants: readonly Mutant[] = [
  {
    name: "blind.sale-read-skips-scope",
    breaks:
      'Authentication: "A call without the needed scope answers 403 INSUFFICIENT_SCOPE." (GET /sales/{id} checks no scope)',
    caughtBy: ["scopes.missing-scope"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "GET", re("/sales/:id")) || errorCode(res) !== "INSUFFICIENT_SCOPE") return res;
      const token = await keyOf(next, req, prefixOf(req) as string, "full");
      return token ? next({ ...req, headers: { ...req.headers, authorization: `Bearer ${token}` } }) : res;
    },
  },
  {
    name: "blind.foreign-product-readable",
    breaks:
      'Errors: "NOT_FOUND | 404 | missing, deleted, other store\'s, non-UUID id, or unknown path" (a product id of another store is read without a store filter)',
    caughtBy: ["isolation.foreign-ids"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "GET", re("/products/:id")) || res.status !== 404) return res;
      const stores = json(await next(derived(req, "GET", "/_sim/credentials")))?.stores ?? [];
      for (const store of stores as { prefix: string; keys: { name: string; token: string }[] }[]) {
        const token = store.keys.find((k) => k.name === "full")?.token;
        if (store.prefix === prefixOf(req) || !token) continue;
        const other = await next({
          ...req,
          path: req.path.replace(/^\/[^/]+\/v1\//, `/${store.prefix}/v1/`),
          headers: { authorization: `Bearer ${token}` },
        });
        if (other.status === 200) return withJson(res, json(other), 200);
      }
      return res;
    },
  },
  {
    name: "blind.customer-scope-401",
    breaks: 'Errors: "INSUFFICIENT_SCOPE | 403 | scope missing" (customer routes answer 401 UNAUTHORIZED)',
    caughtBy: ["scopes.missing-scope"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return (sub(req) ?? "").startsWith("/customers") && errorCode(res) === "INSUFFICIENT_SCOPE"
        ? reError(res, 401, "UNAUTHORIZED")
        : res;
    },
  },
  {
    name: "blind.paused-store-403",
    breaks:
      'Errors: "RETAILER_PAUSED | 402 | store paused; owner must act in billing" (403 like the other store statuses)',
    caughtBy: ["stores.status-codes"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return errorCode(res) === "RETAILER_PAUSED" ? { ...res, status: 403 } : res;
    },
  },
  {
    name: "blind.suspended-reported-as-cancelled",
    breaks:
      'Errors: "RETAILER_CANCELLED, RETAILER_SUSPENDED, RETAILER_NOT_FOUND | 403 | store status blocks API calls" (a suspended store answers RETAILER_CANCELLED)',
    caughtBy: ["stores.status-codes"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return errorCode(res) === "RETAILER_SUSPENDED" ? reError(res, 403, "RETAILER_CANCELLED") : res;
    },
  },
  {
    name: "blind.revoke-takes-a-request",
    breaks:
      'States, Credential: "active | revoke (keys) ... | revoked | apps using it stop immediately" (a cached credential serves one more request)',
    caughtBy: ["auth.revoked-key"],
    wrap: (next) => {
      // token -> scopes, for the one request the auth cache still lets through
      const grace = new Map<string, { prefix: string; scopes: string[] }>();
      return async (req) => {
        if (isReset(req)) grace.clear();
        const revoke = req.method === "POST" ? /^\/_sim\/keys\/([^/]+)\/revoke$/.exec(req.path) : null;
        if (revoke) {
          const stores =
            json(await next(derived(req, "GET", "/_sim/credentials", "", { authorization: req.headers.authorization })))
              ?.stores ?? [];
          const res = await next(req);
          for (const s of stores as {
            prefix: string;
            keys: { id: string; token: string; scopes: string[]; state: string }[];
          }[]) {
            const key = s.keys.find((k) => k.id === decodeURIComponent(revoke[1] ?? "") && k.state === "active");
            if (key && res.status < 300) grace.set(key.token, { prefix: s.prefix, scopes: key.scopes });
          }
          return res;
        }
        const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1];
        const cached = token ? grace.get(token) : undefined;
        if (!token || !cached || sub(req) === null) return next(req);
        grace.delete(token);
        const made = json(
          await next(
            derived(
              req,
              "POST",
              `/_sim/stores/${cached.prefix}/keys`,
              "",
              { authorization: undefined },
              { name: "auth-cache", scopes: cached.scopes },
            ),
          ),
        );
        return made?.token
          ? next({ ...req, headers: { ...req.headers, authorization: `Bearer ${made.token}` } })
          : next(req);
      };
    },
  },
  {
    name: "blind.general-limit-100",
    breaks: 'Limits: "Requests per credential | 120 per minute" (the limiter is configured with 100)',
    caughtBy: ["limits.general-429"],
    wrap: (next) => {
      const windows = new Map<string, { remaining: number; resetAt: number }>();
      return async (req) => {
        if (isReset(req)) windows.clear();
        const auth = req.headers.authorization;
        if (sub(req) === null || !auth) return next(req);
        const now = await clockMs(next, req);
        const w = windows.get(auth);
        if (w && now < w.resetAt && w.remaining < 20) {
          const reset = Math.max(1, Math.ceil((w.resetAt - now) / 1000));
          return errorLike(
            {
              status: 429,
              headers: {
                "ratelimit-policy": "120;w=60",
                ratelimit: `limit=120, remaining=${w.remaining}, reset=${reset}`,
                "retry-after": String(reset),
                date: new Date(now).toUTCString(),
              },
              body: null,
            },
            429,
            "RATE_LIMITED",
            "Rate limit exceeded: 100 requests per minute per credential.",
          );
        }
        const res = await next(req);
        const m = /limit=120, remaining=(\d+), reset=(\d+)/.exec(res.headers["ratelimit"] ?? "");
        if (m) windows.set(auth, { remaining: Number(m[1]), resetAt: now + Number(m[2]) * 1000 });
        return res;
      };
    },
  },
  {
    name: "blind.retry-after-milliseconds",
    breaks: 'Limits: "A 429 carries Retry-After (seconds)." (milliseconds)',
    caughtBy: ["limits.general-429", "limits.customers-429", "limits.failed-auth-429"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const ra = res.headers["retry-after"];
      return res.status === 429 && ra && /^\d+$/.test(ra)
        ? { ...res, headers: { ...res.headers, "retry-after": String(Number(ra) * 1000) } }
        : res;
    },
  },
  {
    name: "blind.ratelimit-reset-milliseconds",
    breaks:
      'Limits: "Every response carries RateLimit-Policy and RateLimit (fields limit, remaining, reset in seconds)." (reset in milliseconds)',
    caughtBy: ["limits.headers"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const rl = res.headers["ratelimit"];
      if (sub(req) === null || !rl) return res;
      return {
        ...res,
        headers: { ...res.headers, ratelimit: rl.replace(/reset=(\d+)/, (_, s) => `reset=${Number(s) * 1000}`) },
      };
    },
  },
];
