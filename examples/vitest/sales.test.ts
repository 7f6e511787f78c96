// Sales, read only: the list's filters and rules, a sale and its refunds made through the control plane
// (spec, Sales list rules).
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { outcome, type RetailClient } from "./client.js";
import { clientOf, controlOk, createSandbox, removeSandbox, reset, type Sandbox, store } from "./sandbox.js";

let sb: Sandbox;
let api: RetailClient;

beforeAll(async () => {
  sb = await createSandbox();
  api = clientOf(sb);
});
afterAll(() => removeSandbox(sb));
beforeEach(() => reset(sb));

interface Sale {
  id: string;
  status: string;
  completed_at: string;
  parent_sale_id: string | null;
  total: number;
}

it("lists the demo store's 9 sales, originals and refunds, by status and between two instants (both inclusive)", async () => {
  const all = await api.all<Sale>("/sales", { limit: 4 });
  expect(all).toHaveLength(9);
  const refunded = await api.all<Sale>("/sales", { status: "refunded" });
  expect(refunded.length > 0 && refunded.every((s) => s.status === "refunded")).toBe(true);
  const at = all[1]!.completed_at;
  const window = await api.all<Sale>("/sales", { completed_from: at, completed_to: at });
  expect(window.map((s) => s.id)).toEqual(all.filter((s) => s.completed_at === at).map((s) => s.id));
  const refund = all.find((s) => s.parent_sale_id !== null)!;
  const children = await api.all<Sale>("/sales", { parent_sale_id: refund.parent_sale_id! });
  expect(children.map((s) => s.id)).toContain(refund.id);
});

it("refuses status=open, include_deleted and an offset instead of Z (400 VALIDATION_FAILED)", async () => {
  for (const query of [{ status: "open" }, { include_deleted: true }, { completed_from: "2026-01-01T00:00:00+01:00" }])
    expect(await outcome(api.send("GET", "/sales", { query }))).toEqual([400, "VALIDATION_FAILED"]);
});

it("a sale made through the control plane, then refunded: the list shows the refund; the original's status changes", async () => {
  const { prefix } = store(sb);
  const outlet = (await api.all<{ id: string }>("/outlets"))[0]!.id;
  const mug = (await api.productBySku("MUG-ENAMEL"))!;
  const sale = await controlOk(sb, "POST", `/stores/${prefix}/sales`, {
    outlet_id: outlet,
    lines: [{ product_id: mug.id, quantity: 2, unit_price: 1500 }],
  });
  expect((await api.send("GET", `/sales/${sale.id}`)).data.data.status).toBe("completed");
  const refund = await controlOk(sb, "POST", `/stores/${prefix}/sales/${sale.id}/refunds`, {});
  expect((await api.send("GET", `/sales/${refund.id}`)).data.data.parent_sale_id).toBe(sale.id);
  expect((await api.send("GET", `/sales/${sale.id}`)).data.data.status).toBe("refunded");
});
