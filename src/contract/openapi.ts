import type { TSchema } from "@sinclair/typebox";
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from "./errors.js";
import type { Operation } from "./operation.js";
import { pathParams } from "./path.js";
import { OPERATIONS } from "./operations/index.js";
import { SCOPE_TEXT } from "./scopes.js";
import { ErrorEnvelope } from "./schemas/common.js";
import { Tombstone } from "./schemas/catalog.js";

// The OpenAPI 3.1 document, built from the operations table and the TypeBox schemas; never by hand.

const TAG_TEXT: Record<string, string> = {
  Account: "The caller's identity, the store and its reference data (no particular scope).",
  Meta: "This description.",
  Products: "Products as whole documents, with their codes, tags, suppliers, variants and components.",
  Brands: "Brands products belong to.",
  Categories: "The category tree, with the system category Other Products and the reserved Gift Cards.",
  Tags: "Tags carried by products.",
  Suppliers: "Suppliers linked to products.",
  Inventory: "Stock levels per outlet: absolute sets, relative adjustments, batches and reasons.",
  Sales: "Sales and refunds, read only, polled with a cursor.",
  Customers: "Customers, their groups, and erasure of personal details.",
  OAuth: "The authorization code flow's token endpoint, at the API root.",
};

/** Codes every operation can answer (authentication, store state, limits, query validation, faults). */
const COMMON_ERRORS: readonly ErrorCode[] = [
  "UNAUTHORIZED",
  "VALIDATION_FAILED",
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

/**
 * TypeBox marks its schemas with symbols; the document carries plain JSON Schema only. `decimals: 3`
 * becomes the extension `x-decimals: 3`, not `multipleOf: 0.001`: common validators check multipleOf
 * in binary floating point and would refuse valid quantities such as 0.043 (docs/spec-choices.md).
 */
const plain = (schema: TSchema): unknown =>
  JSON.parse(JSON.stringify(schema), (_key, value) => {
    if (value && typeof value === "object" && !Array.isArray(value) && typeof value.decimals === "number") {
      const { decimals, ...rest } = value;
      return { ...rest, "x-decimals": decimals };
    }
    return value;
  });

const rateHeaders = {
  RateLimit: { $ref: "#/components/headers/RateLimit" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimitPolicy" },
};

function errorCodes(op: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>([...COMMON_ERRORS, ...op.errors]);
  if (op.scope !== null) codes.add("INSUFFICIENT_SCOPE");
  if (pathParams(op.path).length > 0) codes.add("NOT_FOUND");
  if (op.idempotency !== "none") {
    codes.add("IDEMPOTENCY_IN_PROGRESS");
    codes.add("IDEMPOTENCY_KEY_REUSED");
  }
  return ERROR_CODES.filter((c) => codes.has(c));
}

function successSchema(op: Operation): unknown {
  const item = !op.response
    ? {}
    : op.tombstones
      ? { anyOf: [plain(op.response), plain(Tombstone)] }
      : plain(op.response);
  switch (op.kind) {
    case "list":
      return {
        type: "object",
        required: ["data", "next_cursor", "has_more"],
        additionalProperties: false,
        properties: {
          data: { type: "array", items: item },
          next_cursor: { type: ["string", "null"] },
          has_more: { type: "boolean" },
        },
      };
    case "items":
      return {
        type: "object",
        required: ["data"],
        additionalProperties: false,
        properties: { data: { type: "array", items: item } },
      };
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
    parameters.push({
      name,
      in: "query",
      required: (op.query.required ?? []).includes(name),
      schema: plain(schema as TSchema),
    });
  }
  if (op.idempotency !== "none") {
    parameters.push({
      $ref: `#/components/parameters/IdempotencyKey${op.idempotency === "required" ? "Required" : "Optional"}`,
    });
  }
  const successHeaders =
    op.idempotency === "none"
      ? rateHeaders
      : { ...rateHeaders, "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" } };
  const responses: Record<string, unknown> = {
    [String(op.successStatus)]:
      op.kind === "empty"
        ? { description: "Done; no body.", headers: successHeaders }
        : {
            description: "Success.",
            headers: successHeaders,
            content: { "application/json": { schema: successSchema(op) } },
          },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes(op))
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    // The envelope, narrowed to the codes this operation answers with this status.
    const schema = {
      allOf: [
        { $ref: "#/components/schemas/ErrorEnvelope" },
        { type: "object", properties: { error: { type: "object", properties: { code: { enum: codes } } } } },
      ],
    };
    responses[String(status)] = {
      description: `Error: ${codes.join(", ")}.`,
      headers:
        status === 429 ? { ...rateHeaders, "Retry-After": { $ref: "#/components/headers/RetryAfter" } } : rateHeaders,
      content: { "application/json": { schema } },
    };
  }
  const scopes = op.scope === null ? [] : [op.scope];
  return {
    operationId: op.id,
    summary: op.summary,
    description: op.description,
    tags: [op.tag],
    security: [{ apiKey: scopes }, { oauth2: scopes }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body
      ? { requestBody: { required: true, content: { "application/json": { schema: plain(op.body) } } } }
      : {}),
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
  paths[TOKEN_PATH] = tokenPath(apiRoot);
  const doc = {
    openapi: "3.1.0",
    info: {
      title: "Retail Back-Office Public API",
      version: "1.0.0",
      description: "Served by retail-sim, a simulator of the Retail Back-Office Public API v1.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: serverUrl }],
    tags: [...new Set([...OPERATIONS.map((o) => o.tag), "OAuth"])].map((name) => ({
      name,
      description: TAG_TEXT[name] ?? name,
    })),
    paths,
    components: {
      schemas: { ErrorEnvelope: plain(ErrorEnvelope), OAuthError: OAUTH_ERROR, TokenResponse: TOKEN_RESPONSE },
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
        RateLimit: {
          description: "limit, remaining and reset (seconds) of the nearest limit.",
          schema: { type: "string" },
        },
        RateLimitPolicy: {
          description: "The limits that apply, as `limit;w=window-seconds`.",
          schema: { type: "string" },
        },
        RetryAfter: { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 0 } },
        IdempotentReplayed: {
          description: "`true` on a replayed response.",
          schema: { type: "string", enum: ["true"] },
        },
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

/** The token endpoint lives outside the store prefix: `{api_root}/oauth/token`, described with its own server. */
export const TOKEN_PATH = "/oauth/token";

const OAUTH_ERROR = {
  type: "object",
  required: ["error", "error_description"],
  additionalProperties: false,
  properties: {
    error: { type: "string", enum: ["invalid_request", "invalid_client", "invalid_grant", "unsupported_grant_type"] },
    error_description: { type: "string" },
  },
};

const TOKEN_RESPONSE = {
  type: "object",
  required: ["access_token", "refresh_token", "token_type", "expires_in", "scope", "store_name", "api_base_url"],
  additionalProperties: false,
  properties: {
    access_token: { type: "string" },
    refresh_token: { type: "string" },
    token_type: { type: "string", enum: ["Bearer"] },
    expires_in: { type: "integer", enum: [3600] },
    scope: { type: "string", description: "Granted scopes, space separated." },
    store_name: { type: "string" },
    api_base_url: { type: "string", format: "uri" },
  },
};

function tokenPath(apiRoot: string): Record<string, unknown> {
  const oauthError = (description: string) => ({
    description,
    content: { "application/json": { schema: { $ref: "#/components/schemas/OAuthError" } } },
  });
  return {
    servers: [{ url: apiRoot, description: "The API root: the token endpoint has no store prefix." }],
    post: {
      operationId: "createToken",
      summary: "Exchange an authorization code or a refresh token for an access token",
      tags: ["OAuth"],
      security: [],
      requestBody: {
        required: true,
        content: {
          "application/x-www-form-urlencoded": {
            schema: {
              type: "object",
              required: ["grant_type"],
              properties: {
                grant_type: { type: "string", enum: ["authorization_code", "refresh_token"] },
                code: { type: "string" },
                redirect_uri: { type: "string" },
                code_verifier: { type: "string", description: "When the authorization used PKCE (S256)." },
                refresh_token: { type: "string" },
                client_id: {
                  type: "string",
                  description: "With client_secret, unless HTTP Basic is used (never both).",
                },
                client_secret: { type: "string" },
              },
            },
          },
        },
      },
      responses: {
        "200": {
          description: "Tokens. The refresh token does not rotate.",
          content: { "application/json": { schema: { $ref: "#/components/schemas/TokenResponse" } } },
        },
        "400": oauthError("invalid_request, invalid_grant or unsupported_grant_type."),
        "401": oauthError("invalid_client: bad client credentials."),
        "405": oauthError("invalid_request: use POST."),
        "429": oauthError("invalid_request: too many failures from this address (30 per 5 minutes)."),
      },
    },
  };
}
