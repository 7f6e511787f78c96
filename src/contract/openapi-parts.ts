// Pieces both OpenAPI documents share: the rate-limit and idempotency headers, and the contact.

/** Spec, Limits: every response carries these two. */
export const RATE_HEADERS = {
  RateLimit: { $ref: "#/components/headers/RateLimit" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimitPolicy" },
};

export const RETRY_AFTER = { "Retry-After": { $ref: "#/components/headers/RetryAfter" } };

export const HEADERS = {
  RateLimit: {
    description:
      "The nearest limit: `limit`, `remaining` and `reset` (seconds), e.g. `limit=120, remaining=119, reset=60`.",
    required: true,
    schema: { type: "string" },
  },
  RateLimitPolicy: {
    description: "The limits that apply, as `limit;w=window-seconds`, e.g. `120;w=60`.",
    required: true,
    schema: { type: "string" },
  },
  RetryAfter: {
    description: "Seconds to wait before retrying (spec, Limits: every 429 carries it).",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  IdempotentReplayed: {
    description:
      "`true` when the answer is the stored answer of an earlier request with the same `Idempotency-Key` " +
      "(its status, body and all), success or error alike.",
    schema: { type: "string", enum: ["true"] },
  },
};

export const INFO = {
  title: "Retail Back-Office Public API",
  version: "1.0.0",
  license: { name: "MIT", identifier: "MIT" },
  contact: {
    name: "retail-sim, the simulator serving this document (see its README for the control plane under /_sim)",
  },
};
