// Tests of the spec's authentication rules (retail-api-v1.md: Authentication, States and transitions:
// Credential, Errors: UNAUTHORIZED) where no conformance rule holds the simulator (conformance/rules/auth/
// and stores.ts hold the rest, their strict profile the simulator's own choices): every operation, the
// header forms, and the 90-day boundary to the second. Written from the spec; the simulator is the thing
// under test.
import { describe, expect, it } from "vitest";
import { call, makeSim, type Reply } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";

const DAY = 24 * 60 * 60;

const expectUnauthorized = (reply: Reply) => expectError(reply, 401, "UNAUTHORIZED");

/** Every API operation that exists now, each answering 200 for the `full` key. */
const OPERATIONS = [
  "/me",
  "/store",
  "/outlets",
  "/payment-types",
  "/taxes",
  "/inventory/adjustment-reasons",
  "/openapi.json",
];

describe("Spec, Authentication 1 / Errors: a missing credential answers 401 UNAUTHORIZED", () => {
  it.each(OPERATIONS)("GET %s without an Authorization header answers 401 UNAUTHORIZED", async (path) => {
    const sim = makeSim();
    expectUnauthorized(await call(sim, "GET", `/demo/v1${path}`, { auth: null }));
  });

  it('the 401 envelope is exactly {error: {code: "UNAUTHORIZED", message: <string>}} with no fields', async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/me", { auth: null });
    expect(reply.status).toBe(401);
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    expect(reply.json).toStrictEqual({ error: { code: "UNAUTHORIZED", message: expect.any(String) } });
    expect(reply.json.error).not.toHaveProperty("fields");
  });

  it("an empty Authorization header answers 401 UNAUTHORIZED", async () => {
    const sim = makeSim();
    expectUnauthorized(await call(sim, "GET", "/demo/v1/me", { auth: "" }));
  });
});

describe("Spec, Authentication 1 / Errors: a malformed Authorization header answers 401 UNAUTHORIZED", () => {
  // Each shape carries the valid `full` token where it can, so the refusal is due to the shape alone.
  const shapes: [string, (token: string) => string][] = [
    ["Basic scheme (`Basic x`)", () => "Basic x"],
    ["Basic scheme carrying the real token", (t) => `Basic ${t}`],
    ["`Bearer` alone", () => "Bearer"],
    ["a token containing a space", (t) => `Bearer ${t} extra`],
    ["a token split by a space", (t) => `Bearer ${t.slice(0, 8)} ${t.slice(8)}`],
    ["the bare token with no scheme", (t) => t],
  ];

  it.each(shapes)("%s answers 401 UNAUTHORIZED", async (_name, shape) => {
    const sim = makeSim();
    const auth = shape(sim.token("demo", "full"));
    expectUnauthorized(await call(sim, "GET", "/demo/v1/me", { auth }));
  });

  // RFC 9110 11.1 and RFC 6750 2.1: the scheme is case-insensitive and one or more spaces follow it.
  it.each([
    ["lower-case scheme", (t: string) => `bearer ${t}`],
    ["upper-case scheme", (t: string) => `BEARER ${t}`],
    ["two spaces after the scheme", (t: string) => `Bearer  ${t}`],
  ])("%s is well formed (RFC 6750) and answers 200", async (_name, shape) => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/me", { auth: shape(sim.token("demo", "full")) });
    expect(reply.status).toBe(200);
  });

  it("the well-formed header with the same token answers 200 (control for the shapes above)", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${sim.token("demo", "full")}` });
    expect(reply.status).toBe(200);
  });
});

describe("Spec, Errors: an unknown credential answers 401 UNAUTHORIZED", () => {
  it.each(OPERATIONS)("GET %s with a well-formed but unknown token answers 401 UNAUTHORIZED", async (path) => {
    const sim = makeSim();
    const reply = await call(sim, "GET", `/demo/v1${path}`, {
      auth: "Bearer rsk_thisTokenWasNeverIssuedByTheStore0000000",
    });
    expectUnauthorized(reply);
  });

  it("a real token with one character changed answers 401 UNAUTHORIZED", async () => {
    const sim = makeSim();
    const token = sim.token("demo", "full");
    const last = token.at(-1) === "A" ? "B" : "A";
    expectUnauthorized(await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${token.slice(0, -1)}${last}` }));
  });

  it("the token of a key under another name of the same store (control): `read` answers 200", async () => {
    const sim = makeSim();
    expect((await call(sim, "GET", "/demo/v1/me", { key: "read" })).status).toBe(200);
  });
});

describe("Spec, States and transitions (Credential: active -> revoked): a revoked key stops immediately", () => {
  it.each(OPERATIONS)("a revoked key answers 401 UNAUTHORIZED on GET %s", async (path) => {
    const sim = makeSim();
    const token = sim.token("demo", "full");
    const id = sim
      .credentials()
      .stores.find((s) => s.prefix === "demo")!
      .keys.find((k) => k.name === "full")!.id;
    sim.revokeKey(id);
    expectUnauthorized(await call(sim, "GET", `/demo/v1${path}`, { auth: `Bearer ${token}` }));
  });

  it("a key created through the control function and then revoked answers 401; other keys keep working", async () => {
    const sim = makeSim();
    const created = sim.createKey("demo", { name: "temp", scopes: [] });
    expect((await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${created.token}` })).status).toBe(200);
    sim.revokeKey(created.id);
    expectUnauthorized(await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${created.token}` }));
    expectUnauthorized(await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${created.token}` }));
    expect((await call(sim, "GET", "/demo/v1/me", { key: "full" })).status).toBe(200);
    expect((await call(sim, "GET", "/other/v1/me", { key: "full" })).status).toBe(200);
  });

  it("a revoked key stays revoked as time passes", async () => {
    const sim = makeSim();
    const created = sim.createKey("demo", { name: "temp", scopes: [] });
    sim.revokeKey(created.id);
    sim.clock.advance(DAY);
    expectUnauthorized(await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${created.token}` }));
  });
});

describe("Spec, States and transitions (Credential: active -> expired): no request for 90 days", () => {
  it("a used key that is idle for 90 days and 1 second answers 401 UNAUTHORIZED", async () => {
    const sim = makeSim();
    expect((await call(sim, "GET", "/demo/v1/me", { key: "read" })).status).toBe(200);
    sim.clock.advance(90 * DAY + 1);
    const reply = await call(sim, "GET", "/demo/v1/me", { key: "read" });
    expectUnauthorized(reply);
    expect(reply.json).toStrictEqual({ error: { code: "UNAUTHORIZED", message: expect.any(String) } });
  });

  it("a used key that is idle for exactly 90 days still works", async () => {
    const sim = makeSim();
    expect((await call(sim, "GET", "/demo/v1/me", { key: "read" })).status).toBe(200);
    sim.clock.advance(90 * DAY);
    expect((await call(sim, "GET", "/demo/v1/me", { key: "read" })).status).toBe(200);
  });

  it("an expired key stays expired: the refused request does not count as use", async () => {
    const sim = makeSim();
    expect((await call(sim, "GET", "/demo/v1/me", { key: "read" })).status).toBe(200);
    sim.clock.advance(90 * DAY + 1);
    expectUnauthorized(await call(sim, "GET", "/demo/v1/me", { key: "read" }));
    expectUnauthorized(await call(sim, "GET", "/demo/v1/me", { key: "read" }));
    sim.clock.advance(60);
    expectUnauthorized(await call(sim, "GET", "/demo/v1/store", { key: "read" }));
  });

  it("a never-used key counts from its creation, not from the simulator's start: created on day 10, it still works on day 100", async () => {
    const sim = makeSim();
    sim.clock.advance(10 * DAY);
    const created = sim.createKey("demo", { name: "late", scopes: [] });
    sim.clock.advance(90 * DAY);
    expect((await call(sim, "GET", "/demo/v1/me", { auth: `Bearer ${created.token}` })).status).toBe(200);
  });
});

describe("Spec, Authentication (store prefix) / choice: a credential used under another store's prefix answers 401 UNAUTHORIZED", () => {
  it.each(OPERATIONS)("the demo `full` key on GET /other/v1%s answers 401 UNAUTHORIZED", async (path) => {
    const sim = makeSim();
    expectUnauthorized(await call(sim, "GET", `/other/v1${path}`, { store: "demo", key: "full" }));
  });

  it("the demo key under the lite prefix answers 401 UNAUTHORIZED, not the lite store's 402", async () => {
    const sim = makeSim();
    expectUnauthorized(await call(sim, "GET", "/lite/v1/me", { store: "demo", key: "full" }));
  });

  it("each store's own key works under its own prefix (control)", async () => {
    const sim = makeSim();
    const demo = await call(sim, "GET", "/demo/v1/me", { key: "full" });
    const other = await call(sim, "GET", "/other/v1/me", { key: "full" });
    expect(demo.status).toBe(200);
    expect(demo.json.data.domain_prefix).toBe("demo");
    expect(other.status).toBe(200);
    expect(other.json.data.domain_prefix).toBe("other");
  });
});
