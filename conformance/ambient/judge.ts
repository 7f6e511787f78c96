import { ERROR_STATUS, isErrorCode } from "../../src/contract/errors.js";
import { operationOf } from "./contract.js";
import type { Divergence } from "../model/oracle.js";

// Ambient checks: every exchange of a run is judged against the contract, whatever rule sent it. A
// rule looks at what it is about; these look at everything else a response must be (spec, Errors,
// Limits, Resources, and rules 2, 5 and 7 of "What the service does"), so a bug nobody wrote a rule
// for still fails the run, named by the check that saw it.

export type AmbientCheck =
  | "ambient.server-error"
  | "ambient.status"
  | "ambient.content-type"
  | "ambient.json"
  | "ambient.schema"
  | "ambient.error-code"
  | "ambient.fields"
  | "ambient.rate-headers"
  | "ambient.retry-after"
  | "ambient.replay"
  | "ambient.model";

export interface AmbientViolation {
  readonly check: AmbientCheck;
  /** The spec sentence the check stands for. */
  readonly quote: string;
  readonly expected: string;
  readonly observed: string;
  /** What failures of the same problem share, when `expected` carries values that differ between them. */
  readonly cause?: string;
}

export const AMBIENT_QUOTES: Record<AmbientCheck, string> = {
  "ambient.server-error": "INTERNAL | 500 | server fault; retry after a short delay",
  "ambient.status": "code is one of the values below (Errors); the statuses each operation can answer",
  "ambient.content-type": "All requests and responses are JSON.",
  "ambient.json": "All requests and responses are JSON.",
  "ambient.schema":
    "All listed fields are always present in a read; nullable ones are marked. Money is always an integer number of minor units (cents). Timestamps are ISO 8601 date-times in UTC and end in Z. Ids are UUID strings.",
  "ambient.error-code":
    'Every failure other than the token endpoint returns {"error": {"code": string, "message": string, "fields"?: [{field, message}]}}. code is one of the values below.',
  "ambient.fields": "fields appears only for field-specific problems",
  "ambient.rate-headers":
    "Every response carries RateLimit-Policy and RateLimit (fields limit, remaining, reset in seconds).",
  "ambient.retry-after": "A 429 carries Retry-After (seconds).",
  "ambient.replay":
    "A retry with the same key and same body returns the same status and data with header Idempotent-Replayed: true.",
  "ambient.model":
    "Every sentence is a rule: the model (the simulator in lockstep) predicts each answer the spec fixes.",
};

/** A divergence from the model as an ambient violation: what differs, where, and the spec sentence behind it. */
export function modelViolation(d: Divergence): AmbientViolation {
  return {
    check: "ambient.model",
    quote: `${d.spec.section}: ${d.spec.quote}`,
    expected: `${d.operation}: ${d.what}: ${d.predicted} (the model's prediction)`,
    observed: d.observed,
    // A header the target gets wrong is one problem on every route; a body's field is one per operation.
    cause: /^[A-Z][A-Za-z-]*$/.test(d.what)
      ? `ambient.model: the ${d.what} header`
      : `ambient.model: ${d.operation}: ${d.what.replace(/\[\d+\]/g, "[]")}`,
  };
}

export interface JudgedExchange {
  readonly method: string;
  readonly url: string;
  /** The target's `{api_root}`: paths are read under it. */
  readonly apiRoot: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A JSON object (shapes.ts has the readers' own; the judge does not import them: shapes.ts reads through outcomes.ts). */
const isObject = (v: unknown): v is { readonly [key: string]: unknown } =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Statuses any route can answer: authentication, store state, an unknown path or method, limits, a server fault. */
const ANY_ROUTE = new Set([401, 402, 403, 404, 405, 429, 500]);
/** Error codes that are never about a field of the request (spec, Errors: "fields appears only for field-specific problems"). */
const NEVER_FIELDS = new Set([
  "UNAUTHORIZED",
  "INSUFFICIENT_SCOPE",
  "PLAN_REQUIRED",
  "PLAN_USERS_EXCEEDED",
  "PRODUCT_LIMIT_REACHED",
  "RETAILER_PAUSED",
  "TRIAL_DECISION_REQUIRED",
  "RETAILER_CANCELLED",
  "RETAILER_SUSPENDED",
  "RETAILER_NOT_FOUND",
  "NOT_FOUND",
  "STALE_VERSION",
  "IDEMPOTENCY_IN_PROGRESS",
  "IDEMPOTENCY_KEY_REUSED",
  "RATE_LIMITED",
  "INTERNAL",
  "IMAGE_FETCH_FAILED",
]);
const CLIP = 160;
const clip = (text: string) => (text.length > CLIP ? `${text.slice(0, CLIP)}…` : text);

/** A field of the RateLimit header, whatever the syntax around `name=value`. */
export function rateField(header: string, name: string): number | undefined {
  const m = new RegExp(`(?:^|[\\s,;])${name}\\s*=\\s*"?(\\d+)`, "i").exec(header);
  return m ? Number(m[1]) : undefined;
}

function v(check: AmbientCheck, expected: string, observed: string): AmbientViolation {
  return { check, quote: AMBIENT_QUOTES[check], expected, observed };
}

/** What is wrong with one response, by the contract; empty when nothing is. Paths outside the API are not judged. */
export function judge(e: JudgedExchange): AmbientViolation[] {
  let path: string;
  try {
    path = new URL(e.url).pathname;
  } catch {
    return [];
  }
  const op = operationOf(e.method.toUpperCase(), e.url, e.apiRoot);
  if (op === undefined) return [];
  const name = op === "unknown" ? `${e.method} ${path} (no such operation)` : op.name;
  const where = `${name} answered ${e.status}`;
  const out: AmbientViolation[] = [];

  // A server fault (any 5xx, a gateway's HTML page included) is the cause, whatever else the answer
  // lacks: its missing headers or envelope are symptoms, not problems of their own.
  if (e.status >= 500) {
    const page = /^text\/html\b/i.test(e.headers["content-type"] ?? "")
      ? " (an HTML page: a gateway or proxy answered)"
      : "";
    return [
      {
        ...v("ambient.server-error", "an answer, not a server fault", `${where}${page}`),
        cause: `a server fault: ${e.status}${page}`,
      },
    ];
  }
  // An HTML page where the API answers JSON: a proxy's or framework's error page, one cause whatever the route.
  if (/^text\/html\b/i.test(e.headers["content-type"] ?? ""))
    return [
      {
        ...v("ambient.content-type", "the API's JSON", `${where} with an HTML page`),
        cause: `an HTML page instead of the API's JSON (status ${e.status})`,
      },
    ];

  // Limits: the rate-limit headers on every response, and Retry-After on a 429.
  const policy = e.headers["ratelimit-policy"];
  const rate = e.headers["ratelimit"];
  if (!policy || !rate)
    out.push(
      v(
        "ambient.rate-headers",
        "RateLimit-Policy and RateLimit headers",
        `${where} without ${!policy ? "RateLimit-Policy" : "RateLimit"}`,
      ),
    );
  else {
    const [limit, remaining, reset] = ["limit", "remaining", "reset"].map((n) => rateField(rate, n));
    if (limit === undefined || remaining === undefined || reset === undefined)
      out.push(
        v(
          "ambient.rate-headers",
          "RateLimit with limit, remaining and reset",
          `${where} with RateLimit: ${clip(rate)}`,
        ),
      );
    else if (remaining > limit)
      out.push(v("ambient.rate-headers", "remaining at most limit", `${where} with RateLimit: ${clip(rate)}`));
    else {
      // `reset` is in seconds: never more than the longest window the policy announces.
      const windows = [...policy.matchAll(/;\s*w\s*=\s*(\d+)/gi)].map((m) => Number(m[1]));
      const longest = Math.max(...windows);
      if (windows.length > 0 && reset > longest)
        out.push(
          v(
            "ambient.rate-headers",
            `reset in seconds, at most the policy's window (${longest} s)`,
            `${where} with RateLimit: ${clip(rate)} and RateLimit-Policy: ${clip(policy)}`,
          ),
        );
    }
  }
  if (e.status === 429) {
    const after = e.headers["retry-after"];
    if (after === undefined || !/^\s*\d+\s*$/.test(after))
      out.push(
        v(
          "ambient.retry-after",
          "a 429 with Retry-After in whole seconds",
          `${where} with Retry-After: ${after ?? "(none)"}`,
        ),
      );
  }

  // The status: one the operation can give.
  const known = op !== "unknown";
  const allowed = known
    ? op.statuses.has(e.status) ||
      ANY_ROUTE.has(e.status) ||
      (e.status >= 200 && e.status < 300 && [200, 201].includes(e.status) && [200, 201].includes(op.success))
    : ANY_ROUTE.has(e.status) || e.status === 400;
  if (!allowed)
    out.push(
      v(
        "ambient.status",
        `a status ${known ? op.name : "an unknown path"} can answer (${known ? [...op.statuses.keys()].join(", ") : "404"})`,
        `${where}`,
      ),
    );

  // The body: JSON, with a JSON content type; none on a 204.
  if (e.status === 204) {
    if (e.body !== "") out.push(v("ambient.json", "a 204 without a body", `${where} with ${clip(e.body)}`));
    return out;
  }
  const type = e.headers["content-type"] ?? "";
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(type))
    out.push(
      v("ambient.content-type", "Content-Type: application/json", `${where} with Content-Type: ${type || "(none)"}`),
    );
  let body: unknown;
  try {
    body = JSON.parse(e.body);
  } catch {
    out.push(v("ambient.json", "a JSON body", `${where} with ${e.body === "" ? "an empty body" : clip(e.body)}`));
    return out;
  }
  if (known && op.document && e.status === 200) return out;

  // Errors: the envelope, a code of the catalog with its status, fields only for field problems.
  if (e.status >= 400 && !(known && op.token)) {
    const err = isObject(body) ? body.error : undefined;
    if (!isObject(err) || typeof err.code !== "string" || typeof err.message !== "string") {
      out.push(
        v(
          "ambient.error-code",
          "the error envelope {error: {code, message, fields?}}",
          `${where} with ${clip(e.body)}`,
        ),
      );
      return out;
    }
    if (!isErrorCode(err.code))
      out.push(
        v(
          "ambient.error-code",
          "a code of the spec's Errors table",
          `${where} with code ${clip(JSON.stringify(err.code))}`,
        ),
      );
    // The catalog has no code for 405 (spec-choices: a wrong method may answer 404 or 405): any of its codes goes.
    else if (e.status !== 405 && (ERROR_STATUS as Record<string, number>)[err.code] !== e.status)
      out.push(
        v(
          "ambient.error-code",
          `${err.code} with status ${(ERROR_STATUS as Record<string, number>)[err.code]}`,
          `${where} with code ${err.code}`,
        ),
      );
    if (err.fields !== undefined) {
      const wellFormed =
        Array.isArray(err.fields) &&
        err.fields.length > 0 &&
        err.fields.every((f: unknown) => isObject(f) && typeof f.field === "string" && typeof f.message === "string");
      if (!wellFormed)
        out.push(
          v(
            "ambient.fields",
            "fields, when present, a non-empty list of {field, message}",
            `${where} with fields ${clip(JSON.stringify(err.fields))}`,
          ),
        );
      else if (NEVER_FIELDS.has(err.code))
        out.push(
          v(
            "ambient.fields",
            `no fields on ${err.code}, which is not a field-specific problem`,
            `${where} with fields ${clip(JSON.stringify(err.fields))}`,
          ),
        );
    }
  }

  // The schema of the body for this status (relaxed where the spec is silent).
  if (known) {
    const validate =
      op.statuses.get(e.status) ?? (e.status >= 200 && e.status < 300 ? op.statuses.get(op.success) : undefined);
    if (validate && !validate(body)) {
      const errors = (validate.errors ?? [])
        .slice(0, 3)
        .map(
          (x) =>
            `${x.instancePath || "(body)"} ${x.message}${x.params && "missingProperty" in x.params ? ` ${x.params.missingProperty}` : ""}`,
        );
      // One problem (a timestamp format, a field missing) is one cause, whichever operations show it.
      const first = validate.errors?.[0];
      out.push({
        ...v("ambient.schema", `the body the spec gives ${op.name} for ${e.status}`, `${where}: ${errors.join("; ")}`),
        ...(first
          ? {
              cause: `ambient.schema: ${first.instancePath ? "a field" : "the body"} ${first.message ?? "does not fit the spec"}`,
            }
          : {}),
      });
    }
  }
  return out;
}
