// Tests of the spec's scope rules (retail-api-v1.md: Authentication, Scopes; Errors: INSUFFICIENT_SCOPE;
// Endpoints table) where no conformance rule holds the simulator (conformance/rules/scopes.ts holds the
// rest, its strict profile the simulator's own choices): the fixture keys, the control plane's key list,
// and the scope of the lists the spec leaves open. Written from the spec; the simulator is the thing under test.
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import type { Simulator } from "../../simulator.js";
import { expectError } from "../../test-support/errors.js";

const ALL_SCOPES = [
  "catalog:read",
  "catalog:write",
  "inventory:read",
  "inventory:write",
  "customers:read",
  "customers:write",
  "sales:read",
] as const;
const WRITE_SCOPES = ["catalog:write", "inventory:write", "customers:write"] as const;
const readOf = (write: string) => write.replace(/:write$/, ":read");
const sorted = (list: readonly string[]) => [...list].sort();

const demoKey = (sim: Simulator, name: string) =>
  sim
    .credentials()
    .stores.find((s) => s.prefix === "demo")!
    .keys.find((k) => k.name === name)!;

describe("Spec, Authentication (Scopes): GET /me, /store, /outlets, /payment-types, /taxes need no particular scope", () => {
  it("GET /me with the `none` key reports an empty scope list", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/me", { key: "none" });
    expect(reply.status).toBe(200);
    expect(reply.json.data.scopes).toEqual([]);
    expect(reply.json.data.key).toEqual({ id: demoKey(sim, "none").id, name: "none" });
  });
});

describe("Choice (Endpoints: openapi.json scope unspecified): GET /openapi.json needs a valid credential but no scope", () => {
  it("answers 200 with the `none` key", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/openapi.json", { key: "none" });
    expect(reply.status).toBe(200);
    expect(reply.json.openapi).toEqual(expect.any(String));
  });

  it("answers 401 UNAUTHORIZED without a credential", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/openapi.json", { auth: null });
    expect(reply.status).toBe(401);
    expect(reply.json).toStrictEqual({ error: { code: "UNAUTHORIZED", message: expect.any(String) } });
  });
});

describe("Choice (Authentication: adjustment-reasons scope not shown): GET /inventory/adjustment-reasons needs inventory:read", () => {
  const allowed = ["full", "read", "inventory:read", "inventory:write"];
  // The key of no scope: the strict profile of the conformance rule on scope-less endpoints holds it.
  const refused = ["catalog:read", "catalog:write", "customers:read", "customers:write", "sales:read"];

  it.each(allowed)("the fixture key `%s` answers 200", async (name) => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/inventory/adjustment-reasons", { key: name });
    expect(reply.status).toBe(200);
    expect(Array.isArray(reply.json.data)).toBe(true);
    expect(reply.json.data.length).toBeGreaterThan(0);
  });

  it.each(refused)("the fixture key `%s` answers 403 INSUFFICIENT_SCOPE", async (name) => {
    const sim = makeSim();
    expectError(
      await call(sim, "GET", "/demo/v1/inventory/adjustment-reasons", { key: name }),
      403,
      "INSUFFICIENT_SCOPE",
    );
  });

  it("a key created with every scope except the inventory ones answers 403 INSUFFICIENT_SCOPE", async () => {
    const sim = makeSim();
    const key = sim.createKey("demo", {
      name: "no-inventory",
      scopes: ALL_SCOPES.filter((s) => !s.startsWith("inventory:")),
    });
    expectError(
      await call(sim, "GET", "/demo/v1/inventory/adjustment-reasons", { auth: `Bearer ${key.token}` }),
      403,
      "INSUFFICIENT_SCOPE",
    );
  });
});

describe("Spec, Authentication (Scopes): a :write scope satisfies the matching :read", () => {
  it("a key created with only inventory:write answers 200 on GET /inventory/adjustment-reasons (needs inventory:read)", async () => {
    const sim = makeSim();
    const key = sim.createKey("demo", { name: "writer", scopes: ["inventory:write"] });
    const reply = await call(sim, "GET", "/demo/v1/inventory/adjustment-reasons", { auth: `Bearer ${key.token}` });
    expect(reply.status).toBe(200);
    expect(Array.isArray(reply.json.data)).toBe(true);
  });

  it("the same list answers alike for a key created with only inventory:read and one created with only inventory:write", async () => {
    const sim = makeSim();
    const reader = sim.createKey("demo", { name: "reader", scopes: ["inventory:read"] });
    const writer = sim.createKey("demo", { name: "writer", scopes: ["inventory:write"] });
    const a = await call(sim, "GET", "/demo/v1/inventory/adjustment-reasons", { auth: `Bearer ${reader.token}` });
    const b = await call(sim, "GET", "/demo/v1/inventory/adjustment-reasons", { auth: `Bearer ${writer.token}` });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.json).toEqual(a.json);
  });

  it.each(WRITE_SCOPES)("the fixture key `%s` is listed with its read scope too", (write) => {
    const sim = makeSim();
    const key = demoKey(sim, write);
    expect(key.scopes).toContain(write);
    expect(key.scopes).toContain(readOf(write));
  });

  it.each(WRITE_SCOPES)(
    "GET /me for the fixture key `%s` reports exactly the write scope and its read scope",
    async (write) => {
      const sim = makeSim();
      const reply = await call(sim, "GET", "/demo/v1/me", { key: write });
      expect(reply.status).toBe(200);
      expect(sorted(reply.json.data.scopes)).toEqual(sorted([readOf(write), write]));
    },
  );

  it("the fixture keys `full` and `read` report every scope and every read scope on GET /me", async () => {
    const sim = makeSim();
    const full = await call(sim, "GET", "/demo/v1/me", { key: "full" });
    const read = await call(sim, "GET", "/demo/v1/me", { key: "read" });
    expect(sorted(full.json.data.scopes)).toEqual(sorted(ALL_SCOPES));
    expect(sorted(read.json.data.scopes)).toEqual(sorted(ALL_SCOPES.filter((s) => s.endsWith(":read"))));
  });

  it.each(WRITE_SCOPES)("GET /me for a key created with only %s reports the implied read scope", async (write) => {
    const sim = makeSim();
    const key = sim.createKey("demo", { name: `only-${write}`, scopes: [write] });
    const reply = await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${key.token}` });
    expect(reply.status).toBe(200);
    expect(sorted(reply.json.data.scopes)).toEqual(sorted([readOf(write), write]));
    expect(reply.json.data.key).toEqual({ id: key.id, name: `only-${write}` });
  });

  it("Spec, Authentication 2 (ticking a write scope also ticks its read scope): the created key and the credential list show the read scope", () => {
    const sim = makeSim();
    const key = sim.createKey("demo", { name: "writer", scopes: ["inventory:write"] });
    expect(sorted(key.scopes)).toEqual(["inventory:read", "inventory:write"]);
    expect(sorted(demoKey(sim, "writer").scopes)).toEqual(["inventory:read", "inventory:write"]);
  });
});

describe("Spec, Errors: a call without the needed scope answers 403 INSUFFICIENT_SCOPE", () => {
  it('the envelope is exactly {error: {code: "INSUFFICIENT_SCOPE", message: <string>}} with no fields', async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/inventory/adjustment-reasons", { key: "sales:read" });
    expect(reply.status).toBe(403);
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    expect(Object.keys(reply.json)).toEqual(["error"]);
    expect(Object.keys(reply.json.error).sort()).toEqual(["code", "message"]);
    expectError(reply, 403, "INSUFFICIENT_SCOPE");
  });

  it("the refusal does not stop the key from calling scope-less endpoints", async () => {
    const sim = makeSim();
    expectError(
      await call(sim, "GET", "/demo/v1/inventory/adjustment-reasons", { key: "none" }),
      403,
      "INSUFFICIENT_SCOPE",
    );
    expect((await call(sim, "GET", "/demo/v1/me", { key: "none" })).status).toBe(200);
  });
});
