import { describe, expect, it } from "vitest";
import type { Caps } from "../engine/caps.js";
import type { Simulator } from "../simulator.js";
import { fixture, postSignIn, token } from "../test-support/oauth.js";
import { call, makeSim } from "../test-support/sim.js";

// Spec, Limits: idempotency keys are "remembered 24 hours, per credential", and the rate limits count
// per credential, per address and credential, per address. docs/interfaces.md, Caps: what the spec
// promises per credential is bounded per sandbox, and the process-wide caps take only from the sandbox
// holding the most; failure windows are charged to the address (or the known credential) that failed,
// apart from the windows of real keys. Small caps reach every bound within a short stream.

/** A sandbox's store prefix and a way to call it with its `full` key. */
function sandboxStore(sim: Simulator) {
  const sandbox = sim.sandbox();
  const prefix = `demo-${sandbox.id}`;
  const auth = `Bearer ${sandbox.token(prefix, "full")}`;
  return {
    sandbox,
    prefix,
    send: (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      call(sim, method, `/${prefix}/v1${path}`, { auth, body, headers }),
  };
}

describe("Spec, Limits: one sandbox's idempotency records are never evicted by another's load", () => {
  const CAPS = {
    idempotencyRecords: 30,
    idempotencyBytes: 96 * 1024,
    idempotencyRecordsPerSandbox: 10,
    idempotencyBytesPerSandbox: 48 * 1024,
  } satisfies Partial<Caps>;

  it("after 40 batches in each of 4 other sandboxes (16x a sandbox's share, 5x the process's records), a retry in the quiet sandbox is replayed, not applied twice", async () => {
    const sim = makeSim({ caps: CAPS });
    const quiet = sandboxStore(sim);
    const stocked = async (store: typeof quiet) =>
      (
        (await store.send("GET", "/products?limit=100")).json.data as {
          id: string;
          has_inventory: boolean;
          has_variants: boolean;
        }[]
      )
        .filter((p) => p.has_inventory && !p.has_variants)
        .map((p) => p.id);
    const product = (await stocked(quiet))[0];
    const outlet = (await quiet.send("GET", "/outlets")).json.data[0].id;
    const reasons: { id: string; name: string }[] = (await quiet.send("GET", "/inventory/adjustment-reasons")).json
      .data;
    const reason = reasons.find((r) => r.name === "Stock received")?.id;
    const level = async () => (await quiet.send("GET", `/products/${product}/inventory`)).json.data;
    const batch = { lines: [{ product_id: product, outlet_id: outlet, adjust: { quantity: 1, reason_id: reason } }] };
    const retry = { "idempotency-key": "retry-me" };
    const first = await quiet.send("POST", "/inventory/batch", batch, retry);
    expect(first.status, first.text).toBe(200);
    const after = await level();

    for (let s = 0; s < 4; s++) {
      const busy = sandboxStore(sim);
      const lines = (await stocked(busy)).slice(0, 20).map((id) => ({
        product_id: id,
        outlet_id: outlet,
        set: { on_hand: 5 },
      }));
      for (let i = 0; i < 40; i++) {
        const reply = await busy.send("POST", "/inventory/batch", { lines }, { "idempotency-key": `load-${i}` });
        expect(reply.status, reply.text).toBe(200);
      }
      expect(busy.sandbox.world.idempotency.size).toBeLessThanOrEqual(CAPS.idempotencyRecordsPerSandbox);
    }
    const bounds = sim.world.bounds.idempotency;
    expect(bounds.records).toBeLessThanOrEqual(CAPS.idempotencyRecords);
    expect(bounds.bytes).toBeLessThanOrEqual(CAPS.idempotencyBytes);

    const again = await quiet.send("POST", "/inventory/batch", batch, retry);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    // The stored answer, its lines marked as replayed (spec, Inventory: batch replays); the stock as it was.
    expect(again.json).toEqual({ data: [{ ...first.json.data[0], replayed: true }] });
    expect(await level()).toEqual(after);
  });
});

describe("Spec, Limits: failures without a valid credential cost only the address that sent them", () => {
  const CAPS = { rateLimitKeys: 120, rateLimitKeysPerSandbox: 40, rateLimitKeysPerCaller: 4 } satisfies Partial<Caps>;
  const address = (i: number) => `10.77.${i >> 8}.${i & 255}`;

  /** 600 failures from 300 addresses: no credential, bogus keys, token-endpoint and sign-in failures. */
  async function flood(sim: Simulator, prefix: string): Promise<void> {
    const fx = await fixture(sim);
    for (let i = 0; i < 150; i++) {
      const from = address(i);
      const statuses = [
        (await call(sim, "GET", `/${prefix}/v1/me`, { auth: null, remoteAddress: from })).status,
        (await call(sim, "GET", `/${prefix}/v1/me`, { auth: `Bearer bogus-${i}`, remoteAddress: from })).status,
        (await token(sim, { grant_type: "client_credentials", client_id: `nobody-${i}` }, { remoteAddress: from }))
          .status,
        (await postSignIn(sim, fx, { email: `guess-${i}@demo.example`, password: "x" }, address(i + 150))).status,
      ];
      expect(statuses.filter((s) => s < 400 || s === 429)).toEqual([]);
    }
  }

  it("a key's 120 per minute and its 30 failures per address still end in 429 at the spec's limit, with floods in its own sandbox and another; a new key is not locked out", async () => {
    const sim = makeSim({ caps: CAPS });
    const other = sandboxStore(sim);
    const me = (key: string, from = "10.1.0.1") => call(sim, "GET", "/demo/v1/me", { key, remoteAddress: from });
    // Spec, Limits: 403 counts as failed authentication (per address and credential).
    const scopeFailure = () => call(sim, "GET", "/demo/v1/products", { key: "none", remoteAddress: "10.1.0.2" });
    for (let i = 0; i < 60; i++) expect((await me("read")).status).toBe(200);
    for (let i = 0; i < 15; i++) expect((await scopeFailure()).status).toBe(403);

    await flood(sim, "demo");
    await flood(sim, other.prefix);
    expect(sim.world.bounds.rateLimitWindows.size).toBeLessThanOrEqual(CAPS.rateLimitKeys);
    expect(sim.world.limits.size).toBeLessThanOrEqual(2 * CAPS.rateLimitKeysPerSandbox);

    for (let i = 0; i < 60; i++) expect((await me("read")).status).toBe(200);
    const limited = await me("read");
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe("RATE_LIMITED");
    for (let i = 0; i < 15; i++) expect((await scopeFailure()).status).toBe(403);
    expect((await scopeFailure()).status).toBe(429);

    sim.createKey("demo", { name: "fresh", scopes: ["catalog:read"] });
    expect((await me("fresh", "10.1.0.3")).status).toBe(200);
    expect((await other.send("GET", "/me")).status).toBe(200);
  });

  it("token-endpoint failures that lock out 70 addresses (past every cap on windows) lock out no key: a new key from a new address answers 200", async () => {
    const sim = makeSim({ caps: { rateLimitKeys: 60, rateLimitKeysPerSandbox: 20 } });
    for (let i = 0; i < 70; i++)
      for (let n = 0; n < 30; n++)
        await token(sim, { grant_type: "client_credentials", client_id: "nobody" }, { remoteAddress: address(i) });
    expect((await token(sim, { grant_type: "client_credentials" }, { remoteAddress: address(0) })).status).toBe(429);
    sim.createKey("demo", { name: "fresh", scopes: ["catalog:read"] });
    expect((await call(sim, "GET", "/demo/v1/me", { key: "fresh", remoteAddress: "10.1.0.9" })).status).toBe(200);
  });
});
