import { OPERATIONS } from "./operations/index.js";
import { Router } from "./router.js";

// The projection: what the spec fixes of each answer, as data. The conformance suite's model (the
// simulator, run in lockstep with the target) predicts every answer; a target is compared with the
// prediction on this projection only, so it is never failed for a choice the spec leaves open
// (docs/spec-choices.md). Read a part of an answer as:
//
// - fixed by default: a status and error code, `fields` names, every value of `data` (ids through the
//   bijection of the opaque values the target hands out), `has_more`, `Idempotent-Replayed`;
// - related by default: `version` (new exactly when the model's is new), date-times (the same instant
//   within the clocks' tolerance), `next_cursor` (passed back unchanged);
// - open where this file says so: `free` values are not compared; `stable` ones are the server's
//   choice, learnt when first seen and then held (they may change only when the model's value does).

/** How a value of an answer compares with the model's. */
export type Compare =
  | "exact"
  | "free"
  /** A value the server makes up (a token): one to one with the model's, learnt when first seen. */
  | "opaque"
  | "stable"
  /** Equal, or null where the spec allows a null (`changed`, `previous`, `on_hand`, `delta` of a batch line). */
  | "exact-or-null"
  /** `replayed`: absent when false. */
  | "false-or-absent"
  /** A SKU echoed as sent or as the product has it: equal without regard to case. */
  | "caseless"
  /** A sale's `customer_id`: null may stand for the walk-in customer. */
  | "walk-in-or-null";

export interface SpecQuote {
  readonly section: string;
  readonly quote: string;
}

/** A path in a payload: keys joined by dots, `[]` for every item of an array; `` is `data` itself. */
export type PayloadPath = string;

export interface OperationProjection {
  /** Parts of `data` that compare otherwise than by default. */
  readonly fields?: Readonly<Record<PayloadPath, Compare>>;
  /** Arrays whose order the spec does not fix, each matched item to item by these keys. */
  readonly unordered?: Readonly<Record<PayloadPath, readonly string[]>>;
  /** Lists of which the target may show fewer rows than the model (never others). */
  readonly subset?: true;
  /** A write whose row takes the server's choice for every field its body left out (create defaults). */
  readonly defaults?: true;
  /** Fields the service generates when the body leaves them out, with the prefix the spec gives them. */
  readonly generated?: Readonly<Record<string, { readonly prefix: string; readonly spec: SpecQuote }>>;
  /** Fields of the written row whose new value is the server's choice (an erasure's placeholders). */
  readonly chosen?: readonly string[];
  /** The row the answer shows is made of parts that the payload's objects with ids name (variants). */
  readonly learnIds?: true;
  readonly spec: SpecQuote;
}

const W = "Endpoints: Product write rules";
const R = "Resources and their fields";
const NOT_SHOWN: SpecQuote = {
  section: "Endpoints",
  quote: "Not shown: response shapes of /store and /taxes.",
};
const PRODUCT_SETS = {
  codes: ["type", "code"],
  tags: ["id"],
  suppliers: ["supplier_id"],
  components: ["product_id"],
  variant_attributes: ["position"],
  variant_options: ["attribute_id"],
} as const;
/** Spec, Product write rules 3: items are matched by identity, so a collection's order is not fixed. */
const COLLECTIONS: SpecQuote = {
  section: W,
  quote:
    "Replacement items are matched by identity (code by type, tag by id, supplier by supplier id, component by product, attribute by position), so a re-sent row keeps its identity.",
};
/** A product document at `at` (`` for `data`, `[]` for each row of a list). */
const product = (at: string, extra: Partial<OperationProjection> = {}): OperationProjection => {
  const path = (k: string) => (at === "" ? k : `${at}.${k}`);
  return {
    // Spec, Product: image_url "On write, an https address to import"; the stored copy's address is the service's.
    fields: { [path("image_url")]: "stable", [path("image_thumb_url")]: "stable" },
    unordered: Object.fromEntries(Object.entries(PRODUCT_SETS).map(([k, v]) => [path(k), v])),
    spec: COLLECTIONS,
    ...extra,
  };
};
const CREATE_DEFAULTS: SpecQuote = {
  section: W,
  quote: "Create needs only name and retail_price.",
};

/** Per operation id (and `createToken`, the token endpoint): what differs from the defaults above. */
export const PROJECTION: Readonly<Record<string, OperationProjection>> = {
  getMe: {
    // Spec, Identity: `key` with `id` and `name`; an OAuth connection's id and name are not given.
    fields: { key: "stable" },
    unordered: { scopes: [] },
    spec: {
      section: R,
      quote: "store_name, domain_prefix (the store prefix), scopes (array of scope names), key with id and name.",
    },
  },
  getStore: { fields: { "": "free" }, spec: NOT_SHOWN },
  listTaxes: { fields: { "[]": "free", "[].id": "exact", "[].version": "exact" }, spec: NOT_SHOWN },
  listOutlets: {
    fields: { "[].status": "stable" },
    spec: { section: "States and transitions", quote: "Outlet status: values of the string: not shown." },
  },
  listAdjustmentReasons: {
    fields: { "[].type": "stable" },
    unordered: { "": ["id"] },
    subset: true,
    spec: { section: R, quote: "AdjustmentReason id, name, type (string), is_system (boolean), version." },
  },
  getOpenapi: { fields: { "": "free" }, spec: { section: "What the service does", quote: "GET /openapi.json" } },
  listProducts: product("[]"),
  getProduct: product(""),
  createProduct: product("", {
    defaults: true,
    generated: {
      sku: {
        prefix: "PRD-",
        spec: { section: R, quote: "If left out at create, the service generates one that starts with PRD-." },
      },
    },
  }),
  updateProduct: product(""),
  createVariants: {
    fields: { "": "free" },
    learnIds: true,
    defaults: true,
    spec: {
      section: "Endpoints",
      quote: "Not shown: the HTTP success status of creates and writes other than the 204 of deletes.",
    },
  },
  listBrands: { spec: { section: R, quote: "Brand id, name, description (string or null), version." } },
  createBrand: { defaults: true, spec: CREATE_DEFAULTS },
  listCategories: {
    spec: { section: R, quote: "Category id, name, parent_id (uuid or null), depth (integer), version." },
  },
  createCategory: { defaults: true, spec: CREATE_DEFAULTS },
  ...taxonomy("Tag"),
  ...taxonomy("Supplier"),
  getProductInventory: {
    fields: { "[].reorder_method": "stable" },
    unordered: { "": ["outlet_id"] },
    spec: { section: R, quote: "InventoryLevel (one row per live outlet where the product is stocked)" },
  },
  setStock: {
    // Ids of records the API shows nowhere else.
    fields: { adjustment_id: "free", movement_id: "free" },
    spec: { section: R, quote: "changed (boolean), previous, on_hand, delta (numbers), adjustment_id, movement_id." },
  },
  createAdjustment: {
    fields: { "": "free" },
    spec: {
      section: "Endpoints",
      quote: "Not shown: the HTTP success status of creates and writes other than the 204 of deletes.",
    },
  },
  stockBatch: {
    fields: {
      "[].changed": "exact-or-null",
      "[].previous": "exact-or-null",
      "[].on_hand": "exact-or-null",
      "[].delta": "exact-or-null",
      "[].replayed": "false-or-absent",
      "[].sku": "caseless",
    },
    spec: {
      section: R,
      quote:
        "changed (boolean or null), previous, on_hand, delta (number or null). sku is echoed only when the line was given by sku.",
    },
  },
  ...sales(),
  createCustomer: { defaults: true, spec: { section: R, quote: "Customer" } },
  deleteCustomer: {
    chosen: ["first_name", "customer_code"],
    spec: {
      section: "Endpoints: Delete rules",
      quote: "name, email, phone, address and other personal details scrubbed; customer_code replaced by a placeholder",
    },
  },
  createToken: {
    fields: { access_token: "opaque", refresh_token: "opaque", scope: "exact" },
    spec: {
      section: "Authentication",
      quote:
        "Token response fields: access_token, refresh_token, token_type (Bearer), expires_in (3600), scope (space separated), store_name, api_base_url.",
    },
  },
};

function taxonomy(kind: "Tag" | "Supplier"): Record<string, OperationProjection> {
  const spec: SpecQuote = {
    section: R,
    quote:
      "Fields of a tag record and of a supplier record as standalone resources: not shown beyond their ids and names.",
  };
  const one: OperationProjection = { fields: { "": "free", id: "exact", name: "exact" }, spec };
  return {
    [`list${kind}s`]: { fields: { "[]": "free", "[].id": "exact", "[].name": "exact" }, spec },
    [`create${kind}`]: one,
    [`get${kind}`]: one,
    [`update${kind}`]: one,
  };
}

function sales(): Record<string, OperationProjection> {
  // Spec, Sale: "Fields of the sale document beyond those named: not shown." Totals come from the back
  // office (refund tax rounding is open: docs/spec-choices.md, Sales), so they are held, not computed.
  const fields: Record<string, Compare> = {
    "": "free",
    id: "exact",
    status: "exact",
    completed_at: "exact",
    outlet_id: "exact",
    customer_id: "walk-in-or-null",
    parent_sale_id: "exact",
    version: "exact",
    total: "stable",
    tax_total: "stable",
    paid_total: "stable",
  };
  const spec: SpecQuote = {
    section: R,
    quote:
      "Known fields: id, status, completed_at, outlet_id, customer_id, parent_sale_id, version, and integer-cent totals total, tax_total, paid_total.",
  };
  return {
    getSale: { fields, spec },
    listSales: {
      fields: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k === "" ? "[]" : `[].${k}`, v])),
      spec,
    },
  };
}

/** An answer as the projection reads it. */
export interface Outcome {
  readonly status: number;
  readonly code?: string;
  /** `fields[].field` of an error envelope. */
  readonly fields?: readonly string[];
}

/** The request an alternative may look at. */
export interface AskedFor {
  readonly method: string;
  /** The path under `{base_url}` (`/products/…`), or the token endpoint's. */
  readonly path: string;
  /** The JSON body, or the fields of a form body. */
  readonly body: unknown;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Another answer the spec allows where the model gives this one. `effect: "none"` means the target's
 * answer wrote nothing where the model's did (the model's write is undone).
 */
export interface Alternative {
  readonly operations?: readonly string[];
  /** The model's answer it applies to: a status class (`2xx`) or status, a code, a rule branch the model took. */
  readonly model: { readonly status?: number | "2xx"; readonly code?: string; readonly branch?: string };
  readonly target: readonly { readonly status: number | "2xx"; readonly code?: string }[];
  readonly when?: (asked: AskedFor, model: Outcome) => boolean;
  readonly effect?: "none";
  /** Body fields the target may ignore: its answer is then the model's to the request without them. */
  readonly ignores?: readonly string[];
  /** The docs/spec-choices.md row (or spec sentence) that leaves the choice open. */
  readonly choice: string;
}

const ROUTES = new Router<true>();
for (const o of OPERATIONS) ROUTES.add(o.method, o.path, true);
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"];
/** A path some operation serves with another method. */
const knownPath = (path: string) => METHODS.some((m) => ROUTES.match(m, path) !== undefined);
const REFERENCE = /(^|\.)(product_id|sku|outlet_id)$/;
const at = (body: unknown, field: string): unknown =>
  field
    .split(".")
    .reduce<unknown>(
      (v, k) => (v !== null && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined),
      body,
    );
/** Customer fields only the API writes (spec, Customer: read only, system, API-owned). */
const CUSTOMER_READ_ONLY = ["id", "do_not_sell_share", "is_walk_in", "created_at", "updated_at"];

/** Answers the spec leaves open, each with the choice it comes from (docs/spec-choices.md). */
export const ALTERNATIVES: readonly Alternative[] = [
  {
    model: { status: 401, branch: "stores.foreign-credential" },
    target: [
      { status: 403, code: "RETAILER_NOT_FOUND" },
      { status: 404, code: "NOT_FOUND" },
    ],
    choice: "A credential used under another store's prefix: 401, 403 or 404",
  },
  {
    model: { status: 404, code: "NOT_FOUND", branch: "envelope.unknown-path" },
    target: [{ status: 405 }],
    when: (asked) => knownPath(asked.path),
    choice: "Unknown path, or a known path with another method: 404 (405 too for a wrong method)",
  },
  {
    operations: ["listAdjustmentReasons"],
    model: { status: 403, code: "INSUFFICIENT_SCOPE" },
    target: [{ status: "2xx" }],
    choice: "Scope of GET /inventory/adjustment-reasons (not shown): 200 or 403 for a key without inventory:read",
  },
  {
    operations: ["updateProduct", "updateCustomer"],
    model: { status: 400, code: "VALIDATION_FAILED" },
    target: [{ status: 409, code: "STALE_VERSION" }],
    when: (_asked, m) => m.fields?.every((f) => f === "expected_version") === true,
    choice: "version and expected_version disagreeing: 400 or 409",
  },
  {
    operations: ["setStock", "stockBatch"],
    model: { status: 400, code: "VALIDATION_FAILED" },
    target: [{ status: 422, code: "INSUFFICIENT_STOCK" }],
    when: (asked, m) =>
      (m.fields?.length ?? 0) > 0 &&
      m.fields?.every((f) => /(^|\.)on_hand$/.test(f) && (at(asked.body, f) as number) < 0) === true,
    choice: "A negative absolute set: 400 or 422",
  },
  {
    operations: ["stockBatch"],
    model: { status: 400, code: "VALIDATION_FAILED" },
    target: [{ status: 422, code: "UNPROCESSABLE" }],
    when: (_asked, m) => (m.fields?.length ?? 0) > 0 && m.fields?.every((f) => /^lines\.\d+$/.test(f)) === true,
    choice: "A repeated product and outlet pair in a batch: 400 or 422",
  },
  {
    operations: ["createAdjustment", "stockBatch"],
    model: { status: 422, code: "UNPROCESSABLE" },
    target: [{ status: 404, code: "NOT_FOUND" }],
    when: (_asked, m) => (m.fields?.length ?? 0) > 0 && m.fields?.every((f) => REFERENCE.test(f)) === true,
    choice: "Unknown product or outlet in a body: 404 or 422",
  },
  {
    operations: ["createCustomer", "updateCustomer"],
    model: { status: "2xx" },
    target: [{ status: 400, code: "VALIDATION_FAILED" }],
    when: (asked) =>
      asked.body !== null &&
      typeof asked.body === "object" &&
      [...CUSTOMER_READ_ONLY, "version", "expected_version"].some((k) => Object.hasOwn(asked.body as object, k)),
    effect: "none",
    choice: "Customers, read-only fields on write: accepted and ignored, or refused with 400",
  },
  {
    operations: ["updateCustomer"],
    model: { status: 409, code: "STALE_VERSION" },
    target: [{ status: "2xx" }],
    ignores: ["version", "expected_version"],
    choice:
      "Customers: version or expected_version on PATCH /customers/{id}: checked as for products, or ignored (the spec states the check for products only)",
  },
  {
    // Paths the spec does not show: a deployment may not serve them.
    operations: [
      "listBrands",
      "updateBrand",
      "listCategories",
      "updateCategory",
      "listTags",
      "updateTag",
      "listSuppliers",
      "getSupplier",
      "updateSupplier",
      "getCustomer",
      "updateCustomer",
      "listCustomerGroups",
      "getCustomerGroup",
    ],
    model: {},
    target: [{ status: 404, code: "NOT_FOUND" }],
    effect: "none",
    choice:
      "Not shown: the customer read-by-id and update paths, and the create payloads and list/update paths of brands, categories, tags and suppliers.",
  },
  {
    operations: ["createToken"],
    model: { status: 400, code: "invalid_request" },
    target: [{ status: 401, code: "invalid_client" }],
    when: (asked) =>
      /^Basic /i.test(asked.headers.authorization ?? "") &&
      typeof (asked.body as Record<string, unknown> | undefined)?.client_secret === "string",
    choice: "Client credentials sent both ways: 400 or 401",
  },
  {
    operations: ["createToken"],
    model: { status: 429 },
    target: [{ status: 400, code: "invalid_request" }],
    choice: "Token endpoint failures past 30 per 5 minutes per address: 400 or 429",
  },
];

/**
 * Spec-fixed precedence between two problems of one request: a lower tier answers first. Within a tier
 * the order is the server's (docs/spec-choices.md, Pipeline order). A credential that cannot be used
 * is refused before anything is known of the request; a store that may not call and a missing scope
 * before the request's own problems; a key already used (or in use) before the request is judged,
 * since "A client error replays the same failure" makes those problems part of what the key records.
 */
export function tierOf(status: number, code: string | undefined): number {
  if (status === 401) return 1;
  if (code === "INSUFFICIENT_SCOPE" || ((status === 402 || status === 403) && code !== "PRODUCT_LIMIT_REACHED"))
    return 2;
  if (code === "IDEMPOTENCY_KEY_REUSED" || code === "IDEMPOTENCY_IN_PROGRESS") return 3;
  return 4;
}

export const TIERS: readonly SpecQuote[] = [
  {
    section: "Authentication",
    quote:
      "Every request (except the OAuth token exchange) sends Authorization: Bearer <API_KEY> or Authorization: Bearer <ACCESS_TOKEN>.",
  },
  { section: "Authentication", quote: "A call without the needed scope answers 403 INSUFFICIENT_SCOPE." },
  { section: "Limits", quote: "A different body under the same key answers 422 IDEMPOTENCY_KEY_REUSED." },
];
