// docs/interfaces.md, Journal and coverage: every refusal the spec names earns its rule branch
// (contract/coverage-branches.ts), named by the conformance rule that checks it. Each row provokes one
// refusal against the demo store and reads the journal entry's `branches` and the coverage's count.
import { beforeEach, describe, expect, it } from "vitest";
import type { CoverageReport } from "../contract/journal.js";
import { createSimulator, type Simulator } from "../index.js";

const UNKNOWN = "00000000-0000-4000-8000-000000000000";
let sim: Simulator;
let key: string;

beforeEach(() => {
  sim = createSimulator({ clock: "manual", seed: 1 });
  key = sim.token("demo", "full");
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await sim.fetch(`http://sim/demo/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text === "" ? null : (JSON.parse(text) as any) };
}

const data = async (path: string) => (await call("GET", path)).json.data as any[];
const products = () => data("/products?limit=200");
const outletId = async () => (await data("/outlets"))[0].id as string;
const named = async (path: string, n: number, prefix: string) => {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await call("POST", path, { name: `${prefix} ${i}` })).json.data.id);
  return ids;
};
const met = (report: CoverageReport, id: string) => report.items.find((i) => i.kind === "branch" && i.id === id)?.count;

/** Each branch: the request that provokes it (after any setup), its status, and the entry's exact branches. */
const ROWS: [string, () => Promise<{ status: number }>, number, string[]][] = [
  ["sales.status-open-refused", () => call("GET", "/sales?status=open"), 400, ["sales.status-open-refused"]],
  [
    "sales.completed-offset-refused",
    () => call("GET", "/sales?completed_from=2026-01-01T00:00:00%2B01:00"),
    400,
    ["sales.completed-offset-refused"],
  ],
  [
    "sales.completed-offset-refused (completed_to)",
    () => call("GET", "/sales?completed_to=2026-01-01T00:00:00-05:00"),
    400,
    ["sales.completed-offset-refused"],
  ],
  [
    "sales.completed-offset-refused: not for a value that is no date",
    () => call("GET", "/sales?completed_from=garbage"),
    400,
    [],
  ],
  [
    "pagination.include-deleted-desc",
    () => call("GET", "/brands?include_deleted=true&order=desc"),
    400,
    ["pagination.include-deleted-desc"],
  ],
  ["pagination.limit-range", () => call("GET", "/products?limit=201"), 400, ["pagination.limit-range"]],
  ["envelope.non-uuid-id", () => call("GET", "/products/not-a-uuid"), 404, ["envelope.non-uuid-id"]],
  [
    "catalog.unknown-tag",
    () => call("POST", "/products", { name: "T", retail_price: 100, tags: [{ id: UNKNOWN }] }),
    400,
    ["catalog.unknown-tag"],
  ],
  [
    "catalog.variant-attributes",
    async () => {
      const parent = (await products()).find((p) => p.has_variants);
      return call("PATCH", `/products/${parent.id}`, { variant_attributes: [{ name: "Other", position: 1 }] });
    },
    409,
    ["catalog.variant-attributes"],
  ],
  [
    "catalog.variants",
    async () => {
      const all = await products();
      const parent = all.find((p) => p.has_variants);
      const child = all.find((p) => p.variant_parent_id === parent.id);
      return call("POST", `/products/${parent.id}/variants`, { variants: [{ options: child.variant_options }] });
    },
    409,
    ["catalog.variants"],
  ],
  [
    "catalog.product-delete-refusals",
    async () => {
      const composite = (await products()).find((p) => p.components.length > 0);
      return call("DELETE", `/products/${composite.components[0].product_id}`);
    },
    409,
    ["catalog.product-delete-refusals"],
  ],
  [
    "catalog.duplicate-name",
    async () => call("POST", "/brands", { name: (await data("/brands"))[0].name }),
    409,
    ["catalog.duplicate-name"],
  ],
  [
    "catalog.gift-cards-category-delete",
    async () => call("DELETE", `/categories/${(await data("/categories")).find((c) => c.name === "Gift Cards").id}`),
    409,
    ["catalog.gift-cards-category-delete"],
  ],
  [
    "catalog.category-delete-refusals",
    async () =>
      call("DELETE", `/categories/${(await data("/categories")).find((c) => c.name === "Other Products").id}`),
    409,
    ["catalog.category-delete-refusals"],
  ],
  [
    "catalog.variant-attribute-limits",
    () =>
      call("POST", "/products", {
        name: "V",
        retail_price: 100,
        has_variants: true,
        variant_attributes: [{ name: "Size", position: 4 }],
      }),
    400,
    ["catalog.variant-attribute-limits"],
  ],
  [
    "catalog.variants-count",
    async () =>
      call("POST", `/products/${(await products()).find((p) => p.has_variants).id}/variants`, { variants: [] }),
    400,
    ["catalog.variants-count"],
  ],
  [
    "catalog.cap-codes",
    () =>
      call("POST", "/products", {
        name: "C",
        retail_price: 100,
        codes: Array.from({ length: 11 }, (_, i) => ({ type: "custom", code: `CODE-${i}` })),
      }),
    422,
    ["catalog.cap-codes"],
  ],
  [
    "catalog.cap-tags",
    async () => {
      const tags = await named("/tags", 21, "Tag");
      return call("POST", "/products", { name: "T", retail_price: 100, tags: tags.map((id) => ({ id })) });
    },
    422,
    ["catalog.cap-tags"],
  ],
  [
    "catalog.cap-suppliers",
    async () => {
      const suppliers = await named("/suppliers", 11, "Supplier");
      const rows = suppliers.map((id) => ({ supplier_id: id, is_primary: false }));
      return call("POST", "/products", { name: "S", retail_price: 100, suppliers: rows });
    },
    422,
    ["catalog.cap-suppliers"],
  ],
  [
    "catalog.cap-components",
    async () => {
      const parts: string[] = [];
      for (let i = 0; i < 51; i++)
        parts.push((await call("POST", "/products", { name: `Part ${i}`, retail_price: 1 })).json.data.id);
      const components = parts.map((id) => ({ product_id: id, quantity: 1 }));
      return call("POST", "/products", { name: "Kit", retail_price: 100, components });
    },
    422,
    ["catalog.cap-components"],
  ],
  [
    "inventory.system-reason-refused",
    async () => {
      const reason = (await data("/inventory/adjustment-reasons")).find((r) => r.is_system);
      const product = (await products()).find((p) => p.has_inventory && !p.has_variants);
      const body = { product_id: product.id, outlet_id: await outletId(), quantity: 1, reason_id: reason.id };
      return call("POST", "/inventory/adjustments", body, { "idempotency-key": "sys-1" });
    },
    422,
    ["inventory.system-reason-refused"],
  ],
  [
    "inventory.disabled-reason-refused",
    async () => {
      const reason = (await data("/inventory/adjustment-reasons")).find((r) => r.name === "Stock received");
      sim.control.setReasonEnabled({ params: { prefix: "demo", id: reason.id }, body: { enabled: false } });
      const product = (await products()).find((p) => p.has_inventory && !p.has_variants);
      const body = { product_id: product.id, outlet_id: await outletId(), quantity: 1, reason_id: reason.id };
      return call("POST", "/inventory/adjustments", body, { "idempotency-key": "dis-1" });
    },
    422,
    ["inventory.disabled-reason-refused"],
  ],
  [
    "inventory.batch-pair-once",
    async () => {
      const product = (await products()).find((p) => p.has_inventory && !p.has_variants);
      const line = { product_id: product.id, outlet_id: await outletId(), set: { on_hand: 1 } };
      return call("POST", "/inventory/batch", { lines: [line, line] }, { "idempotency-key": "pair-1" });
    },
    400,
    ["inventory.batch-all-or-nothing", "inventory.batch-pair-once"],
  ],
  [
    "inventory.batch-line-count",
    () => call("POST", "/inventory/batch", { lines: [] }, { "idempotency-key": "none-1" }),
    400,
    ["inventory.batch-all-or-nothing", "inventory.batch-line-count"],
  ],
  [
    "limits.image-busy",
    () => {
      const url = "https://images.example/busy.png";
      sim.control.setImageOutcome({ body: { url, outcome: "busy" } });
      return call("POST", "/products", { name: "I", retail_price: 100, image_url: url });
    },
    429,
    ["limits.image-busy"],
  ],
];

describe("every refusal the spec names earns its rule branch (docs/interfaces.md, Journal and coverage)", () => {
  it.each(ROWS)("%s", async (id, provoke, status, branches) => {
    const answer = await provoke();
    expect(answer.status).toBe(status);
    const entry = sim.journal().data.at(-1);
    expect(entry?.status).toBe(status);
    expect([...(entry?.branches ?? [])].sort()).toEqual(branches);
    const report = sim.coverage();
    for (const branch of branches) expect(met(report, branch), branch).toBe(1);
    expect(branches.length > 0 || id.includes(": not for")).toBe(true);
  });

  it("limits.failed-auth-address: the 301st failed authentication of one address in 5 minutes, each with another key", async () => {
    const stranger = (n: number) =>
      sim.fetch("http://sim/demo/v1/me", { headers: { authorization: `Bearer unknown-key-${n}` } });
    for (let n = 0; n < 300; n++) expect((await stranger(n)).status).toBe(401);
    expect((await stranger(300)).status).toBe(429);
    expect(sim.journal().data.at(-1)?.branches).toEqual(["limits.failed-auth-address"]);
    expect(met(sim.coverage(), "limits.failed-auth-address")).toBe(1);
    expect(met(sim.coverage(), "limits.failed-auth-429")).toBe(0);
  });

  it("oauth.client-credentials-both-ways: credentials sent as HTTP Basic and in the body at once are refused", async () => {
    const client = sim.credentials().oauth_clients[0] as { client_id: string; client_secret: string };
    const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64");
    const form = new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: "whatever",
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    const res = await sim.fetch("http://sim/oauth/token", {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(res.status).toBe(400);
    expect(sim.journal().data.at(-1)?.branches).toEqual(["oauth.client-credentials-both-ways"]);
    expect(met(sim.coverage(), "oauth.client-credentials-both-ways")).toBe(1);
  });
});
