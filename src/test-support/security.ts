// Helpers for the security matrix (src/http/security-*.test.ts): requests for every operation of
// the contract's table, built from the table itself (method, path, path parameters, body, idempotency
// policy), so that a new operation is covered without touching the tests. They assert nothing
// themselves; they throw when the table names something they cannot build, so a new kind of path
// parameter or a new write without a body shows up as a failing test, never as a silent skip.
import type { Operation } from "../contract/operation.js";
import { pathParams } from "../contract/operation.js";
import { OPERATIONS } from "../contract/operations/index.js";
import { validatorFor } from "../contract/validate.js";
import type { Simulator } from "../simulator.js";
import { call, ORIGIN, type Reply } from "./sim.js";

export const ALL_OPERATIONS: readonly Operation[] = OPERATIONS;

/** `createProduct POST /products/{id}`: the name of an operation's case. */
export const label = (op: Operation) => `${op.id} (${op.method} ${op.path})`;

/**
 * Ids of one store, by resource kind. The kind of a path parameter is the collection it belongs to:
 * `{id}` takes the segment before it (`/products/{id}` -> `products`), `{outlet_id}` -> `outlets`.
 * `attribute` (the variant attribute of the `products` row, a variant parent), `plain` and `sku` (an
 * ordinary product and its SKU) and `reason` (an enabled "Stock received" adjustment reason) are there for bodies.
 */
export type Ids = Readonly<Record<string, string>>;

export function kindOf(path: string, param: string): string {
  if (param === "id") {
    const segments = path.split("/");
    const at = segments.indexOf("{id}");
    const kind = segments[at - 1];
    if (!kind) throw new Error(`cannot tell the resource of {id} in ${path}`);
    return kind;
  }
  const named: Record<string, string> = {
    outlet_id: "outlets",
    product_id: "products",
    customer_id: "customers",
    sale_id: "sales",
  };
  const kind = named[param];
  if (!kind)
    throw new Error(`security matrix: no resource kind for path parameter {${param}} of ${path}; add it to kindOf`);
  return kind;
}

/** Kinds of the path parameters of an operation, in order. */
export const paramKinds = (op: Operation) => pathParams(op.path).map((p) => kindOf(op.path, p));

/** The path relative to the API root (`/demo/v1/products/<id>`), each parameter taken from `idsFor(param index)`. */
export function pathFor(op: Operation, prefix: string, idsFor: (index: number) => Ids): string {
  let index = 0;
  const rest = op.path.replace(/\{([a-z_]+)\}/g, (_m, param: string) => {
    const kind = kindOf(op.path, param);
    const ids = idsFor(index++);
    const id = ids[kind];
    if (!id)
      throw new Error(`security matrix: no id of kind "${kind}" for ${label(op)}; create one in createResources`);
    return id;
  });
  return `/${prefix}/v1${rest}`;
}

/**
 * A valid body for every operation that takes one, built from the ids of the store the request is
 * about. `n` makes names unique (brand and tag names must be). Every body is checked against the
 * operation's own schema by `bodyFor`, so a 404 is never a masked 400.
 */
const BODIES: Record<string, (ids: Ids, n: string) => unknown> = {
  createProduct: (_ids, n) => ({ name: `Security product ${n}`, retail_price: 1250, sku: `SEC-${n}` }),
  updateProduct: (_ids, n) => ({ name: `Security rename ${n}`, retail_price: 1300 }),
  createVariants: (ids, n) => ({ variants: [{ options: [{ attribute_id: ids.attribute, value: `XL-${n}` }] }] }),
  createBrand: (_ids, n) => ({ name: `Security brand ${n}`, description: "made by the security matrix" }),
  updateBrand: (_ids, n) => ({ name: `Security brand rename ${n}` }),
  createCategory: (_ids, n) => ({ name: `Security category ${n}` }),
  updateCategory: (_ids, n) => ({ name: `Security category rename ${n}` }),
  createTag: (_ids, n) => ({ name: `Security tag ${n}` }),
  updateTag: (_ids, n) => ({ name: `Security tag rename ${n}` }),
  createSupplier: (_ids, n) => ({ name: `Security supplier ${n}` }),
  updateSupplier: (_ids, n) => ({ name: `Security supplier rename ${n}` }),
  setStock: () => ({ on_hand: 7 }),
  createAdjustment: (ids) => ({ product_id: ids.products, outlet_id: ids.outlets, reason_id: ids.reason, quantity: 2 }),
  stockBatch: (ids) => ({ lines: [{ product_id: ids.products, outlet_id: ids.outlets, set: { on_hand: 3 } }] }),
  createCustomer: (_ids, n) => ({
    first_name: `Secfirst${n}`,
    last_name: "Matrix",
    email: `sec-${n}@example.com`,
    phone: "+1 555 0100",
  }),
  updateCustomer: (_ids, n) => ({ first_name: `Secrenamed${n}` }),
};

/** The valid body of `op` (undefined when it takes none); throws when the body table lacks the operation or the body is invalid. */
export function bodyFor(op: Operation, ids: Ids, n: string): unknown {
  if (op.body === undefined) return undefined;
  const build = BODIES[op.id];
  if (!build)
    throw new Error(
      `security matrix: no valid body for ${label(op)}; add one to BODIES in src/test-support/security.ts`,
    );
  const body = build(ids, n);
  const problems = validatorFor(op.body, "body")(body);
  if (problems.length > 0)
    throw new Error(`security matrix: the body for ${label(op)} is invalid: ${JSON.stringify(problems)}`);
  return body;
}

export interface BuiltRequest {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

/** A request that a key with the operation's scope would have carried out: real ids, a valid body, a key when one is required. */
export function requestFor(
  op: Operation,
  prefix: string,
  ids: Ids | ((index: number) => Ids),
  n: string,
  bodyIds?: Ids,
): BuiltRequest {
  const idsFor = typeof ids === "function" ? ids : () => ids;
  const headers: Record<string, string> =
    op.idempotency === "required" ? { "idempotency-key": `security-${op.id}-${n}` } : {};
  return { method: op.method, path: pathFor(op, prefix, idsFor), body: bodyFor(op, bodyIds ?? idsFor(0), n), headers };
}

let counter = 0;
/** A unique tag for names and idempotency keys. */
export const unique = () => `${++counter}`;

async function must(reply: Reply | { status: number; json: any }, status: number, what: string): Promise<any> {
  if (reply.status !== status) throw new Error(`${what} answered ${reply.status}: ${JSON.stringify(reply.json)}`);
  return reply.json;
}

/** `POST`/`GET` on the control plane with a JSON body. */
export async function control(
  sim: Simulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const res = await sim.fetch(`${ORIGIN}/_sim${path}`, {
    method,
    headers: method === "GET" ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

/**
 * How a store of a sandbox is reached (docs/interfaces.md, Sandboxes): the token of its `full` key and
 * the sandbox's control plane under `/_sim` (`/sandboxes/sb1`). Left out: the default sandbox's store.
 */
export interface StoreAccess {
  readonly token: string;
  readonly control: string;
}

/** The `call` options of a request with the store's `full` key. */
const fullKey = (prefix: string, access: StoreAccess | undefined) =>
  access ? { auth: `Bearer ${access.token}` } : { key: "full", store: prefix };

/**
 * Fresh rows of every kind a path parameter or a body names, made in store `prefix` with its own
 * `full` key (sales through the control plane; outlets, customer groups and reasons are the
 * store's own). Nothing here is shared with another store.
 */
export async function createResources(
  sim: Simulator,
  prefix: string,
  remoteAddress = "10.250.0.1",
  access?: StoreAccess,
): Promise<Ids> {
  const n = `${prefix}-${unique()}`;
  const api = (method: string, path: string, body?: unknown) =>
    call(sim, method, `/${prefix}/v1${path}`, { ...fullKey(prefix, access), body, remoteAddress });
  const create = async (path: string, body: unknown) =>
    (await must(await api("POST", path, body), 201, `POST /${prefix}/v1${path}`)).data;
  const list = async (path: string) =>
    (await must(await api("GET", path), 200, `GET /${prefix}/v1${path}`)).data as { id: string; name: string }[];

  const parent = await create("/products", {
    name: `Security parent ${n}`,
    retail_price: 1500,
    has_variants: true,
    variant_attributes: [{ name: "Size", position: 1 }],
  });
  const plain = await create("/products", { name: `Security plain ${n}`, retail_price: 900 });
  const brand = await create("/brands", { name: `Security brand ${n}` });
  const category = await create("/categories", { name: `Security category ${n}` });
  const tag = await create("/tags", { name: `Security tag ${n}` });
  const supplier = await create("/suppliers", { name: `Security supplier ${n}` });
  const customer = await create("/customers", { first_name: `Sec${n}`, email: `sec-${n}@example.com` });
  const outlet = (await list("/outlets"))[0];
  const group = (await list("/customer-groups"))[0];
  const reason = (await list("/inventory/adjustment-reasons")).find((r) => r.name === "Stock received");
  if (!outlet || !group || !reason)
    throw new Error(`store ${prefix} lacks an outlet, a customer group or the "Stock received" reason`);
  const sale = await must(
    await control(sim, "POST", `${access?.control ?? ""}/stores/${prefix}/sales`, {
      outlet_id: outlet.id,
      customer_id: customer.id,
      lines: [{ product_id: plain.id, quantity: 1, unit_price: 900 }],
    }),
    201,
    `POST /_sim/stores/${prefix}/sales`,
  );
  return {
    products: parent.id,
    attribute: parent.variant_attributes[0].id,
    plain: plain.id,
    sku: plain.sku,
    brands: brand.id,
    categories: category.id,
    tags: tag.id,
    suppliers: supplier.id,
    customers: customer.id,
    "customer-groups": group.id,
    outlets: outlet.id,
    reason: reason.id,
    sales: sale.id,
  };
}

/**
 * What a store shows its own `full` key: every read operation of the table without path parameters
 * (lists in one page of 200), and every read with path parameters for the given ids. Two equal
 * fingerprints mean no row of the store changed (every row carries a `version`).
 */
export async function fingerprint(
  sim: Simulator,
  prefix: string,
  ids: Ids,
  remoteAddress = "10.250.0.2",
  access?: StoreAccess,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const op of ALL_OPERATIONS) {
    if (op.method !== "GET" || op.kind === "document") continue;
    const kinds = paramKinds(op);
    if (kinds.some((k) => ids[k] === undefined)) continue;
    const query = op.kind === "list" ? "?limit=200" : "";
    const path = `${pathFor(op, prefix, () => ids)}${query}`;
    const reply = await call(sim, "GET", path, { ...fullKey(prefix, access), remoteAddress });
    out[`GET ${path}`] = { status: reply.status, json: reply.json };
  }
  return out;
}

/** Every string reachable from `value` (object keys and values, Map keys and values, Set items, arrays), cycles visited once. */
export function reachableStrings(value: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<unknown>();
  const visit = (v: unknown): void => {
    if (typeof v === "string") {
      out.push(v);
      return;
    }
    if (v === null || typeof v !== "object" || seen.has(v)) return;
    seen.add(v);
    if (v instanceof Map) {
      for (const [k, item] of v) {
        visit(k);
        visit(item);
      }
      return;
    }
    if (v instanceof Set || Array.isArray(v)) {
      for (const item of v) visit(item);
      return;
    }
    if (ArrayBuffer.isView(v)) {
      out.push(Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("latin1"));
      return;
    }
    for (const key of Reflect.ownKeys(v)) {
      if (typeof key === "string") out.push(key);
      const descriptor = Object.getOwnPropertyDescriptor(v, key);
      if (descriptor && "value" in descriptor) visit(descriptor.value);
    }
  };
  visit(value);
  return out;
}

/** Keys of every Map reachable from `value`. */
export function reachableMapKeys(value: unknown): unknown[] {
  const out: unknown[] = [];
  const seen = new Set<unknown>();
  const visit = (v: unknown): void => {
    if (v === null || typeof v !== "object" || seen.has(v)) return;
    seen.add(v);
    if (v instanceof Map) {
      for (const [k, item] of v) {
        out.push(k);
        visit(item);
      }
      return;
    }
    const items =
      v instanceof Set || Array.isArray(v)
        ? [...v]
        : Reflect.ownKeys(v).map((k) => (v as Record<PropertyKey, unknown>)[k]);
    for (const item of items) visit(item);
  };
  visit(value);
  return out;
}

/** The secrets among `secrets` that occur in `text` (each named). */
export function leaked(text: string, secrets: Record<string, string>): string[] {
  return Object.entries(secrets)
    .filter(([, secret]) => secret.length > 0 && text.includes(secret))
    .map(([name]) => name);
}
