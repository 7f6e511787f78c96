import type { Mutant } from "../base.js";
import { bodyText, errorAnswer, errorOf, isControl, mapResponseJson, methodsOf, sub } from "./support.js";

// Honest variants that refuse differently where the spec leaves the refusal open: message texts, the
// order of field errors, the syntax of the RateLimit headers, a longer Retry-After, 405 for a known
// path with another method, credentials of another store, disagreeing version and expected_version,
// and a negative absolute stock level.

/** The simulator's message for a credential of another store (it answers 401 UNAUTHORIZED). */
const FOREIGN = "The credential does not belong to this store.";

const STOCK_SET = /^\/products\/[^/]+\/inventory\/[^/]+$/;

/** A credential of another store under this prefix, answered `status code` instead of 401. */
function foreignCredential(status: number, code: string, message: string): Mutant["wrap"] {
  return (next) => async (req) => {
    const res = await next(req);
    if (sub(req) === null || res.status !== 401 || errorOf(res)?.message !== FOREIGN) return res;
    return errorAnswer(res, status, code, message);
  };
}

/** `RateLimit-Policy` items in the IETF draft's named form: `"default";q=120;w=60` for `120;w=60`. */
function namedPolicies(policy: string): string {
  const names = new Set<string>();
  return policy
    .split(/,\s*(?=\d)/)
    .map((item) => {
      const [quota, ...params] = item.trim().split(";");
      const comment = params.find((p) => p.startsWith("comment="));
      let name = comment ? comment.slice("comment=".length).replace(/^"|"$/g, "") : "default";
      while (names.has(name)) name = `${name}-${names.size}`;
      names.add(name);
      return [`"${name}"`, `q=${quota}`, ...params.filter((p) => p !== comment)].join(";");
    })
    .join(", ");
}

export const errorVariants: readonly Mutant[] = [
  {
    name: "honest.other-messages",
    breaks:
      'Allowed: other error message texts, other messages in fields, other OAuth error_description texts. Spec, Errors: "{"error": {"code": string, "message": string, "fields"?: [{field, message}]}}" gives only the type of message; Authentication 8: "{error, error_description}".',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (isControl(req) || res.status < 400) return res;
      return mapResponseJson(res, (b) => {
        if (typeof b?.error === "object" && b.error !== null) {
          b.error.message = `Die Anfrage wurde abgelehnt (${b.error.code}).`;
          if (Array.isArray(b.error.fields))
            b.error.fields = b.error.fields.map((f: any) => ({ ...f, message: "ungültiger Wert" }));
        }
        if (typeof b?.error_description === "string") b.error_description = "Die Anfrage wurde abgelehnt.";
        return b;
      });
    },
  },
  {
    name: "honest.ratelimit-field-order",
    breaks:
      'Allowed: the RateLimit header with its fields in another order (RateLimit: reset=60, limit=120, remaining=119). Spec, Limits: "Every response carries RateLimit-Policy and RateLimit (fields limit, remaining, reset in seconds)." names the fields, not their order.',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const header = res.headers["ratelimit"];
      if (header === undefined) return res;
      const fields = new Map(header.split(",").map((part) => part.trim().split("=") as [string, string]));
      const order = ["reset", "limit", "remaining"];
      const rest = [...fields.keys()].filter((k) => !order.includes(k));
      const value = [...order, ...rest]
        .filter((k) => fields.has(k))
        .map((k) => `${k}=${fields.get(k)}`)
        .join(", ");
      return { ...res, headers: { ...res.headers, ratelimit: value } };
    },
  },
  {
    name: "honest.wrong-method-405",
    breaks:
      'Allowed: a known path with a method it has no operation for answers 405 (code NOT_FOUND, with Allow). Spec, Errors: "NOT_FOUND | 404 | ... unknown path" (spec-choices, Routes: "404 (405 too for a wrong method)").',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const s = sub(req);
      if (s === null || res.status !== 404 || errorOf(res)?.code !== "NOT_FOUND") return res;
      const methods = methodsOf(s);
      if (methods.length === 0 || methods.includes(req.method)) return res;
      return errorAnswer(res, 405, "NOT_FOUND", `${req.method} is not allowed on ${s}.`, { allow: methods.join(", ") });
    },
  },
  {
    name: "honest.foreign-credential-404",
    breaks:
      "Allowed: a credential of another store under this store's prefix answers 404 NOT_FOUND. Spec, Errors: \"NOT_FOUND | 404 | missing, deleted, other store's, ...\" (spec-choices, A credential used under another store's prefix: 401, 403 or 404).",
    caughtBy: [],
    wrap: foreignCredential(404, "NOT_FOUND", "No such store for this credential."),
  },
  {
    name: "honest.foreign-credential-403",
    breaks:
      "Allowed: a credential of another store under this store's prefix answers 403 RETAILER_NOT_FOUND (its store is not found under this prefix). Spec, Errors: \"RETAILER_CANCELLED, RETAILER_SUSPENDED, RETAILER_NOT_FOUND | 403 | store status blocks API calls\" (spec-choices, A credential used under another store's prefix: 401, 403 or 404). Not INSUFFICIENT_SCOPE: GET /me and the other scope-free routes cannot lack a scope.",
    caughtBy: [],
    wrap: foreignCredential(403, "RETAILER_NOT_FOUND", "This credential's store is not found under this prefix."),
  },
  {
    name: "honest.versions-disagree-409",
    breaks:
      'Allowed: version and expected_version that disagree answer 409 STALE_VERSION (one of them is outdated). Spec, Product write rules 6: "If both are sent they must agree." gives no status (spec-choices: 400 or 409).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (sub(req) === null || req.method !== "PATCH" || res.status !== 400) return res;
      const e = errorOf(res);
      if (
        e?.code !== "VALIDATION_FAILED" ||
        !e.fields?.length ||
        !e.fields.every((f) => f.field === "expected_version")
      )
        return res;
      let body: any;
      try {
        body = JSON.parse(bodyText(req));
      } catch {
        return res;
      }
      if (
        typeof body?.version !== "string" ||
        typeof body?.expected_version !== "string" ||
        body.version === body.expected_version
      )
        return res;
      return errorAnswer(res, 409, "STALE_VERSION", "version and expected_version disagree: one of them is outdated.");
    },
  },
  {
    name: "honest.negative-set-422",
    breaks:
      'Allowed: an absolute set below zero (PUT stock, a batch set line) answers 422 INSUFFICIENT_STOCK naming the field. Spec, Inventory rules 5: "422 INSUFFICIENT_STOCK (would go below zero)" (spec-choices, A negative absolute set: 400 or 422).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const s = sub(req);
      const stock =
        (req.method === "PUT" && STOCK_SET.test(s ?? "")) || (req.method === "POST" && s === "/inventory/batch");
      if (!stock || res.status !== 400) return res;
      const e = errorOf(res);
      const negative = (f: { field: string; message: string }) =>
        /(^|\.)on_hand$/.test(f.field) && />= 0/.test(f.message);
      if (e?.code !== "VALIDATION_FAILED" || !e.fields?.length || !e.fields.every(negative)) return res;
      return mapResponseJson({ ...res, status: 422 }, () => ({
        error: { code: "INSUFFICIENT_STOCK", message: "on_hand would go below zero.", fields: e.fields },
      }));
    },
  },
  {
    name: "honest.fields-order",
    breaks:
      'Allowed: the fields entries of an error envelope in another order (reversed). Spec, Errors: "fields"?: [{field, message}] lists the field problems without an order.',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (sub(req) === null || res.status < 400) return res;
      const e = errorOf(res);
      if (!Array.isArray(e?.fields) || e.fields.length < 2) return res;
      return mapResponseJson(res, (b) => ({ ...b, error: { ...b.error, fields: [...b.error.fields].reverse() } }));
    },
  },
  {
    name: "honest.longer-retry-after",
    breaks:
      'Allowed: every 429 carries a Retry-After twice as long as the wait that is needed (still whole seconds; waiting that long works). Spec, Limits: "A 429 carries Retry-After (seconds)." says no more of its value.',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const after = res.headers["retry-after"];
      if (res.status !== 429 || after === undefined || !/^\d+$/.test(after)) return res;
      return { ...res, headers: { ...res.headers, "retry-after": String(Math.max(1, Number(after) * 2)) } };
    },
  },
  {
    name: "honest.ratelimit-syntax",
    breaks:
      'Allowed: RateLimit written with semicolons (limit=120;remaining=119;reset=60) and RateLimit-Policy in the IETF draft\'s named form ("default";q=120;w=60, "customers";q=30;w=60). Spec, Limits: "Every response carries RateLimit-Policy and RateLimit (fields limit, remaining, reset in seconds)." names the fields of RateLimit, not its syntax, and gives RateLimit-Policy no fields (spec-choices, RateLimit syntax: any text with limit=, remaining= and reset= numbers).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const headers = { ...res.headers };
      const limit = headers["ratelimit"];
      if (limit !== undefined)
        headers["ratelimit"] = [...limit.matchAll(/(\w+)=([^,;\s]+)/g)].map((m) => `${m[1]}=${m[2]}`).join(";");
      const policy = headers["ratelimit-policy"];
      if (policy !== undefined) headers["ratelimit-policy"] = namedPolicies(policy);
      return limit === undefined && policy === undefined ? res : { ...res, headers };
    },
  },
];
