import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CONTROL_OPERATIONS, type ControlOperationId } from "../contract/control-operations.js";
import { ControlError, type Simulator } from "../simulator.js";
import { call, makeSim } from "../test-support/sim.js";

// README, Control plane and In-process use: one table of control operations; each is served under /_sim
// and is a function of the library (`sim.control.<id>`), and both run the same operation.

/** The library's `{api_root}` before it listens; the routes are called at the same origin so views match. */
const ORIGIN = "http://127.0.0.1:4747";

interface Step {
  readonly id: ControlOperationId;
  readonly params?: Record<string, string>;
  readonly body?: unknown;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

async function viaRoute(sim: Simulator, step: Step): Promise<Outcome & { status: number }> {
  const op = CONTROL_OPERATIONS.find((o) => o.id === step.id);
  if (!op) throw new Error(`no control operation ${step.id}`);
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(step.params?.[name] ?? ""));
  const res = await sim.fetch(`${ORIGIN}/_sim${path}`, {
    method: op.method,
    headers: op.method === "GET" ? {} : { "content-type": "application/json" },
    body: step.body === undefined ? undefined : JSON.stringify(step.body),
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : undefined;
  if (res.status === op.successStatus) return { status: res.status, ok: true, value: json };
  return { status: res.status, ok: false, error: json.error };
}

function viaLibrary(sim: Simulator, step: Step): Outcome {
  // The steps name their operation at run time; each typed function is called with its own input.
  const run = sim.control[step.id] as (input?: Step) => unknown;
  try {
    return { ok: true, value: JSON.parse(JSON.stringify(run(step) ?? null)) ?? undefined };
  } catch (error) {
    if (error instanceof ControlError) return { ok: false, error: error.error };
    throw error;
  }
}

const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";

describe("README, Control plane: the table of control operations", () => {
  it("every operation answers the same through its /_sim route and through sim.control", async () => {
    const byRoute = makeSim();
    const byLibrary = makeSim();
    const read = async (path: string) => {
      const [a, b] = [await call(byRoute, "GET", path), await call(byLibrary, "GET", path)];
      expect(a.json).toEqual(b.json);
      return a.json.data as { id: string; is_system?: boolean }[];
    };
    const outlets = await read("/demo/v1/outlets");
    const products = await read("/demo/v1/products?limit=5");
    const customers = await read("/demo/v1/customers?limit=1");
    const reasons = await read("/demo/v1/inventory/adjustment-reasons");
    const credentials = byRoute.credentials(ORIGIN);
    const client = credentials.oauth_clients[0];
    const user = credentials.users[0];
    if (!client || !user) throw new Error("the demo fixture has an OAuth client and users");
    const [outlet, otherOutlet] = outlets;
    const product = products[0];
    const reason = reasons.find((r) => !r.is_system);
    if (!outlet || !otherOutlet || !product || !customers[0] || !reason) throw new Error("demo fixture rows");

    const seen = new Set<ControlOperationId>();
    const both = async (step: Step) => {
      seen.add(step.id);
      const { status, ...routed } = await viaRoute(byRoute, step);
      expect({ step: step.id, ...viaLibrary(byLibrary, step) }).toEqual({ step: step.id, ...routed });
      return { status, value: routed.ok ? routed.value : undefined };
    };

    expect(await both({ id: "health" })).toEqual({ status: 200, value: { status: "ok" } });
    await both({ id: "credentials" });
    await both({ id: "getClock" });
    expect(await both({ id: "moveClock", body: { advance_seconds: 60 } })).toEqual({
      status: 200,
      value: { now: "2026-01-01T00:01:00.000Z" },
    });
    expect((await both({ id: "moveClock", body: { set: "2025-01-01T00:00:00Z" } })).status).toBe(400);
    const key = await both({
      id: "createKey",
      params: { prefix: "demo" },
      body: { name: "t", scopes: ["sales:read"] },
    });
    expect(key.status).toBe(201);
    const keyId = (key.value as { id: string }).id;
    expect((await both({ id: "revokeKey", params: { id: keyId } })).value).toEqual({ id: keyId, state: "revoked" });
    expect((await both({ id: "revokeKey", params: { id: NO_SUCH_ID } })).status).toBe(404);
    expect((await both({ id: "patchStore", params: { prefix: "demo" }, body: { product_limit: 900 } })).status).toBe(
      200,
    );
    expect((await both({ id: "patchStore", params: { prefix: "nope" }, body: {} })).status).toBe(404);
    await both({ id: "getStock", params: { prefix: "demo", product_id: product.id, outlet_id: outlet.id } });
    const sale = await both({
      id: "makeSale",
      params: { prefix: "demo" },
      body: { outlet_id: outlet.id, lines: [{ product_id: product.id, quantity: 2, unit_price: 450 }] },
    });
    expect(sale.status).toBe(201);
    const saleId = (sale.value as { id?: string } | undefined)?.id ?? NO_SUCH_ID;
    await both({ id: "makeRefund", params: { prefix: "demo", id: saleId }, body: { lines: undefined } });
    await both({ id: "voidSale", params: { prefix: "demo", id: saleId } });
    await both({ id: "getStoredCustomer", params: { prefix: "demo", id: customers[0].id } });
    await both({ id: "setReasonEnabled", params: { prefix: "demo", id: reason.id }, body: { enabled: false } });
    expect(await both({ id: "deleteOutlet", params: { prefix: "demo", id: otherOutlet.id } })).toEqual({
      status: 204,
      value: undefined,
    });
    const outletMade = await both({ id: "createOutlet", params: { prefix: "demo" }, body: { name: "Table Kiosk" } });
    expect(outletMade).toMatchObject({ status: 201, value: { name: "Table Kiosk", status: "active" } });
    const badZone = { name: "X", timezone: "Mars/Olympus" };
    expect((await both({ id: "createOutlet", params: { prefix: "demo" }, body: badZone })).status).toBe(400);
    expect((await both({ id: "createOutlet", params: { prefix: "nope" }, body: { name: "X" } })).status).toBe(404);
    const authorize = {
      user_id: user.id,
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0],
      scope: "catalog:read",
      state: "s1",
      decision: "cancel",
    };
    expect((await both({ id: "authorize", body: authorize })).status).toBe(200);
    await both({ id: "listClients" });
    const registered = { name: "Table", redirect_uris: ["https://app.example/callback"] };
    expect((await both({ id: "registerClient", body: registered })).status).toBe(201);
    await both({ id: "listConnections" });
    expect((await both({ id: "disconnect", params: { id: NO_SUCH_ID } })).status).toBe(404);
    await both({ id: "setImageOutcome", body: { url: "https://img.example/a.png", outcome: "fail" } });
    expect((await both({ id: "addFault", body: { path: "/demo/v1/me", status: 503 } })).status).toBe(201);
    expect((await both({ id: "addFault", body: { hold: true, status: 503 } })).status).toBe(400);
    await both({ id: "listFaults" });
    expect((await both({ id: "snapshot" })).status).toBe(200);
    expect((await both({ id: "releaseFault", params: { id: "7" } })).status).toBe(404);
    expect((await both({ id: "clearFaults" })).status).toBe(204);
    const sandbox = await both({ id: "createSandbox", body: { seed: 3, fixture: "empty" } });
    expect(sandbox.status).toBe(201);
    expect((sandbox.value as { id: string }).id).toBe("sb1");
    await both({ id: "listSandboxes" });
    expect((await both({ id: "getSandbox", params: { sandbox_id: "sb1" } })).status).toBe(200);
    expect((await both({ id: "deleteSandbox", params: { sandbox_id: "sb1" } })).status).toBe(204);
    expect((await both({ id: "getSandbox", params: { sandbox_id: "sb1" } })).status).toBe(404);
    // The runs' coverage: the default run holds the default sandbox's reads (and sb1's, made without a run).
    expect(((await both({ id: "listRuns" })).value as { run: string }[]).map((r) => r.run)).toEqual(["default"]);
    expect((await both({ id: "getRunCoverage", params: { run: "default" } })).status).toBe(200);
    expect((await both({ id: "getRunCoverage", params: { run: "nope" } })).status).toBe(404);
    expect((await both({ id: "clearRunCoverage", params: { run: "default" } })).status).toBe(204);
    // Coverage counts the same reads on both; the journal is read once cleared (its entries carry real timings).
    expect(((await both({ id: "getCoverage" })).value as { requests: number }).requests).toBe(4);
    expect((await both({ id: "clearCoverage" })).status).toBe(204);
    expect((await both({ id: "clearRequests" })).status).toBe(204);
    expect((await both({ id: "getRequests" })).value).toMatchObject({ held: 0, next_seq: 5, data: [] });
    expect(((await both({ id: "getRequestsHar" })).value as { log: { entries: unknown[] } }).log.entries).toEqual([]);
    expect((await both({ id: "reset", body: { seed: 2 } })).status).toBe(200);
    await both({ id: "credentials" });

    expect([...seen].sort()).toEqual(CONTROL_OPERATIONS.map((o) => o.id).sort());
  });

  it("docs/interfaces.md lists every operation of the table under control.<id>, each once", () => {
    const doc = readFileSync(new URL("../../docs/interfaces.md", import.meta.url), "utf8");
    const row = doc.split("\n").find((line) => line.startsWith("| `control.<id>("));
    const listed = /by id: (.*?); `params`/
      .exec(row ?? "")?.[1]
      ?.split(", ")
      .map((id) => id.replace(/`/g, ""));
    expect(listed?.sort()).toEqual(CONTROL_OPERATIONS.map((o) => o.id).sort());
  });

  it("the library's methods of the control plane are the table's operations", () => {
    const [a, b] = [makeSim(), makeSim()];
    const body = { name: "ci", scopes: ["catalog:read" as const] };
    expect(a.createKey("demo", body)).toEqual(b.control.createKey({ params: { prefix: "demo" }, body }));
    expect(a.patchStore("demo", { status: "paused" })).toEqual(
      b.control.patchStore({ params: { prefix: "demo" }, body: { status: "paused" } }),
    );
    expect(a.addFault({ status: 500, times: 1 })).toEqual(b.control.addFault({ body: { status: 500, times: 1 } }));
    expect(a.clock.advance(30)).toBe(b.control.moveClock({ body: { advance_seconds: 30 } }).now);
    expect(a.clock.now()).toBe(b.control.getClock().now);
    expect(a.credentials()).toEqual(b.control.credentials());
    expect(() => a.revokeKey(NO_SUCH_ID)).toThrow(ControlError);
    expect(() => b.control.revokeKey({ params: { id: NO_SUCH_ID } })).toThrow(
      "NOT_FOUND: The requested key was not found.",
    );
  });

  it("the library's functions are typed by the table: parameter names and body fields", () => {
    const sim = makeSim();
    // @ts-expect-error createKey's path names {prefix}, not {store}
    expect(() => sim.control.createKey({ params: { store: "demo" }, body: { name: "x", scopes: [] } })).toThrow(
      ControlError,
    );
    // @ts-expect-error a key's body has no `label`
    expect(() => sim.control.createKey({ params: { prefix: "nope" }, body: { label: "x", scopes: [] } })).toThrow(
      ControlError,
    );
    // @ts-expect-error revokeKey needs the key's id
    expect(() => sim.control.revokeKey()).toThrow();
    expect(sim.control.health()).toEqual({ status: "ok" });
  });
});

describe("README, In-process use: sim.world after reset()", () => {
  it("is the current world: reset replaces it, and the property cannot be replaced from outside", () => {
    const sim = makeSim();
    const before = sim.world;
    sim.reset();
    expect(sim.world).not.toBe(before);
    expect(sim.world.stores.get("demo")).toBeDefined();
    // @ts-expect-error sim.world is read-only: only reset() replaces the world
    expect(() => (sim.world = before)).toThrow(TypeError);
    expect(sim.world).not.toBe(before);
  });

  it("a request held by a fault when reset happens finishes in the world it started in", async () => {
    const sim = makeSim();
    const { id } = sim.addFault({ method: "POST", path: "/demo/v1/customers", hold: true, times: 1 });
    const old = sim.world;
    const pending = call(sim, "POST", "/demo/v1/customers", { body: { first_name: "Held", last_name: "Over" } });
    await old.faults.whenHeld(id);
    sim.reset();
    const reply = await pending;
    expect(reply.status).toBe(201);
    const created = reply.json.data.id as string;
    expect(old.stores.get("demo")?.customers.customers.row(created)).toBeDefined();
    expect(sim.world.stores.get("demo")?.customers.customers.row(created)).toBeUndefined();
  });
});
