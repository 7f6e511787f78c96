import type { TSchema } from "@sinclair/typebox";
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from "./errors.js";
import type { Operation } from "./operation.js";
import { pathParams } from "./operation.js";
import { OPERATIONS } from "./operations/index.js";
import { SCOPES } from "./scopes.js";
import { ErrorEnvelope } from "./schemas/common.js";

// The OpenAPI 3.1 document, built from the operations table and the TypeBox schemas; never by hand.

const SCOPE_TEXT: Record<(typeof SCOPES)[number], string> = {
  "catalog:read": "View products, prices, categories, brands, tags, suppliers",
  "catalog:write": "Create, update, delete those",
  "inventory:read": "View stock levels",
  "inventory:write": "Adjust stock",
  "customers:read": "View customers",
  "customers:write": "Create and update customers, and permanently erase personal details",
  "sales:read": "View sales and refunds",
};

/** Codes every authenticated operation can answer (authentication, store state, limits, faults). */
const COMMON_ERRORS: readonly ErrorCode[] = [
  "UNAUTHORIZED",
  "PLAN_REQUIRED",
  "PLAN_USERS_EXCEEDED",
  "RETAILER_PAUSED",
  "TRIAL_DECISION_REQUIRED",
  "RETAILER_CANCELLED",
  "RETAILER_SUSPENDED",
  "RETAILER_NOT_FOUND",
  "RATE_LIMITED",
  "INTERNAL",
];

/** TypeBox marks its schemas with symbols; the document carries plain JSON Schema only. */
const plain = (schema: TSchema): unknown => JSON.parse(JSON.stringify(schema));

const rateHeaders = {
  RateLimit: { $ref: "#/components/headers/RateLimit" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimitPolicy" },
};

function errorCodes(op: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>([...COMMON_ERRORS, ...op.errors]);
  if (op.scope !== null) codes.add("INSUFFICIENT_SCOPE");
  if (Object.keys(op.query.properties).length > 0 || op.body || op.idempotency !== "none") codes.add("VALIDATION_FAILED");
  if (pathParams(op.path).length > 0) codes.add("NOT_FOUND");
  if (op.idempotency !== "none") {
    codes.add("IDEMPOTENCY_IN_PROGRESS");
    codes.add("IDEMPOTENCY_KEY_REUSED");
  }
  return ERROR_CODES.filter((c) => codes.has(c));
}

function successSchema(op: Operation): unknown {
  const item = op.response ? plain(op.response) : {};
  switch (op.kind) {
    case "list":
      return {
        type: "object",
        required: ["data", "next_cursor", "has_more"],
        additionalProperties: false,
        properties: { data: { type: "array", items: item }, next_cursor: { type: ["string", "null"] }, has_more: { type: "boolean" } },
      };
    case "items":
      return { type: "object", required: ["data"], additionalProperties: false, properties: { data: { type: "array", items: item } } };
    case "document":
      return { type: "object" };
    default:
      return { type: "object", required: ["data"], additionalProperties: false, properties: { data: item } };
  }
}

function operationObject(op: Operation): Record<string, unknown> {
  const parameters: unknown[] = pathParams(op.path).map((name) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string", format: "uuid" },
  }));
  for (const [name, schema] of Object.entries(op.query.properties)) {
    parameters.push({ name, in: "query", required: (op.query.required ?? []).includes(name), schema: plain(schema as TSchema) });
  }
  if (op.idempotency !== "none") {
    parameters.push({ $ref: `#/components/parameters/IdempotencyKey${op.idempotency === "required" ? "Required" : "Optional"}` });
  }
  const successHeaders = op.idempotency === "none" ? rateHeaders : { ...rateHeaders, "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" } };
  const responses: Record<string, unknown> = {
    [String(op.successStatus)]:
      op.kind === "empty"
        ? { description: "Done; no body.", headers: successHeaders }
        : { description: "Success.", headers: successHeaders, content: { "application/json": { schema: successSchema(op) } } },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes(op)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    responses[String(status)] = {
      description: `Error: ${codes.join(", ")}.`,
      headers: status === 429 ? { ...rateHeaders, "Retry-After": { $ref: "#/components/headers/RetryAfter" } } : rateHeaders,
      content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } },
    };
  }
  const scopes = op.scope === null ? [] : [op.scope];
  return {
    operationId: op.id,
    summary: op.summary,
    ...(op.note ? { description: op.note } : {}),
    tags: [op.tag],
    security: [{ apiKey: scopes }, { oauth2: scopes }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: plain(op.body) } } } } : {}),
    responses,
  };
}

const cache = new Map<string, unknown>();

/** The document for one store: `serverUrl` is its `{base_url}`; OAuth URLs hang off the API root. */
export function buildOpenApi(serverUrl: string): unknown {
  const cached = cache.get(serverUrl);
  if (cached) return cached;
  const apiRoot = serverUrl.replace(/\/[^/]+\/v1$/, "");
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op);
  const doc = {
    openapi: "3.1.0",
    info: {
      title: "Retail Back-Office Public API",
      version: "1.0.0",
      description: "Served by retail-sim, a simulator of the Retail Back-Office Public API v1.",
    },
    servers: [{ url: serverUrl }],
    tags: [...new Set(OPERATIONS.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { ErrorEnvelope: plain(ErrorEnvelope) },
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "An API key created by a store admin." },
        oauth2: {
          type: "oauth2",
          flows: {
            authorizationCode: {
              authorizationUrl: `${apiRoot}/oauth/authorize`,
              tokenUrl: `${apiRoot}/oauth/token`,
              refreshUrl: `${apiRoot}/oauth/token`,
              scopes: SCOPE_TEXT,
            },
          },
        },
      },
      parameters: {
        IdempotencyKeyRequired: idempotencyParameter(true),
        IdempotencyKeyOptional: idempotencyParameter(false),
      },
      headers: {
        RateLimit: { description: "limit, remaining and reset (seconds) of the nearest limit.", schema: { type: "string" } },
        RateLimitPolicy: { description: "The limits that apply, as `limit;w=window-seconds`.", schema: { type: "string" } },
        RetryAfter: { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 0 } },
        IdempotentReplayed: { description: "`true` on a replayed response.", schema: { type: "string", enum: ["true"] } },
      },
    },
  };
  if (cache.size > 32) cache.clear();
  cache.set(serverUrl, doc);
  return doc;
}

function idempotencyParameter(required: boolean): unknown {
  return {
    name: "Idempotency-Key",
    in: "header",
    required,
    description: "1 to 255 printable characters without spaces; remembered 24 hours per credential.",
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]+$" },
  };
}
