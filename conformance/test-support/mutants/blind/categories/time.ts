import type { SimRequest, SimResponse } from "../../../../../src/http/types.js";
import type { Mutant } from "../../base.js";
import { clockOf } from "../../support.js";
import { bodyText, clockMs, isReset, json, on, params, re, sub, withJson, withQuery, type Next } from "../util.js";
import {
  bearer,
  clientOf,
  expiredAnswer,
  formOf,
  isConsent,
  isHeadlessAuthorize,
  isObject,
  isTokenCall,
  mapData,
  redirectParam,
  tokenAnswer,
  withForm,
} from "./util.js";

// Time arithmetic in headers and expiries. Time moves only through the control plane's clock; a
// mutant reads it from each answer's Date header or from GET /_sim/clock.

const MINUTE = 60_000;
const DAY = 86_400_000;
const at = (res: SimResponse): number => clockOf(res, Number.NaN);
const withBearer = (req: SimRequest, token: string): SimRequest => ({
  ...req,
  headers: { ...req.headers, authorization: `Bearer ${token}` },
});
/** The authorization code a token request exchanges, if it exchanges one. */
const codeOf = (req: SimRequest): string | undefined => {
  const f = formOf(req);
  return isTokenCall(req) && f.get("grant_type") === "authorization_code" ? (f.get("code") ?? undefined) : undefined;
};
/** Codes of authorization answers (headless or the consent page's redirect), with the time they were made. */
async function noteCode(next: Next, req: SimRequest, codes: Map<string, number>): Promise<SimResponse> {
  const res = await next(req);
  const code = redirectParam(res, "code");
  if (code && codes.size < 10_000) codes.set(code, at(res));
  return res;
}
/** The store's start: the clock the mutant first saw; a reset puts the clock back, so it is read again. */
function startClock(): { start: (next: Next, req: SimRequest) => Promise<number>; forget: () => void } {
  let first: number | undefined;
  return {
    start: async (next, req) => {
      first ??= await clockMs(next, req);
      return first;
    },
    forget: () => {
      first = undefined;
    },
  };
}

export const timeMutants: readonly Mutant[] = [
  {
    name: "blind.time.retry-after-http-date",
    breaks:
      'Limits: "A 429 carries Retry-After (seconds)." (an HTTP date, the end of the window, as RFC 9110 also allows)',
    caughtBy: ["limits.image-writes"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const ra = res.headers["retry-after"];
      if (res.status !== 429 || !ra || !/^\d+$/.test(ra) || Number.isNaN(at(res))) return res;
      return {
        ...res,
        headers: { ...res.headers, "retry-after": new Date(at(res) + Number(ra) * 1000).toUTCString() },
      };
    },
  },
  {
    name: "blind.time.ratelimit-reset-counts-up",
    breaks:
      'Limits: "Every response carries RateLimit-Policy and RateLimit (fields limit, remaining, reset in seconds)." (reset counts the seconds since the window opened instead of those left)',
    caughtBy: ["limits.general-429"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const rl = res.headers["ratelimit"];
      const m = rl ? /limit=(\d+), remaining=(\d+), reset=(\d+)/.exec(rl) : null;
      if (!m || !rl) return res;
      const policies = (res.headers["ratelimit-policy"] ?? "").split(",").map((p) => /^\s*(\d+);w=(\d+)/.exec(p));
      const w = policies.find((p) => p?.[1] === m[1])?.[2];
      if (!w) return res;
      const up = `reset=${Math.max(0, Number(w) - Number(m[3]))}`;
      return { ...res, headers: { ...res.headers, ratelimit: rl.replace(/reset=\d+/, up) } };
    },
  },
  {
    name: "blind.time.access-token-30-minutes",
    breaks: 'Authentication 7: "An access token lasts 1 hour." (the token store keeps access tokens for 1800 seconds)',
    caughtBy: ["model.oauth"],
    wrap: (next) => {
      const issued = new Map<string, number>();
      return async (req) => {
        if (isReset(req)) issued.clear();
        if (isTokenCall(req)) {
          const res = await next(req);
          const b = tokenAnswer(req, res);
          if (b && issued.size < 10_000) issued.set(b.access_token, at(res));
          return res;
        }
        const token = bearer(req);
        const since = token !== undefined ? issued.get(token) : undefined;
        if (since === undefined || sub(req) === null) return next(req);
        return (await clockMs(next, req)) - since > 30 * MINUTE ? expiredAnswer(next, req) : next(req);
      };
    },
  },
  {
    name: "blind.time.access-token-2-hours",
    breaks:
      'Authentication 7: "An access token lasts 1 hour." (an expired token is refreshed behind the client\'s back for a second hour)',
    caughtBy: ["model.oauth"],
    wrap: (next) => {
      const grants = new Map<string, { at: number; refresh: string; client?: { id: string; secret: string } }>();
      const standIn = new Map<string, string>();
      return async (req) => {
        if (isReset(req)) {
          grants.clear();
          standIn.clear();
        }
        if (isTokenCall(req)) {
          const res = await next(req);
          const b = tokenAnswer(req, res);
          if (b && grants.size < 10_000)
            grants.set(b.access_token, { at: at(res), refresh: b.refresh_token, client: clientOf(req) });
          return res;
        }
        const token = bearer(req);
        const g = token !== undefined && sub(req) !== null ? grants.get(token) : undefined;
        if (!g || !token) return next(req);
        const alias = standIn.get(token);
        if (alias && (await clockMs(next, req)) - g.at < 120 * MINUTE) return next(withBearer(req, alias));
        const res = await next(req);
        if (res.status !== 401 || at(res) - g.at >= 120 * MINUTE || !g.client) return res;
        const form = new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: g.refresh,
          client_id: g.client.id,
          client_secret: g.client.secret,
        });
        const bytes = new TextEncoder().encode(form.toString());
        const r = await next({
          method: "POST",
          path: "/oauth/token",
          query: "",
          headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(bytes.length) },
          body: bytes,
          remoteAddress: req.remoteAddress,
          origin: req.origin,
        });
        const fresh = json(r)?.access_token;
        if (r.status !== 200 || typeof fresh !== "string") return res;
        standIn.set(token, fresh);
        return next(withBearer(req, fresh));
      };
    },
  },
  {
    name: "blind.time.code-valid-5-minutes",
    breaks: 'Authentication 4: "A code is valid for 10 minutes and works once." (codes lapse after 300 seconds)',
    caughtBy: ["model.oauth"],
    wrap: (next) => {
      const codes = new Map<string, number>();
      return async (req) => {
        if (isReset(req)) codes.clear();
        if (isHeadlessAuthorize(req) || isConsent(req)) return noteCode(next, req, codes);
        const code = codeOf(req);
        const made = code !== undefined ? codes.get(code) : undefined;
        if (made === undefined || (await clockMs(next, req)) - made <= 5 * MINUTE) return next(req);
        const f = formOf(req);
        f.set("code", `${code}.lapsed`);
        const res = await next(withForm(req, f));
        return json(res)?.error === "invalid_grant"
          ? withJson(res, { error: "invalid_grant", error_description: "The code has expired." })
          : res;
      };
    },
  },
  {
    name: "blind.time.code-valid-15-minutes",
    breaks:
      'Authentication 4: "A code is valid for 10 minutes and works once." (a code up to 15 minutes old is honoured: the consent is replayed for a fresh one)',
    caughtBy: ["model.oauth"],
    wrap: (next) => {
      const made = new Map<string, { req: SimRequest; at: number }>();
      return async (req) => {
        if (isReset(req)) made.clear();
        if (isHeadlessAuthorize(req)) {
          const res = await next(req);
          const code = redirectParam(res, "code");
          if (code && made.size < 10_000) made.set(code, { req, at: at(res) });
          return res;
        }
        const code = codeOf(req);
        const m = code !== undefined ? made.get(code) : undefined;
        const res = await next(req);
        if (!m || code === undefined) return res;
        if (res.status === 200) made.delete(code);
        const age = at(res) - m.at;
        if (json(res)?.error !== "invalid_grant" || age <= 10 * MINUTE || age > 15 * MINUTE) return res;
        made.delete(code);
        const fresh = redirectParam(await next(m.req), "code");
        if (!fresh) return res;
        const f = formOf(req);
        f.set("code", fresh);
        return next(withForm(req, f));
      };
    },
  },
  {
    name: "blind.time.idempotency-never-lapses",
    breaks:
      'Limits: "Idempotency key | 1 to 255 printable characters without spaces; remembered 24 hours, per credential" (records never lapse: a key reused after a day still replays)',
    caughtBy: ["model.time"],
    wrap: (next) => {
      const kept = new Map<string, { res: SimResponse; at: number }>();
      return async (req) => {
        if (isReset(req)) kept.clear();
        const key = req.headers["idempotency-key"];
        if (sub(req) === null || req.method === "GET" || !key) return next(req);
        const id = `${req.headers.authorization}\n${key}\n${req.method} ${req.path}?${req.query}\n${bodyText(req)}`;
        const k = kept.get(id);
        if (k) {
          const now = await clockMs(next, req);
          if (now - k.at >= DAY)
            return {
              ...k.res,
              headers: { ...k.res.headers, date: new Date(now).toUTCString(), "idempotent-replayed": "true" },
            };
        }
        const res = await next(req);
        const stored =
          res.status < 500 &&
          ![401, 402, 403, 429].includes(res.status) &&
          !(res.status === 400 && /Idempotency-Key/.test(String(res.body)));
        if (!k && stored && res.headers["idempotent-replayed"] !== "true" && kept.size < 10_000)
          kept.set(id, { res, at: at(res) });
        return res;
      };
    },
  },
  {
    name: "blind.time.credential-idle-30-days",
    breaks:
      'Authentication 9: "A credential idle for 90 days stops working (see States)." (the idle limit is configured as 30 days)',
    caughtBy: ["auth.idle-expiry"],
    wrap: (next) => {
      const lastUse = new Map<string, number>();
      return async (req) => {
        if (isReset(req)) lastUse.clear();
        const token = bearer(req);
        if (token === undefined || sub(req) === null) return next(req);
        const last = lastUse.get(token);
        if (last !== undefined && (await clockMs(next, req)) - last > 30 * DAY) return expiredAnswer(next, req);
        const res = await next(req);
        if (res.status !== 401 && lastUse.size < 10_000) lastUse.set(token, at(res));
        return res;
      };
    },
  },
  {
    name: "blind.time.never-used-key-from-store-start",
    breaks:
      'States and transitions, Credential: "no request for 90 days | a never-used key counts from its creation day | expired" (a never-used key counts from the day the store started)',
    caughtBy: ["model.time"],
    wrap: (next) => {
      const clock = startClock();
      const created = new Set<string>();
      const used = new Set<string>();
      return async (req) => {
        if (isReset(req)) {
          created.clear();
          used.clear();
          clock.forget();
          return next(req);
        }
        const start = await clock.start(next, req);
        if (req.method === "POST" && /^\/_sim\/stores\/[^/]+\/keys$/.test(req.path)) {
          const res = await next(req);
          const token = json(res)?.token;
          if (res.status === 201 && typeof token === "string" && created.size < 10_000) created.add(token);
          return res;
        }
        const token = bearer(req);
        if (token === undefined || sub(req) === null) return next(req);
        if (created.has(token) && !used.has(token) && (await clockMs(next, req)) - start > 90 * DAY)
          return expiredAnswer(next, req);
        const res = await next(req);
        if (res.status !== 401) used.add(token);
        return res;
      };
    },
  },
  {
    name: "blind.time.completed-from-drops-milliseconds",
    breaks:
      'Sales list rules 1: "completed_from and completed_to filter completed_at" (completed_from is truncated to the second, so sales earlier in that second come back)',
    caughtBy: ["sales.completed-range-inclusive"],
    wrap: (next) => async (req) => {
      const q = params(req);
      const from = q.get("completed_from");
      if (!on(req, "GET", re("/sales")) || !from || !/\.\d+Z$/.test(from)) return next(req);
      q.set("completed_from", from.replace(/\.\d+Z$/, "Z"));
      return next(withQuery(req, q));
    },
  },
  {
    name: "blind.time.local-timestamps-after-first-day",
    breaks:
      "What the service does 5: \"Timestamps are ISO 8601 date-times in UTC and end in Z.\" (product timestamps after the store's first day are written in the server's zone, -05:00)",
    caughtBy: ["model.access"],
    wrap: (next) => {
      const clock = startClock();
      return async (req) => {
        if (isReset(req)) {
          clock.forget();
          return next(req);
        }
        const start = await clock.start(next, req);
        const res = await next(req);
        if (!/^\/products(\/[^/]+)?$/.test(sub(req) ?? "") || (res.status >= 300 && res.status !== 422)) return res;
        const local = (v: unknown) => {
          const ms = typeof v === "string" && v.endsWith("Z") ? Date.parse(v) : Number.NaN;
          return ms >= start + DAY ? new Date(ms - 5 * 3_600_000).toISOString().replace("Z", "-05:00") : v;
        };
        return mapData(res, (d) =>
          isObject(d) && "created_at" in d
            ? { ...d, created_at: local(d.created_at), updated_at: local(d.updated_at) }
            : d,
        );
      };
    },
  },
  {
    name: "blind.time.expires-in-counts-down",
    breaks:
      'Authentication 6: "Token response fields: access_token, refresh_token, token_type (Bearer), expires_in (3600)" (a refresh answers the seconds left of the connection\'s first hour)',
    caughtBy: ["model.oauth"],
    wrap: (next) => {
      const born = new Map<string, number>();
      return async (req) => {
        if (isReset(req)) born.clear();
        const res = await next(req);
        const b = json(res);
        if (!isTokenCall(req) || res.status !== 200 || typeof b?.refresh_token !== "string") return res;
        const f = formOf(req);
        if (f.get("grant_type") === "authorization_code" && born.size < 10_000) born.set(b.refresh_token, at(res));
        const first = f.get("grant_type") === "refresh_token" ? born.get(f.get("refresh_token") ?? "") : undefined;
        if (first === undefined) return res;
        return withJson(res, { ...b, expires_in: Math.max(0, 3600 - Math.floor((at(res) - first) / 1000)) });
      };
    },
  },
];
