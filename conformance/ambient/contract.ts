import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ValidateFunction } from "ajv";
import { buildOpenApi } from "../../src/contract/openapi.js";
import { buildOAuthOpenApi, TOKEN_PATH } from "../../src/contract/openapi-oauth.js";
import { Router } from "../../src/contract/router.js";
import { pathUnder } from "../target.js";

// What the spec lets an operation answer, derived from the contract (the served OpenAPI document is
// built from the operations table) and relaxed wherever the simulator made a choice the spec leaves
// open (docs/spec-choices.md): a deployment is judged by the spec, never by our choices.
//
// Relaxations, each a place where the spec is silent:
// - extra properties are allowed (the spec lists the fields every read has; later versions "only add fields");
// - lengths, patterns, bounds and the enums of "not shown" values (outlet status, reason type) are dropped;
// - "not shown" shapes (`/store`, taxes, standalone tags and suppliers beyond id and name, the sale
//   document beyond its named fields, the answers of adjustments and of the variants call) keep only
//   what the spec names; `replayed` of a batch line may be left out when false;
// - the success status of creates and writes is not shown: any of 200 and 201 is accepted.
// What stays: every listed field present (nullable ones as null), integers for money, UUID ids,
// UTC date-times ending in Z, the spec's enums (code types, sale statuses, scopes, token_type), and
// the error codes each status may carry for the operation.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const STORE_PATH = /^\/[^/]+\/v1(\/.*)$/;
const UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/;
/** Enums of values the spec does not show (spec-choices: outlet status, adjustment reason type). */
const CHOICE_ENUMS = [JSON.stringify(["active", "inactive"]), JSON.stringify(["increase", "decrease", "any"])];
const DROPPED = new Set([
  "maxLength",
  "minLength",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "description",
  "example",
  "examples",
]);

/** The spec's named Sale fields (Resources: Sale, "Known fields"). */
const SALE_FIELDS = [
  "id",
  "status",
  "completed_at",
  "outlet_id",
  "customer_id",
  "parent_sale_id",
  "version",
  "total",
  "tax_total",
  "paid_total",
];

export interface OperationView {
  /** `GET /products/{id}`. */
  readonly name: string;
  readonly operationId: string;
  /** Statuses the document gives, with the relaxed schema of each JSON body. */
  readonly statuses: ReadonlyMap<number, ValidateFunction | null>;
  /** The success status the document gives. */
  readonly success: number;
  /** The raw document route: its body is not judged (either the document or `{data: document}`). */
  readonly document: boolean;
  readonly token: boolean;
}

function relax(schema: unknown, key = ""): unknown {
  if (Array.isArray(schema)) return schema.map((s) => relax(s));
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    // Without additionalProperties: false the alternatives may overlap: any one of them is enough.
    if (k === "oneOf") {
      out.anyOf = relax(v, k);
      continue;
    }
    if (DROPPED.has(k) && key !== "properties") continue;
    if (k === "additionalProperties" && v === false && key !== "properties") continue;
    if (k === "enum" && CHOICE_ENUMS.includes(JSON.stringify(v))) continue;
    if (k === "format" && v === "date-time") {
      out.format = "utc-date-time";
      continue;
    }
    out[k] = relax(v, k);
  }
  return out;
}

/** `schema` with every reference to a named component replaced by the component (none is recursive). */
function inline(schema: unknown, components: Record<string, unknown>): any {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, components));
  if (schema === null || typeof schema !== "object") return schema;
  const { $ref, ...rest } = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) out[k] = inline(v, components);
  if (typeof $ref !== "string") return out;
  return { ...inline(components[$ref.replace("#/components/schemas/", "")], components), ...out };
}

/** The codes the document gives an operation for a status (`x-error-codes`), as a schema of the body. */
function codesOnly(codes: unknown): unknown {
  if (!Array.isArray(codes)) return undefined;
  return { type: "object", properties: { error: { type: "object", properties: { code: { enum: codes } } } } };
}

/** Keeps only the named properties of an object schema (the rest of the document is not shown). */
function only(schema: any, names: readonly string[]): any {
  const properties = Object.fromEntries(
    names.filter((n) => schema?.properties?.[n]).map((n) => [n, schema.properties[n]]),
  );
  return { type: "object", required: names.filter((n) => properties[n]), properties };
}

/** Narrows the payload schema of "not shown" shapes, wherever the envelope puts it. */
function narrowPayload(operationId: string, body: any): any {
  const narrow = (item: any): any => {
    if (operationId === "getStore") return { type: "object" };
    if (operationId === "listTaxes") return { type: "object", required: ["id", "version"] };
    if (operationId === "listSales" || operationId === "getSale") return only(item, SALE_FIELDS);
    if (/^(get|list|create|update)(Tag|Supplier)s?$/.test(operationId)) return only(item, ["id", "name"]);
    // Not shown: the adjustment's answer (spec-choices, Adjustment response: any data object).
    if (operationId === "createAdjustment") return { type: "object" };
    // Spec, Resources: "replayed (boolean) is true only on an idempotency replay" (spec-choices: absent when false).
    if (operationId === "stockBatch")
      return { ...item, required: (item?.required ?? []).filter((n: string) => n !== "replayed") };
    return item;
  };
  // Not shown: the variants call's answer (spec-choices, Variants response: any payload under data).
  if (operationId === "createVariants" && body?.properties?.data)
    return { ...body, properties: { ...body.properties, data: {} } };
  const data = body?.properties?.data;
  if (!data) return body;
  const payload = data.type === "array" ? { ...data, items: narrow(data.items) } : narrow(data);
  return { ...body, properties: { ...body.properties, data: payload } };
}

let state: { router: Router<OperationView>; token: OperationView } | undefined;

function build() {
  if (state) return state;
  const doc = buildOpenApi("http://judge.invalid/store/v1") as any;
  const oauth = buildOAuthOpenApi("http://judge.invalid") as any;
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addFormat("utc-date-time", {
    type: "string",
    validate: (v: string) => UTC.test(v) && !Number.isNaN(Date.parse(v)),
  });
  ajv.addKeyword({ keyword: "x-decimals" });
  const view = (path: string, method: string, op: any, components: Record<string, unknown>): OperationView => {
    const statuses = new Map<number, ValidateFunction | null>();
    let success = 200;
    for (const [code, response] of Object.entries<any>(op.responses ?? {})) {
      const status = Number(code);
      if (status >= 200 && status < 300) success = status;
      const schema = inline(response?.content?.["application/json"]?.schema, components);
      const codes = codesOnly(response?.["x-error-codes"]);
      const judged = schema && narrowPayload(op.operationId, relax(schema));
      statuses.set(status, judged ? ajv.compile(codes ? { allOf: [judged, codes] } : judged) : null);
    }
    return {
      name: `${method.toUpperCase()} ${path}`,
      operationId: op.operationId,
      statuses,
      success,
      document: path === "/openapi.json",
      token: path === TOKEN_PATH,
    };
  };
  const router = new Router<OperationView>();
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      if (item[method])
        router.add(method.toUpperCase(), path, view(path, method, item[method], doc.components.schemas));
    }
  }
  const token = view(TOKEN_PATH, "post", oauth.paths[TOKEN_PATH].post, oauth.components.schemas);
  state = { router, token };
  return state;
}

/**
 * The operation a request URL names, read under the target's `{api_root}` (any path before the store
 * prefix included): under a `{base_url}` or the token endpoint; undefined for other URLs.
 */
export function operationOf(method: string, url: string, apiRoot: string): OperationView | "unknown" | undefined {
  const path = pathUnder(url, apiRoot);
  if (path === undefined) return undefined;
  const { router, token } = build();
  if (path === TOKEN_PATH) return method === "POST" ? token : undefined;
  const rest = STORE_PATH.exec(path)?.[1];
  if (rest === undefined) return undefined;
  return router.match(method, rest)?.route ?? "unknown";
}
