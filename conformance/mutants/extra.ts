import type { SimRequest, SimResponse } from "../../src/http/types.js";
import { API, bodyText, mapJson, type Mutant } from "./base.js";

// Broken simulators for unit costs, the sales outlet filter, the customers limit, token answers,
// client credentials and remembered 500s: each violates one spec sentence as a real server might.

const STOCK_SET = /^\/[^/]+\/v1\/products\/[^/]+\/inventory\/[^/]+$/;
const ADJUSTMENTS = /^\/[^/]+\/v1\/inventory\/adjustments$/;
const SALES = /^\/[^/]+\/v1\/sales$/;
const CUSTOMERS = /^\/([^/]+)\/v1\/customers(\/|$)/;

const withText = (req: SimRequest, text: string): SimRequest => ({ ...req, body: new TextEncoder().encode(text) });

/** The JSON body of a request, or undefined when it is not a JSON object. */
function jsonBody(req: SimRequest): Record<string, unknown> | undefined {
  try {
    const body = JSON.parse(bodyText(req));
    return typeof body === "object" && body !== null && !Array.isArray(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

/** The simulator's clock as its Date header tells it (limits count on that clock, not on real time). */
const clockOf = (res: SimResponse, last: number): number => {
  const at = Date.parse(res.headers["date"] ?? "");
  return Number.isNaN(at) ? last : at;
};

/** A 429 RATE_LIMITED as the limiter would write it, with the route's rate-limit headers. */
function tooMany(retryAfter: number, rateHeaders: Record<string, string>): SimResponse {
  return {
    status: 429,
    headers: { ...rateHeaders, "content-type": "application/json; charset=utf-8", "retry-after": String(retryAfter) },
    body: JSON.stringify({ error: { code: "RATE_LIMITED", message: "Too many customer requests; retry later." } }),
  };
}

const rateHeadersOf = (res: SimResponse): Record<string, string> =>
  Object.fromEntries(Object.entries(res.headers).filter(([k]) => k === "ratelimit" || k === "ratelimit-policy"));

const unitCostMutants: readonly Mutant[] = [
  {
    name: "adjustment-drops-unit-cost",
    breaks:
      "Inventory 4: unit_cost on an adjustment that raises stock is blended into the average (this one drops it: the average never moves)",
    caughtBy: ["inventory.unit-cost-average"],
    wrap: (next) => async (req) => {
      const body = req.method === "POST" && ADJUSTMENTS.test(req.path) ? jsonBody(req) : undefined;
      if (!body || !("unit_cost" in body)) return next(req);
      const { unit_cost: _dropped, ...rest } = body;
      return next(withText(req, JSON.stringify(rest)));
    },
  },
  {
    name: "set-without-cost-zeroes-average",
    breaks: "Inventory 4: a set without unit_cost keeps the average (this one defaults unit_cost to 0)",
    caughtBy: ["inventory.unit-cost-average"],
    wrap: (next) => async (req) => {
      const body = req.method === "PUT" && STOCK_SET.test(req.path) ? jsonBody(req) : undefined;
      if (!body || "unit_cost" in body) return next(req);
      return next(withText(req, JSON.stringify({ ...body, unit_cost: 0 })));
    },
  },
  {
    name: "adjustment-refuses-unit-cost",
    breaks:
      "Endpoints: POST /inventory/adjustments takes unit_cost? (this one still has the 1.0.0 schema and refuses the property with 400)",
    caughtBy: ["inventory.unit-cost-accepted"],
    wrap: (next) => async (req) => {
      const body = req.method === "POST" && ADJUSTMENTS.test(req.path) ? jsonBody(req) : undefined;
      if (!body || !("unit_cost" in body)) return next(req);
      // Answered as the older schema does: 400 VALIDATION_FAILED naming unit_cost.
      return next(withText(req, JSON.stringify({ ...body, unit_cost: "not part of this version" })));
    },
  },
  {
    name: "unit-cost-fraction-rounded",
    breaks:
      "Inventory 4 and What the service does 2: unit_cost is integer cents (this one rounds 12.5 to 13 instead of refusing it)",
    caughtBy: ["inventory.unit-cost-accepted"],
    wrap: (next) => async (req) => {
      const writes =
        (req.method === "PUT" && STOCK_SET.test(req.path)) || (req.method === "POST" && ADJUSTMENTS.test(req.path));
      const body = writes ? jsonBody(req) : undefined;
      if (!body || typeof body.unit_cost !== "number" || Number.isInteger(body.unit_cost)) return next(req);
      return next(withText(req, JSON.stringify({ ...body, unit_cost: Math.round(body.unit_cost) })));
    },
  },
];

const salesMutants: readonly Mutant[] = [
  {
    name: "sales-outlet-filter-ignored",
    breaks: "Endpoints: GET /sales?outlet_id= returns that outlet's sales (this one ignores the parameter)",
    caughtBy: ["sales.outlet-filter"],
    wrap: (next) => async (req) => {
      if (req.method !== "GET" || !SALES.test(req.path)) return next(req);
      const params = new URLSearchParams(req.query);
      if (!params.has("outlet_id")) return next(req);
      params.delete("outlet_id");
      return next({ ...req, query: params.toString() });
    },
  },
  {
    name: "sales-outlet-filter-drops-last",
    breaks:
      "Endpoints: GET /sales?outlet_id= returns every sale of that outlet (this one loses the last match, an off-by-one on the filtered query)",
    caughtBy: ["sales.outlet-filter"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "GET" || !SALES.test(req.path) || !new URLSearchParams(req.query).has("outlet_id")) return res;
      return mapJson(res, (b) =>
        Array.isArray(b?.data) && b.data.length > 0 && b.has_more === false ? { ...b, data: b.data.slice(0, -1) } : b,
      );
    },
  },
];

const limitMutants: readonly Mutant[] = [
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
        const store = CUSTOMERS.exec(req.path)?.[1];
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
        if (auth !== undefined && CUSTOMERS.test(req.path) && res.status === 429) {
          locked.set(auth, {
            until: now + Number(res.headers["retry-after"] ?? 60) * 1000,
            headers: rateHeadersOf(res),
          });
        }
        return res;
      };
    },
  },
];

const TOKEN = "/oauth/token";

const oauthMutants: readonly Mutant[] = [
  {
    name: "token-expires-in-ms",
    breaks: "Authentication 6: expires_in is 3600 (seconds; this one answers milliseconds)",
    caughtBy: ["oauth.token-response-values"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.path !== TOKEN || res.status !== 200) return res;
      return mapJson(res, (b) => (typeof b?.expires_in === "number" ? { ...b, expires_in: b.expires_in * 1000 } : b));
    },
  },
  {
    name: "token-scope-comma-separated",
    breaks: "Authentication 6: scope is space separated (this one joins the scopes with commas)",
    caughtBy: ["oauth.token-response-values"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.path !== TOKEN || res.status !== 200) return res;
      return mapJson(res, (b) => (typeof b?.scope === "string" ? { ...b, scope: b.scope.split(" ").join(",") } : b));
    },
  },
  {
    name: "client-credentials-both-accepted",
    breaks:
      "Authentication 5: client credentials are sent as HTTP Basic or in the body, never both (this one takes the header and ignores the body's)",
    caughtBy: ["oauth.client-credentials-both-ways"],
    wrap: (next) => async (req) => {
      if (req.path !== TOKEN || !/^basic\s/i.test(req.headers.authorization ?? "")) return next(req);
      const form = new URLSearchParams(bodyText(req));
      if (!form.has("client_id") && !form.has("client_secret")) return next(req);
      form.delete("client_id");
      form.delete("client_secret");
      return next(withText(req, form.toString()));
    },
  },
];

const idempotencyMutants: readonly Mutant[] = [
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
];

export const extraMutants: readonly Mutant[] = [
  ...unitCostMutants,
  ...salesMutants,
  ...limitMutants,
  ...oauthMutants,
  ...idempotencyMutants,
];
