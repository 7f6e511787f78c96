import { describe, expect, it } from "vitest";
import type { Snapshot } from "../../contract/schemas/snapshot.js";
import { ControlError, createSimulator } from "../../simulator.js";
import { FixtureError } from "../../../scenarios/fixtures/index.js";
import { expectError } from "../../test-support/errors.js";
import { makeSim } from "../../test-support/sim.js";
import { manyFaults, PUBLIC_URL, Wire } from "../../test-support/snapshots.js";
import { CAPS } from "../catalog/product-collections.js";
import { MAX_FAULTS } from "../faults.js";
import { MAX_AUTHORIZE_PARAM } from "../auth/oauth.js";

// docs/interfaces.md, Snapshots: a snapshot is checked against its schema (contract/schemas/snapshot.ts) and
// against what the restored world relies on; a malformed one answers 400 VALIDATION_FAILED naming each
// problem under `fixture`, and nothing changes (the world, the sandboxes, the ids they take).

const fresh = () => makeSim({ publicUrl: PUBLIC_URL });
const snapshotOf = (sim = fresh()): Snapshot => JSON.parse(JSON.stringify(sim.snapshot()));
const demoOf = (doc: Snapshot) => doc.stores[0] as Snapshot["stores"][number];

/** A simulator holding two products, each made under its own Idempotency-Key (two records of one credential). */
async function twoKeyedProducts() {
  const source = fresh();
  const wire = new Wire(source);
  for (const key of ["k1", "k2"])
    await wire.send("POST", "/demo/v1/products", {
      body: { name: key, retail_price: 1 },
      headers: { "idempotency-key": key },
    });
  return source;
}

/** Each broken snapshot and the field its refusal names. */
const BROKEN: [string, (doc: Snapshot) => unknown, string][] = [
  ["another version", (doc) => ({ ...doc, version: 2 }), "fixture.version"],
  ["an unknown property", (doc) => ({ ...doc, extra: true }), "fixture.extra"],
  ["no stores", (doc) => ({ ...doc, stores: [] }), "fixture.stores"],
  [
    "a stream word out of range",
    (doc) => ({ ...doc, random: { ...doc.random, ids: [1, 2, 3, -4] } }),
    "fixture.random.ids.3",
  ],
  [
    "a product without its sku",
    (doc) => {
      const row = demoOf(doc).catalog.products[0] as { value: { sku?: string } };
      delete row.value.sku;
      return doc;
    },
    "fixture.stores.0.catalog.products.0.value.sku",
  ],
  [
    "an upper-case id",
    (doc) => (((demoOf(doc).outlets[0] as any).value.id = "ABC"), doc),
    "fixture.stores.0.outlets.0.value.id",
  ],
  ["rows out of change order", (doc) => (demoOf(doc).taxes.reverse(), doc), "fixture.stores.0.taxes.1.seq"],
  ["a version above the sequence", (doc) => ((demoOf(doc).last_seq = 3), doc), "fixture.stores.0.outlets.0.seq"],
  [
    "a row twice",
    (doc) => (demoOf(doc).taxes.push(demoOf(doc).taxes[0] as never), doc),
    "fixture.stores.0.taxes.2.value.id",
  ],
  [
    "a missing system reason",
    (doc) => (demoOf(doc).adjustment_reasons.splice(0, 1), doc),
    "fixture.stores.0.system_reason_id",
  ],
  [
    "a key of no store",
    (doc) => (((doc.credentials[0] as any).store_prefix = "nowhere"), doc),
    "fixture.credentials.0.store_prefix",
  ],
  [
    "a store prefix twice",
    (doc) => (((doc.stores[1] as any).settings.prefix = "demo"), doc),
    "fixture.stores.1.settings.prefix",
  ],
  // docs/spec-choices.md, Restored documents: the caps and invariants of live operation.
  [
    "two live products with one sku, in another case (spec, Errors: CONFLICT, SKU in use)",
    (doc) => {
      const [a, b] = demoOf(doc).catalog.products;
      (b as Row).value.sku = (a as Row).value.sku.toLowerCase();
      return doc;
    },
    "fixture.stores.0.catalog.products.1.value.sku",
  ],
  [
    "two live brands with one name (spec, Errors: CONFLICT, duplicate brand name)",
    (doc) => (((demoOf(doc).catalog.brands[1] as any).value.name = demoOf(doc).catalog.brands[0]?.value.name), doc),
    "fixture.stores.0.catalog.brands.1.value.name",
  ],
  [
    "two variant children with one combination (spec, Product write rules 9)",
    (doc) => {
      const products = demoOf(doc).catalog.products;
      const children = products.filter((r) => r.value.variant_parent_id !== null);
      const twin = children.find(
        (r) => r.value.variant_parent_id === children[0]?.value.variant_parent_id && r !== children[0],
      );
      (twin as Row).value.variant_options = (children[0] as Row).value.variant_options;
      return doc;
    },
    "fixture.stores.0.catalog.products.5.value.variant_options",
  ],
  [
    "a product with 21 tags (spec, Product: at most 20)",
    (doc) => {
      const product = (demoOf(doc).catalog.products[0] as Row).value;
      product.tag_ids = Array.from({ length: CAPS.tags + 1 }, () => product.tag_ids[0] as string);
      return doc;
    },
    "fixture.stores.0.catalog.products.0.value.tags",
  ],
  [
    "a live product of a brand that is not there",
    (doc) => (((demoOf(doc).catalog.products[0] as Row).value.brand_id = "00000000-0000-4000-8000-000000000000"), doc),
    "fixture.stores.0.catalog.products.0.value.brand_id",
  ],
  [
    "a pending sign-in with a parameter longer than /oauth/authorize takes",
    (doc) => {
      const params = { client_id: "c".repeat(MAX_AUTHORIZE_PARAM + 1) };
      doc.oauth.sign_ins.push({
        ticket: "t",
        user_id: (doc.users[0] as any).id,
        expires_at: doc.clock.now + 60_000,
        params,
      });
      return doc;
    },
    "fixture.oauth.sign_ins.0.params.client_id",
  ],
  [
    `${MAX_FAULTS + 1} faults (docs/interfaces.md, Control plane: at most ${MAX_FAULTS})`,
    (doc) => ((doc.faults = manyFaults(MAX_FAULTS + 1)), doc),
    "fixture.faults.list",
  ],
];

type Row = Snapshot["stores"][number]["catalog"]["products"][number];

describe("docs/interfaces.md, Snapshots: a malformed snapshot is refused", () => {
  it.each(BROKEN)(
    "POST /_sim/reset with %s: 400 VALIDATION_FAILED naming it; nothing changes",
    async (_, breakIt, field) => {
      const sim = fresh();
      const wire = new Wire(sim);
      await wire.send("POST", "/demo/v1/products", { body: { name: "Kept", retail_price: 1 } });
      const before = JSON.stringify(sim.snapshot());
      const reply = await wire.control("POST", "/reset", { fixture: breakIt(snapshotOf()) });
      expectError(reply, 400, "VALIDATION_FAILED", { includes: field });
      expect(JSON.stringify(sim.snapshot())).toBe(before);
    },
  );

  it("POST /_sim/sandboxes with a malformed snapshot: 400, no sandbox made, and the next one is still sb1", async () => {
    const sim = fresh();
    const wire = new Wire(sim);
    const broken = snapshotOf();
    demoOf(broken).last_seq = 1;
    expectError(await wire.control("POST", "/sandboxes", { fixture: broken }), 400, "VALIDATION_FAILED", {
      includes: "fixture.stores.0.outlets.0.seq",
    });
    expect((await wire.control("GET", "/sandboxes")).json).toEqual([]);
    expect((await wire.control("POST", "/sandboxes", {})).json.id).toBe("sb1");
  });

  it("an authored fixture whose references are broken answers 400 too (it used to fail inside the reset)", async () => {
    const wire = new Wire(fresh());
    const fixture = {
      stores: [
        {
          prefix: "a",
          name: "A",
          taxes: [{ name: "T", rate: 0.1 }],
          outlets: [{ name: "O" }],
          payment_types: [],
          adjustment_reasons: [],
          keys: [],
        },
      ],
      users: [{ email: "a@b.example", store_prefix: "nowhere", role: "admin" }],
      oauth_clients: [],
    };
    expectError(
      await wire.control("POST", "/reset", { fixture }),
      400,
      "VALIDATION_FAILED",
      "fixture.users.0.store_prefix",
    );
    expectError(
      await wire.control("POST", "/sandboxes", { fixture }),
      400,
      "VALIDATION_FAILED",
      "fixture.users.0.store_prefix",
    );
  });

  it("a snapshot with 500,000 faults is refused whole, naming the list, and nothing changes (the library's reset)", () => {
    const sim = fresh();
    const before = JSON.stringify(sim.snapshot());
    const doc = snapshotOf();
    doc.faults = manyFaults(500_000);
    let thrown: unknown;
    try {
      sim.reset({ fixture: doc });
    } catch (error) {
      thrown = error;
    }
    expect((thrown as ControlError).error.code).toBe("VALIDATION_FAILED");
    expect((thrown as ControlError).error.fields).toEqual([
      { field: "fixture.faults.list", message: `500000 faults: at most ${MAX_FAULTS}` },
    ]);
    expect(JSON.stringify(sim.snapshot())).toBe(before);
  });

  it("every problem is named, each bound checked under the process's caps (caps.idempotencyRecordsPerCredential)", async () => {
    const source = await twoKeyedProducts();
    const doc = snapshotOf(source);
    const [a, b] = demoOf(doc).catalog.products;
    (b as Row).value.sku = (a as Row).value.sku;
    const reply = await new Wire(
      makeSim({ publicUrl: PUBLIC_URL, caps: { idempotencyRecordsPerCredential: 1 } }),
    ).control("POST", "/sandboxes", { fixture: doc });
    expectError(reply, 400, "VALIDATION_FAILED", "any");
    expect(reply.json.error.fields.map((f: { field: string }) => f.field)).toEqual([
      "fixture.stores.0.catalog.products.1.value.sku",
      "fixture.idempotency",
    ]);
  });

  it("idempotency records are counted in bytes as the idempotency store counts them (caps.idempotencyBytes)", async () => {
    const source = fresh();
    await new Wire(source).send("POST", "/demo/v1/products", {
      body: { name: "Keyed", retail_price: 1 },
      headers: { "idempotency-key": "k1" },
    });
    const reply = await new Wire(makeSim({ publicUrl: PUBLIC_URL, caps: { idempotencyBytes: 500 } })).control(
      "POST",
      "/reset",
      { fixture: snapshotOf(source) },
    );
    expectError(reply, 400, "VALIDATION_FAILED", "fixture.idempotency");
    expect(reply.json.error.fields[0].message).toMatch(/^\d+ bytes of idempotency records: at most 500$/);
  });

  it("a snapshot is one sandbox: its idempotency records within the per-sandbox caps (caps.idempotencyRecordsPerSandbox, caps.idempotencyBytesPerSandbox)", async () => {
    const source = await twoKeyedProducts();
    const doc = snapshotOf(source);
    const byCount = await new Wire(
      makeSim({ publicUrl: PUBLIC_URL, caps: { idempotencyRecordsPerSandbox: 1 } }),
    ).control("POST", "/reset", { fixture: doc });
    expectError(byCount, 400, "VALIDATION_FAILED", "fixture.idempotency");
    expect(byCount.json.error.fields[0].message).toBe("2 idempotency records: at most 1");
    const byBytes = await new Wire(
      makeSim({ publicUrl: PUBLIC_URL, caps: { idempotencyBytesPerSandbox: 500 } }),
    ).control("POST", "/reset", { fixture: doc });
    expectError(byBytes, 400, "VALIDATION_FAILED", "fixture.idempotency");
    expect(byBytes.json.error.fields[0].message).toMatch(/^\d+ bytes of idempotency records: at most 500$/);
  });

  it("the library: reset throws a ControlError, createSimulator a FixtureError naming the field", () => {
    const sim = fresh();
    const broken = { ...snapshotOf(), version: 9 } as unknown as Snapshot;
    let thrown: unknown;
    try {
      sim.reset({ fixture: broken });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ControlError);
    expect((thrown as ControlError).error.code).toBe("VALIDATION_FAILED");
    expect((thrown as ControlError).error.fields?.map((f) => f.field)).toContain("fixture.version");
    expect(() => createSimulator({ fixture: broken })).toThrow(FixtureError);
    expect(() => createSimulator({ fixture: broken })).toThrow("invalid snapshot: version: expected 1");
  });
});
