import type { TSchema } from "@sinclair/typebox";
import { ERROR_STATUS, type ErrorCode } from "./errors.js";
import { errorCodes } from "./operation-errors.js";
import type { Operation } from "./operation.js";
import { exampleField, type OperationExamples, operationExamples, withExamples } from "./openapi-examples.js";
import { HEADERS, INFO, RATE_HEADERS, RETRY_AFTER } from "./openapi-parts.js";
import { Components } from "./openapi-schemas.js";
import { OAUTH_DOCUMENT_PATH, pathParams } from "./path.js";
import { OPERATIONS } from "./operations/index.js";
import { SCOPE_TEXT } from "./scopes.js";
import { componentName } from "./schemas/component.js";
import { ErrorDetail, ErrorEnvelope } from "./schemas/common.js";
import { Tombstone } from "./schemas/catalog.js";

// The OpenAPI 3.1 document of a store's API, built from the operations table and the TypeBox schemas;
// never by hand. Every resource, sub-record, body, page and error is a named component. The token
// endpoint has its own document (openapi-oauth.ts), since generators ignore a path's own servers.

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
};

// Kept in path.ts and operation-errors.ts, where the server reads them without loading this builder.
export { errorCodes, OAUTH_DOCUMENT_PATH };

function named(schema: TSchema, what: string): string {
  const name = componentName(schema);
  if (name === undefined) throw new Error(`${what} has no component name: declare it with component()`);
  return name;
}

/** The success body: the operation's envelope around its named resource, itself a named component. */
function successSchema(op: Operation, components: Components): unknown {
  if (op.kind === "document") return { type: "object", description: "This OpenAPI document." };
  const response = op.response;
  if (!response) throw new Error(`${op.id} answers a body without a response schema`);
  const name = named(response, `${op.id}'s response`);
  const item = op.tombstones
    ? {
        oneOf: [components.schema(response), components.schema(Tombstone)],
        description: `A live ${name}; only with include_deleted=true, a Tombstone for a deleted one. Only a Tombstone has \`deleted_at\`: \`row.deleted_at != null\` tells them apart, and narrows a generated \`${name} | Tombstone\`.`,
      }
    : components.schema(response);
  switch (op.kind) {
    case "list":
      return components.define(`${name}Page`, {
        type: "object",
        description: `A page of ${name} rows (spec, Pagination and polling).`,
        required: ["data", "next_cursor", "has_more"],
        additionalProperties: false,
        properties: {
          data: { type: "array", items: item },
          next_cursor: {
            type: ["string", "null"],
            description: "Send it as `cursor` for the next page; kept on an empty polling page.",
          },
          has_more: { type: "boolean" },
        },
      });
    case "items":
      return components.define(`${name}List`, {
        type: "object",
        required: ["data"],
        additionalProperties: false,
        properties: { data: { type: "array", items: item } },
      });
    default:
      return components.define(`${name}Envelope`, {
        type: "object",
        required: ["data"],
        additionalProperties: false,
        properties: { data: item },
      });
  }
}

/**
 * Spec, Product write rules 7: a write saved despite an error answers the error with the saved resource
 * in `data`, its own named component (for example ProductImageFetchFailed).
 */
function savedDespiteSchema(op: Operation, components: Components): unknown {
  const saved = op.savedDespite;
  if (!saved || !op.response) return undefined;
  const code = saved.code
    .toLowerCase()
    .replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())
    .replace(/^./, (c) => c.toUpperCase());
  return components.define(`${named(op.response, op.id)}${code}`, {
    type: "object",
    description: `${saved.code}: ${saved.message} \`data\` is the saved document.`,
    required: ["error", "data"],
    additionalProperties: false,
    properties: { error: components.schema(ErrorDetail), data: components.schema(op.response) },
  });
}

function parameters(op: Operation, components: Components, examples: OperationExamples): unknown[] {
  const list: unknown[] = pathParams(op.path).map((name) => ({
    name,
    in: "path",
    required: true,
    description: name === "id" ? "The resource's id." : `The ${name.replace(/_id$/, "")}'s id.`,
    schema: { type: "string", format: "uuid" },
    ...exampleField(examples.parameter("path", name)),
  }));
  for (const [name, schema] of Object.entries(op.query.properties)) {
    const json = components.schema(schema as TSchema) as { description?: string };
    list.push({
      name,
      in: "query",
      required: (op.query.required ?? []).includes(name),
      ...(json.description ? { description: json.description } : {}),
      schema: json,
      ...exampleField(examples.parameter("query", name)),
    });
  }
  if (op.idempotency !== "none") {
    // Inline rather than a shared component, so that each operation shows a key of its own: a key is remembered
    // per credential whatever the route (spec, Limits: Idempotency), and examples sent in turn must not collide.
    list.push({
      ...idempotencyParameter(op.idempotency === "required"),
      ...exampleField(examples.parameter("header", "Idempotency-Key")),
    });
  }
  return list;
}

function operationObject(
  op: Operation,
  components: Components,
  apiRoot: string,
  prefix: string,
): Record<string, unknown> {
  const examples = operationExamples(op.id, apiRoot, prefix);
  const replayed =
    op.idempotency === "none" ? {} : { "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" } };
  const headers = { ...RATE_HEADERS, ...replayed };
  const responses: Record<string, unknown> = {
    [String(op.successStatus)]:
      op.kind === "empty"
        ? { description: "Done; no body.", headers }
        : {
            description: "Success.",
            headers,
            content: {
              "application/json": withExamples(
                { schema: successSchema(op, components) },
                examples.response(op.successStatus),
              ),
            },
          },
  };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes(op))
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  const envelope = components.schema(ErrorEnvelope);
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const saved =
      op.savedDespite && codes.includes(op.savedDespite.code) ? savedDespiteSchema(op, components) : undefined;
    responses[String(status)] = {
      description: `Error: ${codes.join(", ")}.`,
      headers: status === 429 ? { ...headers, ...RETRY_AFTER } : headers,
      content: {
        "application/json": withExamples(
          { schema: saved ? { oneOf: [envelope, saved] } : envelope },
          examples.response(status),
        ),
      },
      // The codes this operation answers with this status: the response checker holds answers to them.
      "x-error-codes": codes,
    };
  }
  const scopes = op.scope === null ? [] : [op.scope];
  const params = parameters(op, components, examples);
  return {
    operationId: op.id,
    summary: op.summary,
    description: op.description,
    tags: [op.tag],
    security: [{ apiKey: scopes }, { oauth2: scopes }],
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: {
              "application/json": withExamples(
                { schema: components.define(named(op.body, `${op.id}'s body`), op.body) },
                examples.requestBody,
              ),
            },
          },
        }
      : {}),
    responses,
  };
}

const cache = new Map<string, unknown>();

/**
 * The document for one store: `serverUrl` is its `{base_url}`; OAuth URLs hang off the API root.
 * rule openapi.document: GET /openapi.json: OpenAPI 3.1, version 1.0.0, the store's base URL as server, every operation of the table.
 */
export function buildOpenApi(serverUrl: string): unknown {
  const cached = cache.get(serverUrl);
  if (cached) return cached;
  const apiRoot = serverUrl.replace(/\/[^/]+\/v1$/, "");
  const prefix = serverUrl.slice(apiRoot.length + 1, -"/v1".length);
  const components = new Components();
  components.schema(ErrorEnvelope);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS)
    (paths[op.path] ??= {})[op.method.toLowerCase()] = operationObject(op, components, apiRoot, prefix);
  const doc = {
    openapi: "3.1.0",
    info: {
      ...INFO,
      description:
        "Served by retail-sim, a simulator of the Retail Back-Office Public API v1. Authenticate with an API key " +
        "or an OAuth access token as a bearer token. The OAuth token endpoint lives at the API root, outside " +
        `this server's store prefix; it is described in its own document, ${apiRoot}${OAUTH_DOCUMENT_PATH}.`,
    },
    servers: [{ url: serverUrl, description: "This store's base URL." }],
    tags: [...new Set(OPERATIONS.map((o) => o.tag))].map((name) => ({ name, description: TAG_TEXT[name] ?? name })),
    paths,
    components: {
      schemas: components.all(),
      securitySchemes: {
        apiKey: { type: "http", scheme: "bearer", description: "An API key created by a store admin." },
        oauth2: {
          type: "oauth2",
          description: `The authorization code flow; the token endpoint is described in ${apiRoot}${OAUTH_DOCUMENT_PATH}.`,
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
      headers: HEADERS,
    },
  };
  if (cache.size > 32) cache.clear();
  cache.set(serverUrl, doc);
  return doc;
}

function idempotencyParameter(required: boolean): Record<string, unknown> {
  return {
    name: "Idempotency-Key",
    in: "header",
    required,
    description:
      "1 to 255 printable characters without spaces; remembered 24 hours per credential. The same key with " +
      "the same request replays the stored answer; with a different request it answers 422 IDEMPOTENCY_KEY_REUSED.",
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7E]+$" },
  };
}
