import type { Mutant } from "../base.js";
import { errorCode, errorLike, json, on, re, sub, withJson } from "./util.js";

// Blind mutants of the cross-cutting rules: the error envelope, timestamps, statuses, headers.

const UTC_MS = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?)Z$/;

export const envelopeMutants: readonly Mutant[] = [
  {
    name: "blind.not-found-without-message",
    breaks:
      'Errors: "Every failure other than the token endpoint returns {"error": {"code": string, "message": string, "fields"?: [{field, message}]}}." (404 answers carry only the code)',
    caughtBy: ["envelope.unknown-path", "envelope.non-uuid-id"],
    // A NotFound exception serialized by a different handler that forgot the message.
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (sub(req) === null || res.status !== 404 || errorCode(res) !== "NOT_FOUND") return res;
      return withJson(res, { error: { code: "NOT_FOUND" } });
    },
  },
  {
    name: "blind.empty-fields-on-every-error",
    breaks: 'Errors: "fields appears only for field-specific problems" (every error carries fields: [])',
    caughtBy: ["envelope.unknown-path", "envelope.non-uuid-id", "auth.missing-credential"],
    // The error serializer always emits the array.
    wrap: (next) => async (req) => {
      const res = await next(req);
      const b = json(res);
      if (sub(req) === null || res.status < 400 || !b?.error || b.error.fields !== undefined) return res;
      return withJson(res, { ...b, error: { ...b.error, fields: [] } });
    },
  },
  {
    name: "blind.customer-timestamps-with-offset",
    breaks:
      'What the service does 5: "Timestamps are ISO 8601 date-times in UTC and end in Z." (customer rows end in +00:00)',
    caughtBy: ["customers.create-fields"],
    // The customers module formats dates with a different library.
    wrap: (next) => async (req) => {
      const res = await next(req);
      const s = sub(req);
      if (s === null || !s.startsWith("/customers") || res.status >= 300) return res;
      const b = json(res);
      if (!b) return res;
      const fix = (row: any) => {
        if (!row || typeof row !== "object") return row;
        const out = { ...row };
        for (const k of ["created_at", "updated_at", "deleted_at"]) {
          const m = typeof out[k] === "string" ? UTC_MS.exec(out[k]) : null;
          if (m) out[k] = `${m[1]}+00:00`;
        }
        return out;
      };
      return withJson(res, { ...b, data: Array.isArray(b.data) ? b.data.map(fix) : fix(b.data) });
    },
  },
  {
    name: "blind.non-uuid-product-id-500",
    breaks:
      'Errors: "NOT_FOUND | 404 | missing, deleted, other store\'s, non-UUID id, or unknown path" (a non-UUID product id crashes the database driver: 500 INTERNAL)',
    caughtBy: ["envelope.non-uuid-id"],
    wrap: (next) => async (req) => {
      const m = /^\/products\/([^/]+)(?:\/.*)?$/.exec(sub(req) ?? "");
      const res = await next(req);
      if (!m || res.status !== 404) return res;
      const id = decodeURIComponent(m[1] ?? "");
      if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return res;
      return errorLike(res, 500, "INTERNAL", "invalid input syntax for type uuid");
    },
  },
  {
    name: "blind.product-delete-conflict-plain-text",
    breaks:
      'What the service does 5: "All requests and responses are JSON." (a refused product delete answers text/plain)',
    caughtBy: ["catalog.product-delete-refusals"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "DELETE", re("/products/:id")) || res.status !== 409) return res;
      return {
        ...res,
        headers: { ...res.headers, "content-type": "text/plain; charset=utf-8" },
        body: `Conflict: ${json(res)?.error?.message ?? "cannot delete"}`,
      };
    },
  },
  {
    name: "blind.no-rate-limit-headers-on-404",
    breaks:
      'Limits: "Every response carries RateLimit-Policy and RateLimit" (404 answers come from a router that skips the limiter middleware)',
    caughtBy: ["limits.headers", "envelope.unknown-path"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (sub(req) === null || res.status !== 404) return res;
      const headers = { ...res.headers };
      delete headers["ratelimit"];
      delete headers["ratelimit-policy"];
      return { ...res, headers };
    },
  },
  {
    name: "blind.stale-version-412",
    breaks: 'Errors: "STALE_VERSION | 409 | version or expected_version outdated" (answered 412 Precondition Failed)',
    caughtBy: ["catalog.stale-version"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return errorCode(res) === "STALE_VERSION" && res.status === 409 ? { ...res, status: 412 } : res;
    },
  },
];
