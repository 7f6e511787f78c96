import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Snapshot } from "../../contract/schemas/snapshot.js";
import type { Simulator } from "../../simulator.js";
import { fuzzParameters, fuzzTimeout } from "../../test-support/fuzz.js";
import { makeSim } from "../../test-support/sim.js";
import { PUBLIC_URL, Wire } from "../../test-support/snapshots.js";

// docs/interfaces.md, Snapshots, as a property: whatever mix of writes came first (products, stock, customers,
// erasures, sales, keys, clock moves, idempotency keys reused or not), the simulator restored from its snapshot
// answers the same probe with the same bytes, and its snapshot is the document it was restored from.

type Op =
  | { kind: "product"; name: number; key: number | null }
  | { kind: "rename"; target: number; name: number }
  | { kind: "delete"; target: number }
  | { kind: "stock"; target: number; outlet: number; amount: number; key: number }
  | { kind: "customer"; name: number; key: number | null }
  | { kind: "erase"; target: number }
  | { kind: "sale"; target: number; outlet: number; quantity: number }
  | { kind: "key"; revoke: boolean }
  | { kind: "clock"; seconds: number };

const small = fc.integer({ min: 0, max: 7 });
const key = fc.integer({ min: 0, max: 3 });
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("product" as const), name: small, key: fc.option(key, { nil: null }) }),
  fc.record({ kind: fc.constant("rename" as const), target: small, name: small }),
  fc.record({ kind: fc.constant("delete" as const), target: small }),
  fc.record({
    kind: fc.constant("stock" as const),
    target: small,
    outlet: fc.integer({ min: 0, max: 1 }),
    amount: fc.integer({ min: 0, max: 50_000 }).map((n) => n / 1000),
    key,
  }),
  fc.record({ kind: fc.constant("customer" as const), name: small, key: fc.option(key, { nil: null }) }),
  fc.record({ kind: fc.constant("erase" as const), target: small }),
  fc.record({
    kind: fc.constant("sale" as const),
    target: small,
    outlet: fc.integer({ min: 0, max: 1 }),
    quantity: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({ kind: fc.constant("key" as const), revoke: fc.boolean() }),
  fc.record({ kind: fc.constant("clock" as const), seconds: fc.integer({ min: 0, max: 100_000 }) }),
);

interface Made {
  outlets: string[];
  products: string[];
  customers: string[];
  keys: { id: string; token: string }[];
}

const pick = <T>(list: readonly T[], n: number): T | undefined =>
  list.length === 0 ? undefined : list[n % list.length];

async function apply(wire: Wire, made: Made, o: Op): Promise<void> {
  const keyed = (n: number | null): Record<string, string> => (n === null ? {} : { "idempotency-key": `k${n}` });
  const product = pick(made.products, "target" in o ? o.target : 0);
  if (o.kind === "product") {
    const sent = await wire.send("POST", "/demo/v1/products", {
      headers: keyed(o.key),
      body: { name: `P${o.name}`, retail_price: 100 + o.name },
    });
    if (sent.status === 201 && sent.headers.get("idempotent-replayed") === null) made.products.push(sent.json.data.id);
  } else if (o.kind === "rename" && product) {
    await wire.send("PATCH", `/demo/v1/products/${product}`, { body: { name: `R${o.name}` } });
  } else if (o.kind === "delete" && product) {
    await wire.send("DELETE", `/demo/v1/products/${product}`);
  } else if (o.kind === "stock" && product) {
    await wire.send("PUT", `/demo/v1/products/${product}/inventory/${made.outlets[o.outlet]}`, {
      headers: keyed(o.key),
      body: { on_hand: o.amount, unit_cost: 150 },
    });
  } else if (o.kind === "customer") {
    const sent = await wire.send("POST", "/demo/v1/customers", {
      headers: keyed(o.key),
      body: { first_name: `C${o.name}` },
    });
    if (sent.status === 201 && sent.headers.get("idempotent-replayed") === null) made.customers.push(sent.json.data.id);
  } else if (o.kind === "erase") {
    const customer = pick(made.customers, o.target);
    if (customer) await wire.send("DELETE", `/demo/v1/customers/${customer}`);
  } else if (o.kind === "sale" && product) {
    await wire.control("POST", "/stores/demo/sales", {
      outlet_id: made.outlets[o.outlet],
      lines: [{ product_id: product, quantity: o.quantity, unit_price: 500 }],
    });
  } else if (o.kind === "key") {
    const last = made.keys.at(-1);
    if (o.revoke && last) await wire.control("POST", `/keys/${last.id}/revoke`);
    else
      made.keys.push((await wire.control("POST", "/stores/demo/keys", { name: "p", scopes: ["catalog:read"] })).json);
  } else if (o.kind === "clock") {
    await wire.control("POST", "/clock", { advance_seconds: o.seconds });
  }
}

/** The same requests to any simulator after the mix: every list, the made rows, each key, replays, new ids. */
async function probe(sim: Simulator, made: Made, ops: readonly Op[]): Promise<string[]> {
  const wire = new Wire(sim);
  for (const list of ["products?include_deleted=true&limit=200", "customers?include_deleted=true", "sales?order=desc"])
    await wire.send("GET", `/demo/v1/${list}`);
  for (const id of made.products) await wire.send("GET", `/demo/v1/products/${id}/inventory`);
  for (const k of made.keys) await wire.send("GET", "/demo/v1/me", { token: k.token });
  for (const o of ops.slice(0, 6))
    await apply(
      wire,
      { ...made, products: [...made.products], customers: [...made.customers], keys: [...made.keys] },
      o,
    );
  await wire.send("POST", "/demo/v1/products", { body: { name: "Probe", retail_price: 1 } });
  return wire.transcript;
}

describe("docs/interfaces.md, Snapshots: the round trip holds after any mix of writes", () => {
  it(
    "a restored simulator answers a probe with the same bytes, and its snapshot is the one restored",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
          const a = makeSim({ publicUrl: PUBLIC_URL });
          const wire = new Wire(a);
          const outlets = (await wire.send("GET", "/demo/v1/outlets")).json.data.map((o: { id: string }) => o.id);
          const made: Made = { outlets, products: [], customers: [], keys: [] };
          for (const o of ops) await apply(wire, made, o);
          const taken = JSON.stringify(a.snapshot());
          const b = makeSim({ publicUrl: PUBLIC_URL, fixture: JSON.parse(taken) as Snapshot });
          expect(JSON.stringify(b.snapshot())).toBe(taken);
          expect(await probe(b, made, ops)).toEqual(await probe(a, made, ops));
          expect(JSON.stringify(b.snapshot())).toBe(JSON.stringify(a.snapshot()));
        }),
        fuzzParameters(12, 1717),
      );
    },
    fuzzTimeout(12, 1500),
  );
});
