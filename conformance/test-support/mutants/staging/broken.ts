import type { SimRequest, SimResponse } from "../../../../src/http/types.js";
import { createRng } from "../../../../src/kernel/random.js";
import { type Mutant, mapJson } from "../base.js";
import { MUTANTS } from "../index.js";
import { apiError, sideRequest } from "../support.js";

// The stand-in's broken servers: each breaks one sentence of the spec on every answer it concerns, and
// is otherwise the correct stand-in. Each wraps the simulator's handler behind the front, so the
// defect holds over HTTP.

export const BROKEN_VARIANTS = ["offset-timestamps", "replay-header-dropped", "writes-500"] as const;
export type BrokenVariant = (typeof BROKEN_VARIANTS)[number];

type Handler = (req: SimRequest) => Promise<SimResponse>;

export interface BrokenOptions {
  readonly seed: number;
  /** `writes-500`: one write in this many fails. */
  readonly failEvery: number;
  /** Called for each write `writes-500` fails. */
  readonly failed?: () => void;
}

/** An API path: `/{store_prefix}/v1/...`. */
const API = /^\/[^/]+\/v1\//;
const UTC = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?Z$/;
const HOUR = 3_600_000;

/** The same instant written at +01:00: `2026-11-28T05:00:00.000Z` is `2026-11-28T06:00:00.000+01:00`. */
export function atPlusOne(text: string): string {
  const m = UTC.exec(text);
  if (!m) return text;
  const local = new Date(Date.parse(text) + HOUR).toISOString().slice(0, 19);
  return `${local}${m[2] ?? ""}+01:00`;
}

/** Every UTC date-time string in a JSON value, written at +01:00. */
function offsetAll(value: unknown): unknown {
  if (typeof value === "string") return atPlusOne(value);
  if (Array.isArray(value)) return value.map(offsetAll);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, offsetAll(v)]));
  return value;
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function brokenWrap(variant: BrokenVariant, options: BrokenOptions): (next: Handler) => Handler {
  switch (variant) {
    // Spec, What the service does 5: "Timestamps are ISO 8601 date-times in UTC and end in Z." This one
    // writes every timestamp of an API answer as the same instant at +01:00 (the OpenAPI document,
    // a description rather than data, is left as it is).
    case "offset-timestamps":
      return (next) => async (req) => {
        const res = await next(req);
        if (!API.test(req.path) || req.path.endsWith("/openapi.json")) return res;
        const { "content-length": _length, ...headers } = res.headers;
        return mapJson({ ...res, headers }, offsetAll);
      };
    // Spec, Limits (Idempotency): "A retry with the same key and same body returns the same status and
    // data with header Idempotent-Replayed: true." This one answers replays without the header; the
    // targeted mutant of the same defect.
    case "replay-header-dropped": {
      const mutant = MUTANTS.find((m) => m.name === "no-replay-header") as Mutant;
      return mutant.wrap;
    }
    // Spec, Errors: "INTERNAL | 500 | server fault; retry after a short delay", and Limits (Idempotency):
    // "A 500 is not remembered." This one fails one write of the API in `failEvery` (which ones: by the
    // write's number and the seed) with 500 INTERNAL in the error envelope, BEFORE the simulator carries
    // it out: nothing is written and no idempotency record is kept, so a retry carries it out. The
    // failure still counts against the caller's rate limit and carries its RateLimit headers (spec,
    // Limits: "Every response carries RateLimit-Policy and RateLimit"): they come from a GET /me of the
    // same caller made in the write's place; a caller /me refuses (401, 429) gets that refusal instead.
    case "writes-500": {
      const every = Math.max(1, Math.floor(options.failEvery));
      const phase = createRng(options.seed, "writes-500").int(0, every - 1);
      let writes = 0;
      return (next) => async (req) => {
        if (!WRITES.has(req.method) || !API.test(req.path)) return next(req);
        const n = writes++;
        if ((n + phase) % every !== every - 1) return next(req);
        const me = await next(sideRequest(req, "GET", `${/^\/[^/]+\/v1/.exec(req.path)?.[0]}/me`));
        if (me.status !== 200) return me;
        options.failed?.();
        return apiError(me, 500, "INTERNAL", "The server failed; retry after a short delay.");
      };
    }
  }
}
