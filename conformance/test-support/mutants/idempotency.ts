import type { SimRequest, SimResponse } from "../../../src/http/types.js";
import { API, bodyText, type Mutant } from "./base.js";
import { API_PATH, apiError, textOf, withoutHeaders } from "./support.js";

// Broken idempotency (spec, Limits: Idempotency): replays, keys, what is remembered and for how long.

const STOCK_SET = API_PATH("/products/[^/]+/inventory/[^/]+");

/** Statuses answered before the key is read: never an outcome to remember. */
const NOT_REMEMBERED = new Set([401, 402, 403, 429]);

export const idempotencyMutants: readonly Mutant[] = [
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
    name: "idempotency-remembers-500",
    breaks:
      "Idempotency: a 500 is not remembered (this one stores every answer under the key, 500s included, and replays them)",
    caughtBy: ["idempotency.error-500-not-remembered"],
    wrap: (next) => {
      const stored = new Map<string, { request: string; res: SimResponse }>();
      return async (req) => {
        const key = req.headers["idempotency-key"];
        if (!API.test(req.path) || key === undefined) return next(req);
        const id = `${req.headers.authorization ?? ""}\n${key}`;
        const request = `${req.method} ${req.path}?${req.query}\n${bodyText(req)}`;
        const seen = stored.get(id);
        if (seen && seen.request === request)
          return { ...seen.res, headers: { ...seen.res.headers, "idempotent-replayed": "true" } };
        const res = await next(req);
        if (res.status >= 500) stored.set(id, { request, res: { ...res, headers: { ...res.headers } } });
        return res;
      };
    },
  },
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
];
