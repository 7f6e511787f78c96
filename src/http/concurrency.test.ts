// Concurrency and faults, against the spec (retail-api-v1.md):
// - Limits, Idempotency paragraph: "Processing in progress answers 409 IDEMPOTENCY_IN_PROGRESS"; "A retry
//   with the same key and same body returns the same status and data with header Idempotent-Replayed:
//   true"; "A 500 is not remembered".
// - Product write rules / Errors: STALE_VERSION (409) for an outdated `expected_version`.
// - Inventory rules 5: INSUFFICIENT_STOCK (would go below zero).
// - Limits: "Concurrent image downloads: shared across the API; a busy moment answers 429 RATE_LIMITED
//   with nothing written".
// The control plane's hold fault (interfaces.md, POST /_sim/faults, extended: docs/spec-choices.md)
// keeps requests in flight together, so these are real interleavings, not requests one after another.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../simulator.js";
import { call, makeSim } from "../test-support/sim.js";
import { control, demo, stockOf } from "../test-support/inventory.js";
import type { Listening } from "./node.js";
import { fuzzParameters, fuzzTimeout } from "../test-support/fuzz.js";
import { expectError } from "../test-support/errors.js";

const json = { "content-type": "application/json" };

async function addHold(sim: Simulator, body: Record<string, unknown>): Promise<number> {
  const reply = await control(sim, "POST", "/faults", { hold: true, ...body });
  expect(reply.status).toBe(201);
  expect(reply.json).toMatchObject({ hold: true, held: 0 });
  return reply.json.id as number;
}

async function released(sim: Simulator, id: number, count: number): Promise<void> {
  const reply = await control(sim, "POST", `/faults/${id}/release`);
  expect(reply.status).toBe(200);
  expect(reply.json).toStrictEqual({ id, released: count });
}

const createProduct = (sim: Simulator, body: Record<string, unknown>, key?: string) =>
  call(sim, "POST", "/demo/v1/products", { body, headers: key === undefined ? {} : { "Idempotency-Key": key } });

async function productsWithSku(sim: Simulator, sku: string): Promise<number> {
  const reply = await call(sim, "GET", `/demo/v1/products?sku=${encodeURIComponent(sku)}`);
  expect(reply.status).toBe(200);
  return reply.json.data.length;
}

describe("Control plane: a hold fault keeps matching requests in flight until released (interfaces.md, extended)", () => {
  it("the fault lists how many requests it holds; release answers how many went on; the held request then completes normally", async () => {
    const sim = makeSim();
    const id = await addHold(sim, { method: "POST", path: "/demo/v1/products", times: 1 });
    const pending = createProduct(sim, { name: "Held item", sku: "HELD-1", retail_price: 100 });
    await sim.world.faults.whenHeld(id);
    expect((await control(sim, "GET", "/faults")).json).toStrictEqual([
      {
        id,
        method: "POST",
        path: "/demo/v1/products",
        status: null,
        code: null,
        times: 1,
        remaining: 0,
        delay_ms: 0,
        after_commit: false,
        hold: true,
        held: 1,
      },
    ]);
    await released(sim, id, 1);
    const reply = await pending;
    expect(reply.status).toBe(201);
    expect(reply.json.data.sku).toBe("HELD-1");
    // A used-up hold fault is gone once it holds nothing.
    expect((await control(sim, "GET", "/faults")).json).toStrictEqual([]);
  });

  it("DELETE /_sim/faults releases every held request; a reset lets held requests go on too", async () => {
    const sim = makeSim();
    await addHold(sim, { method: "POST" });
    const a = createProduct(sim, { name: "A", sku: "HOLD-A", retail_price: 100 });
    const b = createProduct(sim, { name: "B", sku: "HOLD-B", retail_price: 100 });
    await sim.world.faults.whenHeld(1, 2);
    expect((await control(sim, "DELETE", "/faults")).status).toBe(204);
    expect((await Promise.all([a, b])).map((r) => r.status)).toEqual([201, 201]);
    await addHold(sim, { method: "POST" });
    const c = createProduct(sim, { name: "C", sku: "HOLD-C", retail_price: 100 });
    await sim.world.faults.whenHeld(2);
    expect((await control(sim, "POST", "/reset", {})).status).toBe(200);
    expect((await c).status).toBe(201);
  });

  it("bad fault input answers 400 VALIDATION_FAILED naming the field; releasing an unknown fault answers 404 NOT_FOUND", async () => {
    const sim = makeSim();
    for (const [body, field] of [
      [{ hold: true, status: 503 }, "status"],
      [{ hold: true, delay_ms: 10 }, "delay_ms"],
      [{ hold: true, after_commit: true }, "after_commit"],
      [{ after_commit: true }, "status"],
    ] as const) {
      const reply = await control(sim, "POST", "/faults", body);
      expect(reply.status).toBe(400);
      expect(reply.json).toStrictEqual({
        error: {
          code: "VALIDATION_FAILED",
          message: expect.any(String),
          fields: [{ field, message: expect.any(String) }],
        },
      });
    }
    for (const id of ["99", "abc"]) {
      const reply = await control(sim, "POST", `/faults/${id}/release`);
      expect(reply.status).toBe(404);
      expect(reply.json).toStrictEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
    }
  });
});

describe("Spec, Limits (Idempotency): requests with the same Idempotency-Key make exactly one write", () => {
  it("while the first is held, every retry with the same key answers 409 IDEMPOTENCY_IN_PROGRESS; after it, retries replay it", async () => {
    const sim = makeSim();
    const id = await addHold(sim, { method: "POST", path: "/demo/v1/products", times: 1 });
    const body = { name: "Once only", sku: "ONCE-1", retail_price: 250 };
    const first = createProduct(sim, body, "same-key");
    await sim.world.faults.whenHeld(id);
    const during = await Promise.all(Array.from({ length: 8 }, () => createProduct(sim, body, "same-key")));
    for (const reply of during) expectError(reply, 409, "IDEMPOTENCY_IN_PROGRESS");
    await released(sim, id, 1);
    const original = await first;
    expect(original.status).toBe(201);
    expect(original.headers.get("idempotent-replayed")).toBeNull();
    const after = await Promise.all(Array.from({ length: 5 }, () => createProduct(sim, body, "same-key")));
    for (const reply of after) {
      expect(reply.status).toBe(201);
      expect(reply.headers.get("idempotent-replayed")).toBe("true");
      expect(reply.json).toStrictEqual(original.json);
    }
    expect(await productsWithSku(sim, "ONCE-1")).toBe(1);
  });

  it(
    "for any number of concurrent same-key requests (some held), exactly one write; the others replay it or answer 409 IDEMPOTENCY_IN_PROGRESS",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 0, max: 3 }), async (count, holds) => {
          const sim = makeSim();
          const id =
            holds > 0 ? await addHold(sim, { method: "POST", path: "/demo/v1/products", times: holds }) : undefined;
          const body = { name: "Raced", sku: "RACE-1", retail_price: 300 };
          const replies = Array.from({ length: count }, () => createProduct(sim, body, "race-key"));
          if (id !== undefined) {
            await sim.world.faults.whenHeld(id, 1);
            await released(sim, id, 1);
          }
          const all = await Promise.all(replies);
          const fresh = all.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null);
          expect(fresh).toHaveLength(1);
          for (const reply of all) {
            if (reply === fresh[0]) continue;
            if (reply.status === 409) expectError(reply, 409, "IDEMPOTENCY_IN_PROGRESS");
            else {
              expect(reply.status).toBe(201);
              expect(reply.headers.get("idempotent-replayed")).toBe("true");
              expect(reply.json).toStrictEqual(fresh[0]!.json);
            }
          }
          expect(await productsWithSku(sim, "RACE-1")).toBe(1);
        }),
        fuzzParameters(25, 1001, 0.05),
      );
    },
    fuzzTimeout(25, 40, 0.05),
  );
});

describe("Spec, Errors: STALE_VERSION, concurrent PATCH with the same expected_version", () => {
  it(
    "of N PATCHes in flight together with the same expected_version exactly one wins; the others answer 409 STALE_VERSION",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 2, max: 10 }), async (count) => {
          const sim = makeSim();
          const created = await createProduct(sim, { name: "Contested", sku: "CONTEST-1", retail_price: 100 });
          const { id: productId, version } = created.json.data;
          const hold = await addHold(sim, { method: "PATCH", path: `/demo/v1/products/${productId}` });
          const replies = Array.from({ length: count }, (_, i) =>
            call(sim, "PATCH", `/demo/v1/products/${productId}`, {
              body: { expected_version: version, retail_price: 1_000 + i },
            }),
          );
          await sim.world.faults.whenHeld(hold, count);
          await released(sim, hold, count);
          const all = await Promise.all(replies);
          const winners = all.filter((r) => r.status === 200);
          expect(winners).toHaveLength(1);
          for (const reply of all) if (reply !== winners[0]) expectError(reply, 409, "STALE_VERSION");
          const now = await call(sim, "GET", `/demo/v1/products/${productId}`);
          expect(now.json.data.retail_price).toBe(winners[0]!.json.data.retail_price);
          expect(now.json.data.version).toBe(winners[0]!.json.data.version);
        }),
        fuzzParameters(15, 1002, 0.05),
      );
    },
    fuzzTimeout(15, 60, 0.05),
  );
});

describe("Spec, Inventory rules 5: concurrent adjustments conserve stock and never go below zero", () => {
  it(
    "any set of increases and decreases in flight together: on_hand ends at the start plus the accepted ones; refusals are INSUFFICIENT_STOCK",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 20 }),
          fc.array(
            fc.integer({ min: -6, max: 6 }).filter((q) => q !== 0),
            { minLength: 1, maxLength: 16 },
          ),
          async (start, deltas) => {
            const d = await demo();
            const product = d.product["MUG-ENAMEL"];
            expect(
              (
                await call(d.sim, "PUT", `/demo/v1/products/${product}/inventory/${d.main}`, {
                  body: { on_hand: start },
                })
              ).status,
            ).toBe(200);
            const hold = await addHold(d.sim, { method: "POST", path: "/demo/v1/inventory/adjustments" });
            const replies = deltas.map((quantity, i) =>
              call(d.sim, "POST", "/demo/v1/inventory/adjustments", {
                body: {
                  product_id: product,
                  outlet_id: d.main,
                  quantity,
                  reason_id: quantity > 0 ? d.reason["Stock received"] : d.reason["Damaged"],
                },
                headers: { "Idempotency-Key": `adj-${i}` },
              }),
            );
            await d.sim.world.faults.whenHeld(hold, deltas.length);
            await released(d.sim, hold, deltas.length);
            const all = await Promise.all(replies);
            let expected = start;
            all.forEach((reply, i) => {
              const quantity = deltas[i]!;
              if (reply.status === 201 || reply.status === 200) expected += quantity;
              else {
                expectError(reply, 422, "INSUFFICIENT_STOCK", "quantity");
                expect(quantity).toBeLessThan(0);
              }
            });
            expect(expected).toBeGreaterThanOrEqual(0);
            expect((await stockOf(d, product, d.main)).on_hand).toBe(expected);
          },
        ),
        fuzzParameters(20, 1003, 0.05),
      );
    },
    fuzzTimeout(20, 80, 0.05),
  );
});

describe("Spec, Limits: a busy image download answers 429 RATE_LIMITED with nothing written", () => {
  it("while an image write is held mid-download, another image write is refused busy; writes without an image go on; after release both kinds work", async () => {
    const sim = makeSim();
    const hold = await addHold(sim, { method: "POST", path: "/demo/v1/products", times: 1 });
    const held = createProduct(sim, {
      name: "Pictured",
      sku: "PIC-1",
      retail_price: 100,
      image_url: "https://images.example/one.png",
    });
    await sim.world.faults.whenHeld(hold);
    const busy = await createProduct(sim, {
      name: "Also pictured",
      sku: "PIC-2",
      retail_price: 100,
      image_url: "https://images.example/two.png",
    });
    expectError(busy, 429, "RATE_LIMITED");
    expect(busy.headers.get("retry-after")).toBe("1");
    expect(await productsWithSku(sim, "PIC-2")).toBe(0);
    const plain = await createProduct(sim, { name: "No picture", sku: "PLAIN-1", retail_price: 100 });
    expect(plain.status).toBe(201);
    await released(sim, hold, 1);
    const first = await held;
    expect(first.status).toBe(201);
    expect(first.json.data.image_url).toMatch(/^http:\/\/sim\.test\/images\/[0-9a-f-]{36}\/original\.png$/);
    const again = await createProduct(sim, {
      name: "Also pictured",
      sku: "PIC-2",
      retail_price: 100,
      image_url: "https://images.example/two.png",
    });
    expect(again.status).toBe(201);
  });

  it("a held write without an image, or with the service's own stored image, takes no download slot", async () => {
    const sim = makeSim();
    const first = await createProduct(sim, {
      name: "Source",
      sku: "SRC-1",
      retail_price: 100,
      image_url: "https://images.example/src.png",
    });
    expect(first.status).toBe(201);
    const hold = await addHold(sim, { method: "POST", path: "/demo/v1/products", times: 1 });
    const held = createProduct(sim, {
      name: "Reuses",
      sku: "REUSE-1",
      retail_price: 100,
      image_url: first.json.data.image_url,
    });
    await sim.world.faults.whenHeld(hold);
    const other = await createProduct(sim, {
      name: "Downloads",
      sku: "DL-1",
      retail_price: 100,
      image_url: "https://images.example/dl.png",
    });
    expect(other.status).toBe(201);
    await released(sim, hold, 1);
    expect((await held).status).toBe(201);
  });
});

describe("Faults (interfaces.md): a fault that answers after the write is committed; spec, Limits: a 500 is not remembered", () => {
  it("after_commit: the client sees 500 INTERNAL, the product exists, and a retry with the same key replays the real 201", async () => {
    const sim = makeSim();
    const fault = await control(sim, "POST", "/faults", {
      method: "POST",
      path: "/demo/v1/products",
      status: 500,
      after_commit: true,
      times: 1,
    });
    expect(fault.status).toBe(201);
    expect(fault.json).toMatchObject({ status: 500, code: "INTERNAL", after_commit: true, hold: false, remaining: 1 });
    const body = { name: "Committed", sku: "COMMIT-1", retail_price: 700 };
    const lost = await createProduct(sim, body, "retry-me");
    expect(lost.status).toBe(500);
    expect(lost.json).toStrictEqual({ error: { code: "INTERNAL", message: expect.stringContaining("processed") } });
    expect(lost.headers.get("ratelimit")).toMatch(/^limit=120, remaining=\d+, reset=\d+$/);
    expect(await productsWithSku(sim, "COMMIT-1")).toBe(1);
    const retry = await createProduct(sim, body, "retry-me");
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.json.data.sku).toBe("COMMIT-1");
    expect(await productsWithSku(sim, "COMMIT-1")).toBe(1);
  });

  it("after_commit without a key: the write happened, so a blind retry collides with it (why SDKs send keys)", async () => {
    const sim = makeSim();
    await control(sim, "POST", "/faults", {
      method: "POST",
      path: "/demo/v1/tags",
      status: 500,
      after_commit: true,
      times: 1,
    });
    const lost = await call(sim, "POST", "/demo/v1/tags", { body: { name: "Lost answer" } });
    expect(lost.status).toBe(500);
    const retry = await call(sim, "POST", "/demo/v1/tags", { body: { name: "Lost answer" } });
    // The first write happened: the same name now collides (spec, Errors: CONFLICT for a duplicate tag name).
    expectError(retry, 409, "CONFLICT", "name");
  });

  it("an injected 500 before processing writes nothing and is not remembered: the retry with the same key is processed", async () => {
    const sim = makeSim();
    await control(sim, "POST", "/faults", { method: "POST", path: "/demo/v1/products", status: 500, times: 1 });
    const body = { name: "Retried", sku: "RETRY-1", retail_price: 700 };
    const failed = await createProduct(sim, body, "k-500");
    expectError(failed, 500, "INTERNAL");
    expect(await productsWithSku(sim, "RETRY-1")).toBe(0);
    const retry = await createProduct(sim, body, "k-500");
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBeNull();
  });
});

describe("Spec, Limits (Idempotency paragraph) over HTTP: concurrent requests through the node adapter", () => {
  let sim: Simulator;
  let server: Listening;
  beforeAll(async () => {
    sim = makeSim();
    server = await sim.listen(0, "127.0.0.1");
  });
  afterAll(() => sim.close());

  it("20 concurrent POST /products with one Idempotency-Key over sockets: one write, every answer the same product", async () => {
    const token = sim.token("demo", "full");
    const body = JSON.stringify({ name: "Socket race", sku: "SOCK-RACE", retail_price: 100 });
    const replies = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${server.url}/demo/v1/products`, {
          method: "POST",
          headers: { ...json, authorization: `Bearer ${token}`, "idempotency-key": "sock" },
          body,
        }).then(async (r) => ({
          status: r.status,
          replayed: r.headers.get("idempotent-replayed"),
          json: (await r.json()) as { error?: { code: string } },
        })),
      ),
    );
    const fresh = replies.filter((r) => r.replayed === null);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.status).toBe(201);
    for (const r of replies) {
      if (r.status === 409) expect(r.json.error?.code).toBe("IDEMPOTENCY_IN_PROGRESS");
      else expect(r.json).toStrictEqual(fresh[0]!.json);
    }
    expect(await productsWithSku(sim, "SOCK-RACE")).toBe(1);
  });
});
