import type { SimResponse } from "../../../src/http/types.js";
import { API, bodyOf, withBody, type Mutant } from "./base.js";
import {
  API_PATH,
  apiError,
  clockOf,
  importsImage,
  isProductWrite,
  jsonOf,
  own,
  rateHeadersOf,
  withoutHeaders,
} from "./support.js";

// Broken limits (spec, Limits): rate-limit headers, image writes and downloads, the customer routes'
// limit and the failed-authentication limit per address. State a mutant keeps lives inside wrap().

const CUSTOMER_ROUTES = /^\/([^/]+)\/v1\/customers(\/|$)/;
const PRODUCT_WRITE = [API_PATH("/products"), API_PATH("/products/[^/]+")];

/** A 429 RATE_LIMITED as the limiter would write it, with the route's rate-limit headers. */
function tooMany(retryAfter: number, rateHeaders: Record<string, string>): SimResponse {
  return {
    status: 429,
    headers: { ...rateHeaders, "content-type": "application/json; charset=utf-8", "retry-after": String(retryAfter) },
    body: JSON.stringify({ error: { code: "RATE_LIMITED", message: "Too many customer requests; retry later." } }),
  };
}

export const limitMutants: readonly Mutant[] = [
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
    name: "image-limit-never-applied",
    breaks:
      "Limits: product writes with image_url are limited to 10 per minute per credential (this one never refuses them)",
    caughtBy: ["limits.image-writes"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!importsImage(req) || res.status !== 429 || jsonOf(res)?.error?.code !== "RATE_LIMITED") return res;
      // As if no limit were counted: the write goes through under a fresh window (a new key of the same scopes).
      const prefix = req.path.split("/")[1] as string;
      const me = jsonOf(await next(own(req, "GET", `/${prefix}/v1/me`, undefined, req.headers.authorization)));
      const key = jsonOf(
        await next(own(req, "POST", `/_sim/stores/${prefix}/keys`, { name: "mutant", scopes: me?.data?.scopes ?? [] })),
      );
      if (typeof key?.token !== "string") return res;
      return next({ ...req, headers: { ...req.headers, authorization: `Bearer ${key.token}` } });
    },
  },
  {
    name: "image-limit-counts-every-write",
    breaks:
      "Limits: writes without an image do not count toward the image-write limit (this one counts every product write)",
    caughtBy: ["limits.image-writes"],
    wrap: (next) => {
      let n = 0;
      return async (req) => {
        const res = await next(req);
        const id = jsonOf(res)?.data?.id;
        if (!isProductWrite(req) || importsImage(req) || res.status >= 300 || typeof id !== "string") return res;
        // Counted like an image write: an import that is counted and then refused as busy writes nothing.
        const url = `https://mutant.invalid/count-${++n}.png`;
        await next(own(req, "POST", "/_sim/images", { url, outcome: "busy" }));
        await next(
          own(
            req,
            "PATCH",
            `${/^\/[^/]+\/v1/.exec(req.path)?.[0]}/products/${id}`,
            { image_url: url },
            req.headers.authorization,
          ),
        );
        return res;
      };
    },
  },
  {
    name: "customers-limit-per-store",
    breaks:
      "Limits: customer endpoints allow 30 per minute per credential (this one counts every credential of the store together)",
    caughtBy: ["limits.customers-429"],
    wrap: (next) => {
      const windows = new Map<string, { start: number; count: number }>();
      let now = 0;
      let headers: Record<string, string> = {};
      return async (req) => {
        const store = CUSTOMER_ROUTES.exec(req.path)?.[1];
        const w = store === undefined ? undefined : windows.get(store);
        if (w && now - w.start < 60_000 && w.count >= 30)
          return tooMany(Math.max(1, Math.ceil((w.start + 60_000 - now) / 1000)), headers);
        const res = await next(req);
        now = clockOf(res, now);
        if (store !== undefined && res.status !== 429) {
          headers = rateHeadersOf(res);
          if (!w || now - w.start >= 60_000) windows.set(store, { start: now, count: 1 });
          else w.count += 1;
        }
        return res;
      };
    },
  },
  {
    name: "customers-limit-locks-credential",
    breaks:
      "Limits: the customers limit is additional to the general one (this one, once tripped, refuses every route of the credential)",
    caughtBy: ["limits.customers-429"],
    wrap: (next) => {
      const locked = new Map<string, { until: number; headers: Record<string, string> }>();
      let now = 0;
      return async (req) => {
        const auth = req.headers.authorization;
        const lock = auth === undefined ? undefined : locked.get(auth);
        if (lock && API.test(req.path) && lock.until > now)
          return tooMany(Math.max(1, Math.ceil((lock.until - now) / 1000)), lock.headers);
        const res = await next(req);
        now = clockOf(res, now);
        if (auth !== undefined && CUSTOMER_ROUTES.test(req.path) && res.status === 429) {
          locked.set(auth, {
            until: now + Number(res.headers["retry-after"] ?? 60) * 1000,
            headers: rateHeadersOf(res),
          });
        }
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
];
