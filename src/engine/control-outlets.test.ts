// Tests of POST /_sim/stores/{prefix}/outlets (docs/interfaces.md, Control plane): a new outlet of the
// store, answered 201 as GET /outlets shows it; bad bodies answer 400 VALIDATION_FAILED naming the field,
// an unknown store 404 NOT_FOUND, and a store with 100 live outlets 409 CONFLICT. Spec, Inventory rules:
// stock writes at a created outlet work until it is deleted, then answer 422 OUTLET_DELETED.
import { describe, expect, it } from "vitest";
import type { Snapshot } from "../contract/schemas/snapshot.js";
import { expectError } from "../test-support/errors.js";
import { control, demo, put } from "../test-support/inventory.js";
import { call, makeSim } from "../test-support/sim.js";
import { MAX_OUTLETS } from "./store.js";

const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const taxIds = async (sim: ReturnType<typeof makeSim>) =>
  ((await call(sim, "GET", "/demo/v1/taxes")).json.data as { id: string; name: string }[]).map((t) => t.id);
const outlets = async (sim: ReturnType<typeof makeSim>) =>
  (await call(sim, "GET", "/demo/v1/outlets?limit=200")).json.data as { id: string; name: string }[];

describe("docs/interfaces.md, Control plane: POST /_sim/stores/{prefix}/outlets", () => {
  it("answers 201 with the outlet as GET /outlets shows it: active, the store's timezone and first tax by default", async () => {
    const sim = makeSim();
    const [salesTax] = await taxIds(sim);
    const made = await control(sim, "POST", "/stores/demo/outlets", { name: "Pier Kiosk" });
    expect(made.status).toBe(201);
    expect(made.json).toStrictEqual({
      id: expect.stringMatching(UUID),
      name: "Pier Kiosk",
      timezone: "America/New_York",
      status: "active",
      default_tax_id: salesTax,
      version: expect.stringMatching(/^\d+$/),
    });
    const listed = await outlets(sim);
    expect(listed.map((o) => o.name)).toEqual(["Main Street", "Harbour Front", "Pier Kiosk"]);
    expect(listed[2]).toStrictEqual(made.json);
  });

  it("takes the timezone and default_tax_id given; the library's control.createOutlet answers the same", async () => {
    const [a, b] = [makeSim(), makeSim()];
    const exempt = (await taxIds(a))[1]!;
    const body = { name: "Airport", timezone: "Europe/Lisbon", default_tax_id: exempt };
    const routed = await control(a, "POST", "/stores/demo/outlets", body);
    expect(routed.status).toBe(201);
    expect(routed.json).toMatchObject({ name: "Airport", timezone: "Europe/Lisbon", default_tax_id: exempt });
    expect(b.control.createOutlet({ params: { prefix: "demo" }, body })).toStrictEqual(routed.json);
  });

  it("the same seed and calls give the same ids: the id draws from the world's id stream", async () => {
    const [a, b] = [makeSim({ seed: 7 }), makeSim({ seed: 7 })];
    const first = await control(a, "POST", "/stores/demo/outlets", { name: "One" });
    const second = await control(b, "POST", "/stores/demo/outlets", { name: "One" });
    expect(first.json.id).toBe(second.json.id);
    expect((await control(makeSim({ seed: 8 }), "POST", "/stores/demo/outlets", { name: "One" })).json.id).not.toBe(
      first.json.id,
    );
  });

  it.each([
    ["no name", {}, "name"],
    ["an empty name", { name: "" }, "name"],
    ["a name of 201 characters", { name: "x".repeat(201) }, "name"],
    ["a name that is not a string", { name: 5 }, "name"],
    ["an unknown property", { name: "A", label: "b" }, "label"],
    ["a timezone that is no IANA zone", { name: "A", timezone: "Mars/Olympus" }, "timezone"],
    ["an offset as timezone", { name: "A", timezone: "+01:00" }, "timezone"],
    ["an empty timezone", { name: "A", timezone: "" }, "timezone"],
    ["a default_tax_id that is no uuid", { name: "A", default_tax_id: "sales-tax" }, "default_tax_id"],
    ["a default_tax_id of no tax of the store", { name: "A", default_tax_id: NO_SUCH_ID }, "default_tax_id"],
  ])("%s answers 400 VALIDATION_FAILED naming the field, and no outlet is made", async (_what, body, field) => {
    const sim = makeSim();
    const before = await outlets(sim);
    const refused = await control(sim, "POST", "/stores/demo/outlets", body);
    expectError(refused, 400, "VALIDATION_FAILED", { includes: field });
    expect(await outlets(sim)).toStrictEqual(before);
  });

  it("another store's tax is not one of this store's: 400 naming default_tax_id", async () => {
    const sim = makeSim();
    const otherTax = (await call(sim, "GET", "/other/v1/taxes")).json.data[0].id as string;
    const refused = await control(sim, "POST", "/stores/demo/outlets", { name: "A", default_tax_id: otherTax });
    expectError(refused, 400, "VALIDATION_FAILED", { includes: "default_tax_id" });
  });

  it("an unknown store answers 404 NOT_FOUND", async () => {
    const refused = await control(makeSim(), "POST", "/stores/nope/outlets", { name: "A" });
    expectError(refused, 404, "NOT_FOUND");
  });

  it("a store keeps at most 100 live outlets: the 101st answers 409 CONFLICT; after a delete one can be made again", async () => {
    const sim = makeSim();
    expect(MAX_OUTLETS).toBe(100);
    for (let i = (await outlets(sim)).length; i < MAX_OUTLETS; i++)
      expect((await control(sim, "POST", "/stores/demo/outlets", { name: `Outlet ${i}` })).status).toBe(201);
    const all = await outlets(sim);
    expect(all).toHaveLength(MAX_OUTLETS);
    const refused = await control(sim, "POST", "/stores/demo/outlets", { name: "One too many" });
    expectError(refused, 409, "CONFLICT");
    expect(refused.json.error.message).toBe(
      "A store has at most 100 live outlets: delete one (DELETE /_sim/stores/demo/outlets/{id}) first.",
    );
    expect(await outlets(sim)).toHaveLength(MAX_OUTLETS);
    expect((await control(sim, "DELETE", `/stores/demo/outlets/${all[99]!.id}`)).status).toBe(204);
    expect((await control(sim, "POST", "/stores/demo/outlets", { name: "After a delete" })).status).toBe(201);
    // Another store has its own count.
    expect((await control(sim, "POST", "/stores/other/outlets", { name: "Elsewhere" })).status).toBe(201);
  });

  it("Spec, Inventory rules: stock is set at a created outlet; once deleted, writes there answer 422 OUTLET_DELETED", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const made = (await control(d.sim, "POST", "/stores/demo/outlets", { name: "Pop-up" })).json.id as string;
    expect((await put(d, tote, made, { on_hand: 3 })).status).toBe(200);
    const levels = await call(d.sim, "GET", `/demo/v1/products/${tote}/inventory`);
    expect(levels.json.data.find((l: { outlet_id: string }) => l.outlet_id === made)).toMatchObject({ on_hand: 3 });
    expect((await control(d.sim, "DELETE", `/stores/demo/outlets/${made}`)).status).toBe(204);
    expectError(await put(d, tote, made, { on_hand: 4 }), 422, "OUTLET_DELETED", "any");
    expect((await outlets(d.sim)).map((o) => o.name)).toEqual(["Main Street", "Harbour Front"]);
  });

  it("in a sandbox, under /_sim/sandboxes/{id}/..., the outlet is the sandbox's own", async () => {
    const sim = makeSim();
    const sandbox = await control(sim, "POST", "/sandboxes", {});
    expect(sandbox.status).toBe(201);
    const prefix = `demo-${sandbox.json.id}`;
    const made = await control(sim, "POST", `/sandboxes/${sandbox.json.id}/stores/${prefix}/outlets`, {
      name: "Sandboxed",
    });
    expect(made.status).toBe(201);
    expect((await outlets(sim)).map((o) => o.name)).toEqual(["Main Street", "Harbour Front"]);
    expect((await control(sim, "POST", `/stores/${prefix}/outlets`, { name: "X" })).status).toBe(404);
  });
});

describe("docs/interfaces.md, Snapshots: a created outlet survives the round trip", () => {
  it("a snapshot restored into a fresh simulator lists the created outlets (a deleted one as a tombstone) and stock there", async () => {
    const d = await demo();
    const tote = d.product["TOTE-CANVAS"];
    const kept = (await control(d.sim, "POST", "/stores/demo/outlets", { name: "Kept", timezone: "Asia/Tokyo" })).json;
    const gone = (await control(d.sim, "POST", "/stores/demo/outlets", { name: "Gone" })).json;
    expect((await put(d, tote, kept.id, { on_hand: 6 })).status).toBe(200);
    expect((await control(d.sim, "DELETE", `/stores/demo/outlets/${gone.id}`)).status).toBe(204);
    const taken = JSON.stringify(d.sim.snapshot());
    const restored = makeSim({ fixture: JSON.parse(taken) as Snapshot });
    expect(JSON.stringify(restored.snapshot())).toBe(taken);
    for (const path of [
      "/demo/v1/outlets",
      "/demo/v1/outlets?include_deleted=true",
      `/demo/v1/products/${tote}/inventory`,
    ]) {
      const [a, b] = [await call(d.sim, "GET", path), await call(restored, "GET", path)];
      expect(b.status).toBe(200);
      expect(b.text, path).toBe(a.text);
    }
    expect((await outlets(restored)).find((o) => o.id === kept.id)).toStrictEqual(kept);
    // The id stream goes on from the snapshot: the next outlet has the id the original gives.
    const [next, nextRestored] = [
      await control(d.sim, "POST", "/stores/demo/outlets", { name: "Next" }),
      await control(restored, "POST", "/stores/demo/outlets", { name: "Next" }),
    ];
    expect(nextRestored.json).toStrictEqual(next.json);
  });
});
