import { describe, expect, it } from "vitest";
import type { Caps } from "../engine/caps.js";
import type { Simulator } from "../simulator.js";
import { heapAfterGc, median, probeAlongside, timeProbe } from "../test-support/abuse.js";
import { call, makeSim } from "../test-support/sim.js";

// Abuse of the idempotency records and the error answers (spec, Limits: Idempotency-Key; spec, Errors;
// docs/interfaces.md, Caps), in process: a client within the rate limits sends what costs the most to
// keep. Each test holds the bounds at every step (records and bytes, per credential and in the process,
// read from the store), the heap after garbage collection within a stated figure, and a GET /me
// running beside the stream as fast as its baseline taken alone in the same test, by a generous ratio.

/** Small caps, so the bounds are reached within a short stream. */
const CAPS = {
  idempotencyRecords: 40,
  idempotencyBytes: 256 * 1024,
  idempotencyRecordsPerCredential: 25,
  idempotencyBytesPerCredential: 128 * 1024,
} satisfies Partial<Caps>;

/**
 * How much the heap may grow beyond the records' byte cap: compiled validators, code, rows written.
 * Measured: under 1 MB for both streams; each stream stores more than this and the cap together.
 */
const HEAP_SLACK = 6 * 1024 * 1024;

/** How much slower GET /me may be beside the stream than alone (medians; measured: about 1.1). */
const SLOWER_AT_MOST = 5;

function expectWithinCaps(sim: Simulator, credentials: readonly string[]): void {
  const process = sim.world.bounds.idempotency;
  expect(process.records).toBeLessThanOrEqual(CAPS.idempotencyRecords);
  expect(process.bytes).toBeLessThanOrEqual(CAPS.idempotencyBytes);
  for (const id of credentials) {
    const usage = sim.world.idempotency.usage(id);
    expect(usage.records).toBeLessThanOrEqual(CAPS.idempotencyRecordsPerCredential);
    expect(usage.bytes).toBeLessThanOrEqual(CAPS.idempotencyBytesPerCredential);
  }
}

/** The credential id (the pipeline's key for idempotency records) of a store key by name. */
function credentialId(sim: Simulator, keyName: string): string {
  const key = sim.world.credentials.forStore("demo").find((c) => c.name === keyName);
  if (!key) throw new Error(`no key ${keyName}`);
  return key.id;
}

const me = (sim: Simulator, key: string) => async () => {
  const reply = await call(sim, "GET", "/demo/v1/me", { key });
  expect(reply.status).toBe(200);
};

/** A product create with 100,000 unknown four-character properties: about 900 KB. */
function hugeBody(): string {
  const parts = ['"name":"x"', '"retail_price":100'];
  for (let i = 0; i < 100_000; i++) parts.push(`"${i.toString(36).padStart(4, "0")}":1`);
  return `{${parts.join(",")}}`;
}

describe("Abuse: idempotency records and error answers stay bounded", () => {
  it("the 100,000-key body, sent again and again with fresh Idempotency-Keys", async () => {
    const sim = makeSim({ caps: CAPS });
    const raw = hugeBody();
    const abuser = "catalog:write";
    const probe = me(sim, "read");
    // Warm up both routes (compiling their validators), then the baselines.
    await call(sim, "POST", "/demo/v1/products", { key: abuser, raw, headers: { "idempotency-key": "warm" } });
    await timeProbe(probe, 20);
    const baseline = median(await timeProbe(probe, 30));
    const heapBefore = await heapAfterGc();

    let largest = 0;
    const beside = await probeAlongside(
      20,
      async (i) => {
        const reply = await call(sim, "POST", "/demo/v1/products", {
          key: abuser,
          raw,
          headers: { "idempotency-key": `huge-${i}` },
        });
        expect(reply.status).toBe(400);
        expect(reply.json.error.fields).toHaveLength(101);
        largest = Math.max(largest, reply.text.length);
        expectWithinCaps(sim, [credentialId(sim, abuser)]);
      },
      probe,
      20,
    );
    // Each answer (and its record) is about 8 KB, not 8 MB; the credential's records stop at its byte cap.
    expect(largest).toBeLessThan(12 * 1024);
    expect(sim.world.idempotency.usage(credentialId(sim, abuser)).records).toBe(15);
    expect((await heapAfterGc()) - heapBefore).toBeLessThan(CAPS.idempotencyBytes + HEAP_SLACK);
    expect(median(beside)).toBeLessThan(SLOWER_AT_MOST * baseline);
  }, 60_000);

  it("a frozen manual clock and a stream of unique keys: batch writes from several credentials", async () => {
    const sim = makeSim({ caps: CAPS });
    const keys = ["a", "b", "c", "d", "e"].map((name) => {
      sim.createKey("demo", { name: `abuser-${name}`, scopes: ["inventory:write"] });
      return `abuser-${name}`;
    });
    const outlets = (await call(sim, "GET", "/demo/v1/outlets")).json.data.map((o: { id: string }) => o.id);
    // 50 products at 2 outlets: batches of 100 lines, whose answers are about 17 KB each.
    const products: string[] = [];
    for (let i = 0; i < 50; i++) {
      const made = await call(sim, "POST", "/demo/v1/products", { body: { name: `Stock ${i}`, retail_price: 100 } });
      expect(made.status).toBe(201);
      products.push(made.json.data.id);
    }
    const lines = products.flatMap((id) =>
      outlets.map((outlet: string) => ({ product_id: id, outlet_id: outlet, set: { on_hand: 5 } })),
    );
    expect(lines).toHaveLength(100);
    const probe = me(sim, "read");
    await timeProbe(probe, 10);
    const baseline = median(await timeProbe(probe, 30));
    const heapBefore = await heapAfterGc();
    const start = sim.clock.now();

    let stored = 0;
    // 100 batches per credential: within the spec's 120 a minute, on a clock that never moves.
    const beside = await probeAlongside(
      500,
      async (i) => {
        const key = keys[i % keys.length] as string;
        const reply = await call(sim, "POST", "/demo/v1/inventory/batch", {
          key,
          body: { lines },
          headers: { "idempotency-key": `batch-${i}` },
        });
        expect(reply.status, reply.text).toBe(200);
        stored += reply.text.length;
        expectWithinCaps(
          sim,
          keys.map((k) => credentialId(sim, k)),
        );
      },
      probe,
      60,
    );
    expect(sim.clock.now()).toBe(start);
    // The stream stored far more than the caps: the oldest went first.
    expect(stored).toBeGreaterThan(CAPS.idempotencyBytes + HEAP_SLACK);
    // The process's byte cap is what stopped them: full within one answer's size.
    expect(sim.world.bounds.idempotency.bytes).toBeGreaterThan(CAPS.idempotencyBytes - 20 * 1024);
    expect((await heapAfterGc()) - heapBefore).toBeLessThan(CAPS.idempotencyBytes + HEAP_SLACK);
    expect(median(beside)).toBeLessThan(SLOWER_AT_MOST * baseline);
  }, 60_000);
});
