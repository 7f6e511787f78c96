import { describe, expect, it } from "vitest";
import { call, makeSim, ORIGIN } from "../test-support/sim.js";
import type { Simulator } from "../simulator.js";

// interfaces.md section 3: the /_sim control plane. JSON in and out; bad input gets 400 with the envelope.

async function control(sim: Simulator, method: string, path: string, body?: unknown) {
  const res = await sim.fetch(`${ORIGIN}/_sim${path}`, {
    method,
    headers: method === "GET" ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

describe("interfaces.md 3: health and credentials", () => {
  it("GET /_sim/health answers {status: ok}", async () => {
    expect(await control(makeSim(), "GET", "/health")).toEqual({ status: 200, json: { status: "ok" } });
  });

  it("GET /_sim/credentials lists stores with base URLs and keys, OAuth clients and users", async () => {
    const { status, json } = await control(makeSim(), "GET", "/credentials");
    expect(status).toBe(200);
    expect(json.api_root).toBe(ORIGIN);
    expect(json.auth_url).toBe(ORIGIN);
    expect(json.stores.map((s: { prefix: string }) => s.prefix)).toEqual(["demo", "other", "lite"]);
    const demo = json.stores[0];
    expect(demo.base_url).toBe(`${ORIGIN}/demo/v1`);
    expect(demo.keys.map((k: { name: string }) => k.name)).toEqual([
      "full",
      "read",
      "catalog:read",
      "catalog:write",
      "inventory:read",
      "inventory:write",
      "customers:read",
      "customers:write",
      "sales:read",
      "none",
    ]);
    expect(demo.keys.find((k: { name: string }) => k.name === "read").scopes).toEqual([
      "catalog:read",
      "inventory:read",
      "customers:read",
      "sales:read",
    ]);
    expect(demo.keys.find((k: { name: string }) => k.name === "none").scopes).toEqual([]);
    expect(json.stores[1].keys.map((k: { name: string }) => k.name)).toEqual(["full"]);
    expect(json.stores[2]).toMatchObject({ prefix: "lite", plan: "lite" });
    expect(json.oauth_clients).toHaveLength(1);
    expect(json.oauth_clients[0].client_id).toMatch(/^rsc_/);
    expect(json.oauth_clients[0].redirect_uris.length).toBeGreaterThan(0);
    expect(
      json.users.map((u: { email: string; role: string; store_prefix: string; plan: string }) => [
        u.store_prefix,
        u.role,
        u.plan,
      ]),
    ).toEqual([
      ["demo", "admin", "growth"],
      ["demo", "user", "growth"],
      ["other", "admin", "growth"],
      ["lite", "admin", "lite"],
    ]);
  });
});

describe("interfaces.md 3: the clock", () => {
  it("GET shows now; advance_seconds moves it; set moves it to a later time", async () => {
    const sim = makeSim();
    expect((await control(sim, "GET", "/clock")).json).toEqual({ now: "2026-01-01T00:00:00.000Z" });
    expect((await control(sim, "POST", "/clock", { advance_seconds: 90 })).json).toEqual({
      now: "2026-01-01T00:01:30.000Z",
    });
    expect((await control(sim, "POST", "/clock", { set: "2026-06-01T12:00:00Z" })).json).toEqual({
      now: "2026-06-01T12:00:00.000Z",
    });
  });

  it("a time earlier than now answers 400 and leaves the clock", async () => {
    const sim = makeSim();
    sim.clock.advance(3600);
    const res = await control(sim, "POST", "/clock", { set: "2026-01-01T00:00:00Z" });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_FAILED");
    expect(res.json.error.fields).toEqual([
      { field: "set", message: "is earlier than the simulator's now (2026-01-01T01:00:00.000Z)" },
    ]);
    expect(sim.clock.now()).toBe("2026-01-01T01:00:00.000Z");
  });

  it.each([
    [{}],
    [{ advance_seconds: -1 }],
    [{ set: "2026-06-01T12:00:00+02:00" }],
    [{ advance_seconds: 1, set: "2027-01-01T00:00:00Z" }],
    ["not json"],
  ])("bad input %j answers 400 VALIDATION_FAILED", async (body) => {
    const res = await control(makeSim(), "POST", "/clock", body);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_FAILED");
  });
});

describe("interfaces.md 3: the clock's last instant (docs/spec-choices.md, Control plane and fixtures)", () => {
  const past = { message: "would put the clock past its last instant, 9999-01-01T00:00:00.000Z" };

  it("a move past it answers 400 naming the field and changes nothing; the clock, writes and snapshots work after", async () => {
    const sim = makeSim();
    const step = { advance_seconds: 3153600000 };
    let moves = 0;
    while ((await control(sim, "POST", "/clock", step)).status === 200) moves += 1;
    expect(moves).toBe(79);
    const at = sim.clock.now();
    expect(at).toBe("9920-10-04T00:00:00.000Z");
    const refused = await control(sim, "POST", "/clock", step);
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe("VALIDATION_FAILED");
    expect(refused.json.error.fields).toEqual([{ field: "advance_seconds", ...past }]);
    expect((await control(sim, "POST", "/clock", { set: "9999-01-01T00:00:00.001Z" })).json.error.fields).toEqual([
      { field: "set", ...past },
    ]);
    expect(sim.clock.now()).toBe(at);
    // The last instant itself is reached; not a millisecond past it, by any way the clock moves.
    expect(sim.clock.set("9999-01-01T00:00:00Z")).toBe("9999-01-01T00:00:00.000Z");
    expect((await control(sim, "POST", "/clock", { advance_seconds: 0.001 })).status).toBe(400);
    expect(() => sim.clock.advance(1)).toThrow(past.message);
    expect(sim.clock.now()).toBe("9999-01-01T00:00:00.000Z");

    // The fixture's keys went idle for 90 days on the way: a new one.
    const key = await control(sim, "POST", "/stores/demo/keys", { name: "last", scopes: ["catalog:write"] });
    const auth = `Bearer ${key.json.token}`;
    const created = await call(sim, "POST", "/demo/v1/products", {
      auth,
      body: { name: "Last", retail_price: 100 },
      headers: { "idempotency-key": "last-1" },
    });
    expect(created.status).toBe(201);
    expect(created.json.data.created_at).toBe("9999-01-01T00:00:00.000Z");
    const snapshot = sim.snapshot();
    expect((await control(sim, "POST", "/reset", { fixture: snapshot })).status).toBe(200);
    expect(sim.clock.now()).toBe("9999-01-01T00:00:00.000Z");
    expect((await call(sim, "GET", `/demo/v1/products/${created.json.data.id}`, { auth })).json.data.name).toBe("Last");
  });

  it("a snapshot, a sandbox or a simulator starting past it (or a snapshot before the first instant) is refused", async () => {
    const sim = makeSim();
    const snapshot = sim.snapshot();
    const late = { ...snapshot, clock: { ...snapshot.clock, now: Date.parse("9999-01-01T00:00:00.001Z") } };
    const reset = await control(sim, "POST", "/reset", { fixture: late });
    expect(reset.status).toBe(400);
    expect(reset.json.error.fields).toEqual([{ field: "fixture.clock.now", ...past }]);
    const early = { ...snapshot, clock: { ...snapshot.clock, now: -8.64e15 } };
    expect((await control(sim, "POST", "/reset", { fixture: early })).json.error.fields).toEqual([
      { field: "fixture.clock.now", message: "is before the clock's first instant, 0000-01-01T00:00:00.000Z" },
    ]);
    const sandbox = await control(sim, "POST", "/sandboxes", { now: "9999-06-01T00:00:00Z" });
    expect(sandbox.status).toBe(400);
    expect(sandbox.json.error.fields).toEqual([{ field: "now", ...past }]);
    expect((await control(sim, "GET", "/sandboxes")).json).toEqual([]);
    expect(() => makeSim({ now: "9999-06-01T00:00:00Z" })).toThrow(past.message);
    expect(sim.clock.now()).toBe("2026-01-01T00:00:00.000Z");
  });
});

describe("interfaces.md 3: keys and revoke", () => {
  it("creates a key whose write scope ticks its read scope, and it works at once", async () => {
    const sim = makeSim();
    const res = await control(sim, "POST", "/stores/demo/keys", { name: "ci", scopes: ["catalog:write"] });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: "ci", scopes: ["catalog:read", "catalog:write"] });
    expect(res.json.token).toMatch(/^rsk_[0-9A-Za-z]{40}$/);
    const me = await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${res.json.token}` });
    expect(me.json.data.key).toEqual({ id: res.json.id, name: "ci" });
  });

  it("revoke answers {id, state: revoked} and the key stops at once", async () => {
    const sim = makeSim();
    const key = sim.credentials().stores[0]!.keys[0]!;
    expect((await control(sim, "POST", `/keys/${key.id}/revoke`)).json).toEqual({ id: key.id, state: "revoked" });
    const me = await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${key.token}` });
    expect(me.status).toBe(401);
  });

  it("unknown store or key answers 404; a bad scope answers 400", async () => {
    const sim = makeSim();
    expect((await control(sim, "POST", "/stores/nope/keys", { name: "x", scopes: [] })).status).toBe(404);
    expect((await control(sim, "POST", "/keys/00000000-0000-4000-8000-000000000000/revoke")).status).toBe(404);
    const bad = await control(sim, "POST", "/stores/demo/keys", { name: "x", scopes: ["sales:write"] });
    expect(bad.status).toBe(400);
    expect(bad.json.error.fields[0].field).toBe("scopes.0");
  });
});

describe("interfaces.md 3: store patch", () => {
  it("sets plan, status and product_limit and answers the control view", async () => {
    const sim = makeSim();
    const res = await control(sim, "PATCH", "/stores/demo", { plan: "lite", status: "paused", product_limit: 10 });
    expect(res).toEqual({
      status: 200,
      json: { prefix: "demo", name: "Demo Outfitters", plan: "lite", status: "paused", product_limit: 10 },
    });
    expect((await call(sim, "GET", "/demo/v1/me")).json.error.code).toBe("RETAILER_PAUSED");
  });

  it("refuses unknown values and properties with 400", async () => {
    const sim = makeSim();
    expect((await control(sim, "PATCH", "/stores/demo", { status: "frozen" })).status).toBe(400);
    expect((await control(sim, "PATCH", "/stores/demo", { color: "red" })).status).toBe(400);
    expect((await control(sim, "PATCH", "/stores/nope", { plan: "growth" })).status).toBe(404);
  });
});

describe("interfaces.md 3: reset", () => {
  it("restores the state right after start: keys, revocations, store states and the clock", async () => {
    const sim = makeSim();
    const before = sim.credentials();
    sim.createKey("demo", { name: "extra", scopes: [] });
    sim.revokeKey(before.stores[0]!.keys[0]!.id);
    sim.patchStore("demo", { status: "suspended" });
    sim.clock.advance(86_400);
    const res = await control(sim, "POST", "/reset", {});
    expect(res.status).toBe(200);
    expect(sim.credentials()).toEqual(before);
    expect(sim.clock.now()).toBe("2026-01-01T00:00:00.000Z");
    expect((await call(sim, "GET", "/demo/v1/me")).status).toBe(200);
  });

  it("with a seed, credentials derive from that seed again", async () => {
    const sim = makeSim();
    const seed1 = sim.credentials().stores[0]!.keys[0]!.token;
    await control(sim, "POST", "/reset", { seed: 2 });
    const seed2 = sim.credentials().stores[0]!.keys[0]!.token;
    expect(seed2).not.toBe(seed1);
    expect(seed2).toBe(makeSim({ seed: 2 }).credentials().stores[0]!.keys[0]!.token);
  });

  it("with the empty fixture, each store keeps its keys and has only minimal reference data", async () => {
    const sim = makeSim();
    await control(sim, "POST", "/reset", { fixture: "empty" });
    const outlets = await call(sim, "GET", "/demo/v1/outlets");
    expect(outlets.json.data.map((o: { name: string }) => o.name)).toEqual(["Main Store"]);
  });

  it("bad input answers 400", async () => {
    const sim = makeSim();
    expect((await control(sim, "POST", "/reset", { seed: -1 })).status).toBe(400);
    expect((await control(sim, "POST", "/reset", { fixture: "/etc/passwd" })).status).toBe(400);
  });
});

describe("interfaces.md 3: faults", () => {
  it("answers matching requests with the status and code, `times` times, then stops", async () => {
    const sim = makeSim();
    const added = await control(sim, "POST", "/faults", { method: "GET", path: "/demo/v1/me", status: 503, times: 2 });
    expect(added.status).toBe(201);
    expect(added.json).toMatchObject({
      method: "GET",
      path: "/demo/v1/me",
      status: 503,
      code: "INTERNAL",
      times: 2,
      remaining: 2,
    });
    for (let i = 0; i < 2; i++) {
      const res = await call(sim, "GET", "/demo/v1/me");
      expect(res.status).toBe(503);
      expect(res.json.error.code).toBe("INTERNAL");
    }
    expect((await call(sim, "GET", "/demo/v1/me")).status).toBe(200);
    expect((await control(sim, "GET", "/faults")).json).toEqual([]);
  });

  it("a trailing * matches a path prefix; other paths and methods pass; DELETE clears", async () => {
    const sim = makeSim();
    await control(sim, "POST", "/faults", { path: "/demo/v1/inv*", status: 429 });
    const hit = await call(sim, "GET", "/demo/v1/inventory/adjustment-reasons");
    expect(hit.status).toBe(429);
    expect(hit.json.error.code).toBe("RATE_LIMITED");
    expect(hit.headers.get("retry-after")).toBe("1");
    expect((await call(sim, "GET", "/demo/v1/outlets")).status).toBe(200);
    expect((await control(sim, "DELETE", "/faults")).status).toBe(204);
    expect((await call(sim, "GET", "/demo/v1/inventory/adjustment-reasons")).status).toBe(200);
  });

  it("a delay-only fault waits (through the injected sleep) and then processes the request", async () => {
    const waits: number[] = [];
    const sim = makeSim({ sleep: async (ms) => void waits.push(ms) });
    await control(sim, "POST", "/faults", { delay_ms: 250, times: 1 });
    expect((await call(sim, "GET", "/demo/v1/me")).status).toBe(200);
    expect(waits).toEqual([250]);
  });

  it("a code outside the catalog, or neither status nor delay, answers 400", async () => {
    const sim = makeSim();
    expect((await control(sim, "POST", "/faults", { status: 500, code: "NOPE" })).status).toBe(400);
    expect((await control(sim, "POST", "/faults", { path: "/x" })).status).toBe(400);
  });

  it("faults never touch the control plane", async () => {
    const sim = makeSim();
    await control(sim, "POST", "/faults", { status: 500 });
    expect((await control(sim, "GET", "/health")).status).toBe(200);
  });
});

describe("interfaces.md 1: --no-control serves no /_sim", () => {
  it("every control route answers 404 NOT_FOUND", async () => {
    const sim = makeSim({ control: false });
    const res = await control(sim, "GET", "/health");
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("NOT_FOUND");
  });
});

describe("interfaces.md 3: unknown control routes", () => {
  it("answer 404 with the envelope", async () => {
    const res = await control(makeSim(), "GET", "/nope");
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("NOT_FOUND");
  });
});
