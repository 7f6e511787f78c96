// docs/interfaces.md, Journal and coverage: a small scripted "SDK" runs against a sandbox; the sandbox's
// journal holds its exchanges, redacted, and its coverage names exactly the operations, codes and rule
// branches (contract/coverage-branches.ts) the script exercised.
import { beforeEach, describe, expect, it } from "vitest";
import { createSimulator, type Simulator } from "../index.js";
import { COVERAGE_BRANCHES } from "../contract/coverage-branches.js";
import type { CoverageReport } from "../contract/journal.js";
import { OPERATIONS } from "../contract/operations/index.js";

const NOW = "2026-01-01T00:00:00.000Z";
let sim: Simulator;

beforeEach(() => {
  sim = createSimulator({ clock: "manual", now: NOW });
});

/** The ids of one kind that were met, with their counts. */
function met(report: CoverageReport, kind: string): Record<string, number> {
  return Object.fromEntries(report.items.filter((i) => i.kind === kind && i.count > 0).map((i) => [i.id, i.count]));
}

async function scriptedSdk() {
  const box = sim.sandbox();
  const view = box.view;
  const store = view.stores.find((s) => s.prefix === "demo-sb1");
  const client = view.oauth_clients[0];
  const admin = view.users.find((u) => u.store_prefix === "demo-sb1" && u.role === "admin");
  if (!store || !client || !admin) throw new Error("the demo sandbox has no store, client or admin");
  const key = box.token("demo-sb1", "full");
  const base = `http://sim/demo-sb1/v1`;
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await sim.fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: any = res.status === 204 ? null : await res.json();
    return { status: res.status, json };
  };
  expect((await call("GET", "/me")).status).toBe(200);
  const page = await call("GET", "/products?limit=2");
  expect((await call("GET", `/products?limit=2&cursor=${page.json.next_cursor}`)).status).toBe(200);
  const product = page.json.data[0];
  expect((await call("PATCH", `/products/${product.id}`, { name: "Renamed", version: "1" })).status).toBe(409);
  const outlet = (await call("GET", "/outlets")).json.data[0];
  const batch = { lines: [{ product_id: product.id, outlet_id: outlet.id, set: { on_hand: 7 } }] };
  expect((await call("POST", "/inventory/batch", batch, { "idempotency-key": "b-1" })).status).toBe(200);
  expect((await call("POST", "/inventory/batch", batch, { "idempotency-key": "b-1" })).status).toBe(200);
  expect(
    (await call("POST", "/products", { name: "New one", retail_price: 100 }, { "idempotency-key": "p-1" })).status,
  ).toBe(201);
  expect(
    (await call("POST", "/products", { name: "Other", retail_price: 100 }, { "idempotency-key": "p-1" })).status,
  ).toBe(422);
  const stranger = await sim.fetch(`${base}/me`, { headers: { authorization: "Bearer not-a-key" } });
  expect(stranger.status).toBe(401);
  const redirectUri = client.redirect_uris[0] as string;
  const consent = box.control.authorize({
    body: {
      user_id: admin.id,
      client_id: client.client_id,
      redirect_uri: redirectUri,
      scope: "catalog:read",
      state: "s",
      decision: "allow",
    },
  });
  const code = new URL(consent.redirect_to).searchParams.get("code") ?? "";
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: redirectUri,
    client_id: client.client_id,
    client_secret: client.client_secret,
  });
  const exchange = () =>
    sim.fetch("http://sim/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
  const tokens = (await (await exchange()).json()) as { access_token: string; refresh_token: string };
  expect((await exchange()).status).toBe(400);
  box.clock.advance(3601);
  const expired = await sim.fetch(`${base}/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  expect(expired.status).toBe(401);
  return { box, key, code, tokens, client };
}

describe("the journal and coverage of a sandbox (docs/interfaces.md, Journal and coverage)", () => {
  it("coverage names exactly the operations, statuses, codes and rule branches the script exercised", async () => {
    const { box } = await scriptedSdk();
    const report = box.coverage();
    expect(report.sandbox).toBe("sb1");
    expect(report.requests).toBe(13);
    expect(met(report, "operation")).toEqual({
      getMe: 3,
      listProducts: 2,
      updateProduct: 1,
      listOutlets: 1,
      stockBatch: 2,
      createProduct: 2,
      createToken: 2,
    });
    expect(met(report, "status")).toEqual({
      "getMe 200": 1,
      "getMe 401": 2,
      "listProducts 200": 2,
      "updateProduct 409": 1,
      "listOutlets 200": 1,
      "stockBatch 200": 2,
      "createProduct 201": 1,
      "createProduct 422": 1,
      "createToken 200": 1,
      "createToken 400": 1,
    });
    expect(met(report, "error_code")).toEqual({
      STALE_VERSION: 1,
      IDEMPOTENCY_KEY_REUSED: 1,
      UNAUTHORIZED: 2,
      invalid_grant: 1,
    });
    expect(met(report, "branch")).toEqual({
      "auth.me-identity": 1,
      "pagination.each-row-once": 1,
      "catalog.stale-version": 1,
      "inventory.batch-replay": 1,
      "idempotency.replay": 1,
      "idempotency.key-reused": 1,
      "auth.malformed-or-unknown": 1,
      "oauth.code-exchange": 1,
      "oauth.code-once": 1,
      "oauth.token-expiry": 1,
    });
    expect(report.unexpected).toEqual({});
    // Never met first: the first item has count 0, the last has a count.
    expect(report.items[0]?.count).toBe(0);
    expect(report.items.at(-1)?.count).toBeGreaterThan(0);
    expect(report.totals.operations).toEqual({ covered: 7, total: 48, percent: 14.6 });
    expect(report.totals.branches.covered).toBe(10);
    // The default sandbox met nothing: each sandbox counts its own.
    expect(sim.coverage().requests).toBe(0);
  });

  it("the journal holds every exchange in order, with secrets and personal details redacted", async () => {
    const { box, key, code, tokens, client } = await scriptedSdk();
    const page = box.journal();
    expect(page.held).toBe(13);
    expect(page.next_seq).toBe(14);
    expect(page.data.map((e) => `${e.seq} ${e.method} ${e.operation} ${e.status}`)).toEqual([
      "1 GET getMe 200",
      "2 GET listProducts 200",
      "3 GET listProducts 200",
      "4 PATCH updateProduct 409",
      "5 GET listOutlets 200",
      "6 POST stockBatch 200",
      "7 POST stockBatch 200",
      "8 POST createProduct 201",
      "9 POST createProduct 422",
      "10 GET getMe 401",
      "11 POST createToken 200",
      "12 POST createToken 400",
      "13 GET getMe 401",
    ]);
    const text = JSON.stringify(page);
    for (const secret of [key, code, tokens.access_token, tokens.refresh_token, client.client_secret])
      expect(text).not.toContain(secret);
    const first = page.data[0];
    expect(first?.request.headers.authorization).toBe("Bearer [redacted]");
    expect(first?.started_at).toBe(NOW);
    const token = page.data.find((e) => e.operation === "createToken" && e.status === 200);
    expect(token?.request.body).toContain("code=[redacted]");
    expect(token?.request.body).toContain("client_secret=[redacted]");
    expect(token?.request.body).toContain("grant_type=authorization_code");
    expect(JSON.parse(token?.response.body ?? "{}")).toMatchObject({
      access_token: "[redacted]",
      refresh_token: "[redacted]",
      token_type: "Bearer",
    });
    expect(page.data[3]?.code).toBe("STALE_VERSION");
    expect(page.data[3]?.branches).toEqual(["catalog.stale-version"]);
  });

  it("names a replay on an operation whose Idempotency-Key is optional, and no branch a plain read cannot meet", async () => {
    const box = sim.sandbox();
    const key = box.token("demo-sb1", "full");
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      sim.fetch(`http://sim/demo-sb1/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const created = await call("POST", "/products", { name: "Once", retail_price: 100 }, { "idempotency-key": "o-1" });
    expect(created.status).toBe(201);
    const again = await call("POST", "/products", { name: "Once", retail_price: 100 }, { "idempotency-key": "o-1" });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const { data } = (await created.json()) as { data: { id: string } };
    expect((await call("GET", `/products/${data.id}`)).status).toBe(200);
    expect((await call("GET", "/products?order=desc&limit=1")).status).toBe(200);
    const entries = box.journal().data.map((e) => [e.operation, e.status, e.branches]);
    expect(entries).toEqual([
      ["createProduct", 201, []],
      ["createProduct", 201, ["idempotency.replay"]],
      ["getProduct", 200, []],
      ["listProducts", 200, ["pagination.desc-one-page"]],
    ]);
    expect(met(box.coverage(), "branch")).toEqual({ "idempotency.replay": 1, "pagination.desc-one-page": 1 });
  });
});

describe("items only an injected fault produces (docs/interfaces.md, Journal and coverage)", () => {
  it("are each operation's 500 and INTERNAL, marked reach fault, out of the totals until a fault meets them", async () => {
    const before = sim.coverage();
    const faultOnly = before.items.filter((i) => i.reach === "fault");
    expect(faultOnly.filter((i) => i.kind === "status").map((i) => i.id)).toEqual(
      OPERATIONS.map((o) => `${o.id} 500`).sort(),
    );
    expect(faultOnly.filter((i) => i.kind !== "status").map((i) => [i.kind, i.id])).toEqual([
      ["error_code", "INTERNAL"],
    ]);
    expect(before.items.find((i) => i.id === "listProducts 500")?.provoke).toBe(
      'POST {control_url}/faults {"method": "GET", "path": "/{prefix}/v1/products", "status": 500}',
    );
    expect([before.totals.statuses, before.totals.error_codes]).toEqual([
      { covered: 0, total: 341, percent: 0 },
      { covered: 0, total: 28, percent: 0 },
    ]);
    expect(before.totals.all).toEqual({ covered: 0, total: 417 + COVERAGE_BRANCHES.length, percent: 0 });

    const key = sim.token("demo", "full");
    const call = (method: string, path: string) =>
      sim.fetch(`http://sim/demo/v1${path}`, { method, headers: { authorization: `Bearer ${key}` } });
    sim.addFault({ method: "GET", path: "/demo/v1/products", status: 500 });
    sim.addFault({ method: "DELETE", path: "/demo/v1/brands/*", status: 409, code: "CONFLICT" });
    expect((await call("GET", "/products")).status).toBe(500);
    expect((await call("DELETE", "/brands/00000000-0000-4000-8000-000000000000")).status).toBe(409);
    const after = sim.coverage();
    // The injected 500 counts its status; the injected 409 counts its operation and code, no status.
    expect(met(after, "status")).toEqual({ "listProducts 500": 1 });
    expect(met(after, "error_code")).toEqual({ INTERNAL: 1, CONFLICT: 1 });
    expect(met(after, "operation")).toEqual({ listProducts: 1, deleteBrand: 1 });
    expect(after.unexpected).toEqual({});
    expect([after.totals.operations, after.totals.statuses, after.totals.error_codes]).toEqual([
      { covered: 2, total: 48, percent: 4.2 },
      { covered: 1, total: 342, percent: 0.3 },
      { covered: 2, total: 29, percent: 6.9 },
    ]);
    // Overall: the mean of the four kinds' percents, (4.2 + 0.3 + 6.9 + 0) / 4.
    expect(after.totals.all).toEqual({ covered: 5, total: 419 + COVERAGE_BRANCHES.length, percent: 2.9 });
  });
});
