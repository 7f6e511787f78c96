import type { SimRequest, SimResponse } from "../../../../src/http/types.js";
import type { Mutant } from "../base.js";
import { bodyText, clockMs, errorCode, isReset, on, re, sub, withKey } from "./util.js";

// Blind mutants of the Idempotency-Key rules (Limits, Idempotency).

const replayed = (res: SimResponse): boolean => res.headers["idempotent-replayed"] === "true";
const keyed = (req: SimRequest): string | undefined =>
  sub(req) !== null && req.method !== "GET" ? req.headers["idempotency-key"] : undefined;
const fingerprint = (req: SimRequest): string => `${req.method} ${req.path}?${req.query}\n${bodyText(req)}`;
const dropReplay = (res: SimResponse): SimResponse => {
  const headers = { ...res.headers };
  delete headers["idempotent-replayed"];
  return { ...res, headers };
};

export const idempotencyMutants: readonly Mutant[] = [
  {
    name: "blind.customer-replay-without-header",
    breaks:
      'Limits, Idempotency: "A retry with the same key and same body returns the same status and data with header Idempotent-Replayed: true." (customer creates leave the header out)',
    caughtBy: ["idempotency.optional-routes"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return on(req, "POST", re("/customers")) && replayed(res) ? dropReplay(res) : res;
    },
  },
  {
    name: "blind.reference-create-replay-200",
    breaks:
      'Limits, Idempotency: "A retry with the same key and same body returns the same status and data" (a replayed brand, category, tag or supplier create answers 200, not its 201)',
    caughtBy: ["idempotency.optional-routes"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return on(req, "POST", re("/(brands|categories|tags|suppliers)")) && replayed(res) && res.status === 201
        ? { ...res, status: 200 }
        : res;
    },
  },
  {
    name: "blind.key-reuse-processed-anew",
    breaks:
      'Limits, Idempotency: "A different body under the same key answers 422 IDEMPOTENCY_KEY_REUSED." (the key is keyed together with the body)',
    caughtBy: ["idempotency.key-reused"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const key = keyed(req);
      if (!key || errorCode(res) !== "IDEMPOTENCY_KEY_REUSED") return res;
      const digest = Buffer.from(bodyText(req)).toString("base64url").slice(0, 40);
      return dropReplay(await next(withKey(req, `${key.slice(0, 200)}~${digest}`)));
    },
  },
  {
    name: "blind.key-with-spaces-accepted",
    breaks: 'Limits: "Idempotency key | 1 to 255 printable characters without spaces" (spaces are accepted)',
    caughtBy: ["idempotency.key-format"],
    wrap: (next) => async (req) => {
      const key = keyed(req);
      return key?.includes(" ") && key.trim() !== "" ? next(withKey(req, key.replace(/ /g, "_"))) : next(req);
    },
  },
  {
    name: "blind.client-error-not-replayed",
    breaks:
      'Limits, Idempotency: "A client error replays the same failure." (a 4xx is not stored: the retry runs again)',
    caughtBy: ["idempotency.client-error-replayed"],
    wrap: (next) => {
      let n = 0;
      return async (req) => {
        const res = await next(req);
        const key = keyed(req);
        if (!key || !replayed(res) || res.status < 400 || res.status >= 500) return res;
        return next(withKey(req, `${key.slice(0, 200)}~retry${++n}`));
      };
    },
  },
  {
    name: "blind.keys-forgotten-after-an-hour",
    breaks: 'Limits: "Idempotency key | ... remembered 24 hours, per credential" (records expire after 1 hour)',
    caughtBy: ["idempotency.lapse-24h"],
    wrap: (next) => {
      const first = new Map<string, number>();
      let n = 0;
      return async (req) => {
        if (isReset(req)) first.clear();
        const key = keyed(req);
        if (!key) return next(req);
        const id = `${req.headers.authorization}\n${key}`;
        const now = await clockMs(next, req);
        const res = await next(req);
        if (!replayed(res)) {
          if (!first.has(id)) first.set(id, now);
          return res;
        }
        const at = first.get(id);
        if (at === undefined || now - at <= 3600_000) return res;
        return next(withKey(req, `${key.slice(0, 200)}~h${++n}`));
      };
    },
  },
  {
    name: "blind.server-error-remembered",
    breaks: 'Limits, Idempotency: "A 500 is not remembered." (the 500 is stored and replayed)',
    caughtBy: ["idempotency.error-500-not-remembered"],
    wrap: (next) => {
      const stored = new Map<string, SimResponse>();
      return async (req) => {
        if (isReset(req)) stored.clear();
        const key = keyed(req);
        if (!key) return next(req);
        const id = `${req.headers.authorization}\n${key}\n${fingerprint(req)}`;
        const old = stored.get(id);
        if (old) return { ...old, headers: { ...old.headers, "idempotent-replayed": "true" } };
        const res = await next(req);
        if (res.status >= 500) stored.set(id, res);
        return res;
      };
    },
  },
  {
    name: "blind.keys-shared-across-credentials",
    breaks:
      'Limits: "Idempotency key | ... remembered 24 hours, per credential" (remembered per store: another credential gets the first one\'s answer)',
    caughtBy: ["idempotency.per-credential"],
    wrap: (next) => {
      const stored = new Map<string, { auth: string | undefined; res: SimResponse }>();
      return async (req) => {
        if (isReset(req)) stored.clear();
        const key = keyed(req);
        if (!key) return next(req);
        const id = `${req.path.split("/")[1]}\n${key}\n${fingerprint(req)}`;
        const old = stored.get(id);
        if (old && old.auth !== req.headers.authorization)
          return { ...old.res, headers: { ...old.res.headers, "idempotent-replayed": "true" } };
        const res = await next(req);
        if (!old && res.status < 400 && !replayed(res)) stored.set(id, { auth: req.headers.authorization, res });
        return res;
      };
    },
  },
];
