import { describe, expect, it } from "vitest";
import type { Snapshot } from "../../contract/schemas/snapshot.js";
import type { Simulator } from "../../simulator.js";
import { makeSim } from "../../test-support/sim.js";
import { furtherRequests, PUBLIC_URL, Wire, writeMix } from "../../test-support/snapshots.js";

// docs/interfaces.md, Snapshots: a snapshot restored into a fresh simulator answers the same requests with
// the same bytes (status, every header, body) as the simulator it was taken from, and taking a snapshot
// of the restored one gives the same document.

const text = (sim: Simulator) => JSON.stringify(sim.snapshot());

async function pair(): Promise<{
  a: Simulator;
  b: Simulator;
  ctx: Awaited<ReturnType<typeof writeMix>>;
  taken: string;
}> {
  const a = makeSim({ publicUrl: PUBLIC_URL });
  const ctx = await writeMix(new Wire(a));
  const taken = (await new Wire(a).control("GET", "/snapshot")).text;
  const b = makeSim({ publicUrl: PUBLIC_URL, fixture: JSON.parse(taken) as Snapshot });
  return { a, b, ctx, taken };
}

describe("docs/interfaces.md, Snapshots: the round trip is byte-identical", () => {
  it("after a scripted mix of writes, the restored simulator answers ~200 further requests with the same bytes", async () => {
    const { a, b, ctx } = await pair();
    const fromA = await furtherRequests(new Wire(a), ctx);
    const fromB = await furtherRequests(new Wire(b), ctx);
    expect(fromA.length).toBeGreaterThan(150);
    for (let i = 0; i < fromA.length; i++) expect(fromB[i], `exchange ${i}`).toBe(fromA[i]);
    expect(fromB).toHaveLength(fromA.length);
    // The script reached what it meant to: replays, a reused key, a used code, a 429, a fault, a lapsed record.
    const all = fromA.join("\n");
    expect(all).toContain("idempotent-replayed: true");
    expect(all).toContain('"code":"IDEMPOTENCY_KEY_REUSED"');
    expect(all).toContain('"error":"invalid_grant","error_description":"The code has been used."');
    expect(all).toContain('"code":"RATE_LIMITED"');
    expect(all).toContain("\n503\n");
    expect(all).toContain('"code":"IMAGE_FETCH_FAILED"');
    expect(all).toMatch(/POST \/oauth\/authorize\n302\n/);
    expect(text(b)).toBe(text(a));
  });

  it("snapshot, restore, snapshot: the same document; GET /_sim/snapshot and sim.snapshot() agree", async () => {
    const { a, b, taken } = await pair();
    expect(text(b)).toBe(taken);
    expect(text(a)).toBe(taken);
    const doc = JSON.parse(taken) as Snapshot;
    expect(doc.format).toBe("retail-sim/snapshot");
    expect(doc.version).toBe(1);
    expect(doc.sandbox).toBe("default");
    expect(doc.clock).toEqual({ mode: "manual", now: Date.parse("2026-01-01T01:01:30Z") });
    const demo = doc.stores[0] as Snapshot["stores"][number];
    expect(demo.catalog.products.some((r) => r.deleted_at !== null)).toBe(true);
    expect(demo.customers.customers.some((r) => r.deleted_at !== null && r.value.first_name === "Erased")).toBe(true);
    expect(doc.idempotency.length).toBeGreaterThan(5);
    expect(doc.rate_limits.length).toBeGreaterThan(0);
    expect(doc.oauth.codes).toHaveLength(2);
    expect(doc.oauth.sign_ins).toHaveLength(1);
    expect(doc.credentials.some((c) => c.kind === "access_token" && c.token === null)).toBe(true);
  });

  it("ids issued after a restore continue the seeded streams: the next product id is the one the original gives", async () => {
    const { a, b } = await pair();
    const body = { name: "Next", retail_price: 1 };
    const fromA = await new Wire(a).send("POST", "/demo/v1/products", { body });
    const fromB = await new Wire(b).send("POST", "/demo/v1/products", { body });
    expect(fromA.status).toBe(201);
    expect(fromB.json.data.id).toBe(fromA.json.data.id);
    // A simulator built from the seed alone names another product with it: ids derive from the seed and the history.
    const fresh = makeSim({ publicUrl: PUBLIC_URL });
    const fromFresh = await new Wire(fresh).send("POST", "/demo/v1/products", { body });
    expect(fromFresh.json.data.id).not.toBe(fromA.json.data.id);
  });

  it("POST /_sim/reset {fixture: snapshot} returns to it, and a plain reset then returns to that snapshot", async () => {
    const { a, taken } = await pair();
    const wire = new Wire(a);
    await wire.send("POST", "/demo/v1/products", { body: { name: "Later", retail_price: 1 } });
    await wire.control("POST", "/clock", { advance_seconds: 86_400 });
    expect(text(a)).not.toBe(taken);
    const reset = await wire.control("POST", "/reset", { fixture: JSON.parse(taken) });
    expect(reset.status).toBe(200);
    expect(text(a)).toBe(taken);
    const b = makeSim({ publicUrl: PUBLIC_URL, fixture: JSON.parse(taken) as Snapshot });
    await new Wire(b).send("POST", "/demo/v1/products", { body: { name: "Later", retail_price: 1 } });
    b.reset();
    expect(text(b)).toBe(taken);
    expect(b.clock.now()).toBe("2026-01-01T01:01:30.000Z");
  });
});
