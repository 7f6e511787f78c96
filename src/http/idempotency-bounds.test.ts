import { describe, expect, it } from "vitest";
import { IDEMPOTENCY_TTL_MS } from "../engine/idempotency.js";
import type { Simulator } from "../simulator.js";
import { call, makeSim } from "../test-support/sim.js";

// Spec, Limits: idempotency keys are "remembered 24 hours, per credential". The records are bounded
// (docs/interfaces.md, Caps; docs/spec-choices.md, Idempotency): a lapsed record is gone at the next
// request, the oldest go first past a cap and the key then reads as new, and a sandbox reset or
// removed gives its records back to the process.

const product = (sim: Simulator, key: string, prefix = "demo") =>
  call(sim, "POST", `/${prefix}/v1/products`, {
    body: { name: `P ${key}`, retail_price: 100 },
    headers: { "idempotency-key": key },
  });

describe("Spec, Limits: idempotency records are bounded", () => {
  it("a lapsed record is freed by the next request, a GET included, and its key is new again", async () => {
    const sim = makeSim();
    const made = await product(sim, "k1");
    expect(made.status).toBe(201);
    expect(sim.world.idempotency.size).toBe(1);
    sim.clock.advance(IDEMPOTENCY_TTL_MS / 1000 - 1);
    expect((await call(sim, "GET", "/demo/v1/me")).status).toBe(200);
    expect(sim.world.idempotency.size).toBe(1);
    sim.clock.advance(1);
    expect((await call(sim, "GET", "/demo/v1/me")).status).toBe(200);
    expect(sim.world.idempotency.size).toBe(0);
    expect(sim.world.bounds.idempotency.records).toBe(0);
    const again = await product(sim, "k1");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(again.json.data.id).not.toBe(made.json.data.id);
  });

  it("past idempotencyRecordsPerCredential the oldest record goes: its retry runs again; the newer ones replay", async () => {
    const sim = makeSim({ caps: { idempotencyRecordsPerCredential: 2 } });
    const first = await product(sim, "k1");
    const second = await product(sim, "k2");
    const third = await product(sim, "k3");
    expect(sim.world.idempotency.size).toBe(2);
    const replayed = await product(sim, "k3");
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.text).toBe(third.text);
    expect((await product(sim, "k2")).text).toBe(second.text);
    const rerun = await product(sim, "k1");
    expect(rerun.status).toBe(201);
    expect(rerun.headers.get("idempotent-replayed")).toBeNull();
    expect(rerun.json.data.id).not.toBe(first.json.data.id);
    // Another credential of the store has its own records.
    const mine = await call(sim, "POST", "/demo/v1/products", {
      key: "catalog:write",
      body: { name: "Other", retail_price: 1 },
      headers: { "idempotency-key": "k1" },
    });
    expect(mine.status).toBe(201);
    expect(sim.world.idempotency.size).toBe(3);
  });

  it("an answer larger than idempotencyBytesPerCredential is not kept: its retry runs again", async () => {
    const sim = makeSim({ caps: { idempotencyBytesPerCredential: 600 } });
    const big = { name: "x".repeat(255), retail_price: 100 };
    const headers = { "idempotency-key": "big" };
    const first = await call(sim, "POST", "/demo/v1/products", { body: big, headers });
    expect(first.status).toBe(201);
    expect(first.text.length).toBeGreaterThan(600);
    expect(sim.world.idempotency.size).toBe(0);
    const again = await call(sim, "POST", "/demo/v1/products", { body: big, headers });
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(again.json.data.id).not.toBe(first.json.data.id);
  });

  it("every sandbox counts toward the process's caps: past one, the sandbox holding the most lets its own oldest go; one removed or reset gives its records back", async () => {
    const sim = makeSim({ caps: { idempotencyRecords: 3 } });
    const sandbox = sim.sandbox();
    const prefix = `demo-${sandbox.id}`;
    const inSandbox = (key: string) =>
      call(sim, "POST", `/${prefix}/v1/products`, {
        auth: `Bearer ${sandbox.token(prefix, "full")}`,
        body: { name: key, retail_price: 1 },
        headers: { "idempotency-key": key },
      });
    await product(sim, "main-1");
    for (const key of ["sb-1", "sb-2", "sb-3"]) expect((await inSandbox(key)).status).toBe(201);
    // The sandbox held the most: its own oldest went, not the main world's older record.
    expect(sim.world.bounds.idempotency.records).toBe(3);
    expect(sim.world.idempotency.size).toBe(1);
    expect(sandbox.world.idempotency.records().map((r) => r.key)).toEqual(["sb-2", "sb-3"]);
    sandbox.reset();
    expect(sim.world.bounds.idempotency.records).toBe(1);
    await inSandbox("sb-4");
    await product(sim, "main-2");
    expect(sim.world.bounds.idempotency.records).toBe(3);
    sandbox.remove();
    expect(sim.world.bounds.idempotency.records).toBe(2);
    sim.reset();
    expect(sim.world.bounds.idempotency.records).toBe(0);
  });
});
