// The security matrix, tenant isolation: ids of another store, in the path or in a body, are never served or
// written (spec: Errors, NOT_FOUND for another store's id and UNPROCESSABLE for a referenced thing not found;
// Product write rules 8).
// Generated from the operations table (src/contract/operations): every operation of the table is a named case
// of every check, so a new operation is covered without touching this file. Written from the spec
// (retail-api-v1.md); the simulator is the thing under test. Time only moves through the manual clock.
import { beforeAll, describe, expect, it } from "vitest";
import { pathParams } from "../contract/operation.js";
import type { Simulator } from "../simulator.js";
import { call, makeSim } from "../test-support/sim.js";
import {
  bodyFor,
  createResources,
  fingerprint,
  label,
  paramKinds,
  pathFor,
  requestFor,
  unique,
  type BuiltRequest,
  type Ids,
} from "../test-support/security.js";
import { expectError } from "../test-support/errors.js";
import { OPS, operationAt, opCases, addr, outcome, send } from "../test-support/security-matrix.js";

// 7: tenant isolation

/** Every operation with path parameters, once for each non-empty set of parameters taken from store `other`. */
const isolationCases = OPS.flatMap((op) => {
  const kinds = paramKinds(op);
  const cases = [];
  for (let mask = 1; mask < 1 << kinds.length; mask++) {
    const foreign = kinds.filter((_k, index) => mask & (1 << index));
    cases.push({ name: `${label(op)} with other's ${foreign.join(" and ")}`, op, mask });
  }
  return cases;
});

describe("Spec, Errors (NOT_FOUND: other store's id): every id of store `other` answers 404 from store `demo`, for reads, writes and deletes", () => {
  let sim: Simulator;
  let otherIds: Ids;

  beforeAll(async () => {
    sim = makeSim();
    otherIds = await createResources(sim, "other");
  });

  it("every operation of the table with path parameters is a case", () => {
    const withParams = OPS.filter((op) => pathParams(op.path).length > 0).map((op) => op.id);
    expect(withParams.length).toBeGreaterThan(0);
    expect([...new Set(isolationCases.map((c) => c.op.id))]).toEqual(withParams);
  });

  it.each(isolationCases.map((c, i) => [c.name, { ...c, i }] as const))(
    "%s: demo's `full` key answers 404 NOT_FOUND; neither store changes; the same request with demo's own ids succeeds",
    async (_name, { op, mask, i }) => {
      sim.clock.advance(61); // a new minute for the general and customer limits of both `full` keys
      const demoIds = await createResources(sim, "demo");
      const idsFor = (index: number) => (mask & (1 << index) ? otherIds : demoIds);
      const n = unique();
      const attack: BuiltRequest = {
        method: op.method,
        path: pathFor(op, "demo", idsFor),
        // The body names the other store's rows too (e.g. the other parent's variant attribute): the most a caller could know.
        body: bodyFor(op, otherIds, n),
        headers: op.idempotency === "required" ? { "idempotency-key": `isolation-${n}` } : {},
      };
      const before = {
        other: await fingerprint(sim, "other", otherIds),
        demo: await fingerprint(sim, "demo", demoIds),
      };

      const reply = await send(sim, attack, { key: "full", store: "demo", remoteAddress: addr(7, i) });
      expectError(reply, 404, "NOT_FOUND");

      expect({
        other: await fingerprint(sim, "other", otherIds),
        demo: await fingerprint(sim, "demo", demoIds),
      }).toEqual(before);

      // Control: the same operation with demo's own ids and a body built from them is carried out.
      const own = await send(sim, requestFor(op, "demo", demoIds, unique()), {
        key: "full",
        store: "demo",
        remoteAddress: addr(7, i),
      });
      expect({ status: own.status, error: own.json?.error }).toEqual({ status: op.successStatus, error: undefined });
    },
  );

  it.each(opCases(OPS))(
    "%s: demo's `full` key under the /other/v1 prefix, with other's real ids, answers 401 UNAUTHORIZED and changes nothing",
    async (_name, { op, i }) => {
      sim.clock.advance(61);
      const before = await fingerprint(sim, "other", otherIds);
      const reply = await send(sim, requestFor(op, "other", otherIds, unique()), {
        key: "full",
        store: "demo",
        remoteAddress: addr(8, i),
      });
      expectError(reply, 401, "UNAUTHORIZED");
      expect(await fingerprint(sim, "other", otherIds)).toEqual(before);
    },
  );
});

describe("Spec, Errors (UNPROCESSABLE: referenced thing not found; Product write rules 8): ids of store `other` inside a demo request body are refused and write nothing", () => {
  let sim: Simulator;
  let otherIds: Ids;

  beforeAll(async () => {
    sim = makeSim();
    otherIds = await createResources(sim, "other");
  });

  // Bodies are built from demo's own ids (d), and one reference from `r`: the other store's ids in the
  // attack, demo's own in the control that shows the body is otherwise valid.
  // Status and code: 422 UNPROCESSABLE for a referenced thing not found (Errors table; docs/spec-choices.md
  // "Unknown references" and "Unknown product or outlet ... in a body"), 400 for an unknown tag id (Product write rules 8).
  const cases: {
    name: string;
    method: string;
    path: (d: Ids) => string;
    body: (d: Ids, r: Ids, n: string) => unknown;
    headers?: boolean;
    status: number;
    code: string;
  }[] = [
    {
      name: "POST /inventory/adjustments naming other's product",
      method: "POST",
      path: () => "/inventory/adjustments",
      headers: true,
      body: (d, r) => ({ product_id: r.products, outlet_id: d.outlets, reason_id: d.reason, quantity: 2 }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /inventory/adjustments naming other's outlet",
      method: "POST",
      path: () => "/inventory/adjustments",
      headers: true,
      body: (d, r) => ({ product_id: d.products, outlet_id: r.outlets, reason_id: d.reason, quantity: 2 }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /inventory/adjustments naming other's reason",
      method: "POST",
      path: () => "/inventory/adjustments",
      headers: true,
      body: (d, r) => ({ product_id: d.products, outlet_id: d.outlets, reason_id: r.reason, quantity: 2 }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /inventory/adjustments naming other's product by sku",
      method: "POST",
      path: () => "/inventory/adjustments",
      headers: true,
      body: (d, r) => ({ sku: r.sku, outlet_id: d.outlets, reason_id: d.reason, quantity: 2 }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /inventory/batch with a line naming other's product",
      method: "POST",
      path: () => "/inventory/batch",
      headers: true,
      body: (d, r) => ({ lines: [{ product_id: r.products, outlet_id: d.outlets, set: { on_hand: 4 } }] }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /inventory/batch with a line naming other's outlet",
      method: "POST",
      path: () => "/inventory/batch",
      headers: true,
      body: (d, r) => ({ lines: [{ product_id: d.products, outlet_id: r.outlets, set: { on_hand: 4 } }] }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /inventory/batch with a line naming other's product by sku",
      method: "POST",
      path: () => "/inventory/batch",
      headers: true,
      body: (d, r) => ({ lines: [{ sku: r.sku, outlet_id: d.outlets, set: { on_hand: 4 } }] }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "PUT /products/{id}/inventory/{outlet_id} with other's reason_id",
      method: "PUT",
      path: (d) => `/products/${d.products}/inventory/${d.outlets}`,
      body: (_d, r) => ({ on_hand: 9, reason_id: r.reason }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /products with other's brand_id",
      method: "POST",
      path: () => "/products",
      body: (_d, r, n) => ({ name: `X ${n}`, retail_price: 100, sku: `ISO-${n}`, brand_id: r.brands }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /products with other's category_id",
      method: "POST",
      path: () => "/products",
      body: (_d, r, n) => ({ name: `X ${n}`, retail_price: 100, sku: `ISO-${n}`, category_id: r.categories }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /products with other's supplier",
      method: "POST",
      path: () => "/products",
      body: (_d, r, n) => ({
        name: `X ${n}`,
        retail_price: 100,
        sku: `ISO-${n}`,
        suppliers: [{ supplier_id: r.suppliers, is_primary: true, supplier_code: "S1" }],
      }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /products with other's product as a component",
      method: "POST",
      path: () => "/products",
      body: (_d, r, n) => ({
        name: `X ${n}`,
        retail_price: 100,
        sku: `ISO-${n}`,
        components: [{ product_id: r.plain, quantity: 1 }],
      }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /products with other's tag (unknown tag id: 400)",
      method: "POST",
      path: () => "/products",
      body: (_d, r, n) => ({ name: `X ${n}`, retail_price: 100, sku: `ISO-${n}`, tags: [{ id: r.tags }] }),
      status: 400,
      code: "VALIDATION_FAILED",
    },
    {
      name: "PATCH /products/{id} with other's brand_id",
      method: "PATCH",
      path: (d) => `/products/${d.products}`,
      body: (_d, r) => ({ brand_id: r.brands }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /categories with other's category as parent_id",
      method: "POST",
      path: () => "/categories",
      body: (_d, r, n) => ({ name: `Iso ${n}`, parent_id: r.categories }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "POST /customers with other's customer_group_id",
      method: "POST",
      path: () => "/customers",
      body: (_d, r, n) => ({
        first_name: `Iso${n}`,
        customer_code: `ISO-${n}`,
        customer_group_id: r["customer-groups"],
      }),
      status: 422,
      code: "UNPROCESSABLE",
    },
    {
      name: "PATCH /customers/{id} with other's customer_group_id",
      method: "PATCH",
      path: (d) => `/customers/${d.customers}`,
      body: (_d, r) => ({ customer_group_id: r["customer-groups"] }),
      status: 422,
      code: "UNPROCESSABLE",
    },
  ];

  it.each(cases.map((c, i) => [`${c.name} answers ${c.status} ${c.code}`, { ...c, i }] as const))(
    "%s; neither store changes; with demo's own reference the request succeeds",
    async (_name, c) => {
      sim.clock.advance(61);
      const demoIds = await createResources(sim, "demo");
      const path = `/demo/v1${c.path(demoIds)}`;
      const op = operationAt(c.method, path);
      const sendWith = (ref: Ids, n: string) =>
        call(sim, c.method, path, {
          key: "full",
          body: c.body(demoIds, ref, n),
          headers: c.headers ? { "idempotency-key": `iso-body-${n}` } : {},
          remoteAddress: addr(10, c.i),
        });
      const n = unique();
      const before = {
        other: await fingerprint(sim, "other", otherIds),
        demo: await fingerprint(sim, "demo", demoIds),
      };
      expect(outcome(await sendWith(otherIds, n))).toEqual({ status: c.status, code: c.code });
      expect({
        other: await fingerprint(sim, "other", otherIds),
        demo: await fingerprint(sim, "demo", demoIds),
      }).toEqual(before);
      // Product write rules 4: nothing of a refused create is saved.
      expect((await call(sim, "GET", `/demo/v1/products?sku=ISO-${n}`, { key: "full" })).json.data).toEqual([]);
      // Control: the same request naming demo's own row is carried out.
      expect(outcome(await sendWith(demoIds, unique()))).toEqual({ status: op.successStatus, code: null });
    },
  );

  it.each([
    ["GET /sales?outlet_id=<other's outlet>", (o: Ids) => `/sales?outlet_id=${o.outlets}`],
    ["GET /sales?customer_id=<other's customer>", (o: Ids) => `/sales?customer_id=${o.customers}`],
    ["GET /sales?parent_sale_id=<other's sale>", (o: Ids) => `/sales?parent_sale_id=${o.sales}`],
    ["GET /products?sku=<other's sku>", (o: Ids) => `/products?sku=${o.sku}`],
  ] as const)("%s answers 200 with an empty page: no row of store `other` is shown to demo", async (_name, path) => {
    sim.clock.advance(61);
    const reply = await call(sim, "GET", `/demo/v1${path(otherIds)}`, { key: "full" });
    expect({ status: reply.status, data: reply.json.data, has_more: reply.json.has_more }).toEqual({
      status: 200,
      data: [],
      has_more: false,
    });
  });

  it("control: the other store does hold those rows (its own `full` key finds them)", async () => {
    sim.clock.advance(61);
    expect(
      (await call(sim, "GET", `/other/v1/sales?outlet_id=${otherIds.outlets}`, { key: "full" })).json.data.map(
        (s: { id: string }) => s.id,
      ),
    ).toContain(otherIds.sales);
    expect(
      (await call(sim, "GET", `/other/v1/products?sku=${otherIds.sku}`, { key: "full" })).json.data.map(
        (p: { id: string }) => p.id,
      ),
    ).toEqual([otherIds.plain]);
  });
});

// ------------------------------------------------------------------------------------------------
