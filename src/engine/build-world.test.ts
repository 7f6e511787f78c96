import { describe, expect, it } from "vitest";
import { manualClock } from "../kernel/clock.js";
import { createRng } from "../kernel/random.js";
import type { FixtureSpec } from "../contract/schemas/fixture.js";
import { demoFixture } from "../../scenarios/fixtures/demo.js";
import { buildWorld, DEFAULT_USER_PASSWORD, SYSTEM_REASON_NAME } from "./build-world.js";
import { productJson } from "./catalog/views.js";
import { saleJson } from "./sales/views.js";

const fixture: FixtureSpec = {
  stores: [
    {
      prefix: "shop",
      name: "Shop",
      taxes: [{ name: "VAT", rate: 0.2 }],
      outlets: [{ name: "Front" }],
      payment_types: [{ name: "Cash" }],
      adjustment_reasons: [{ name: "Damage", type: "decrease" }],
      keys: [{ name: "ci", scopes: ["catalog:read"] }],
    },
  ],
  users: [{ email: "a@shop.example", store_prefix: "shop", role: "admin" }],
  oauth_clients: [{ name: "App", redirect_uris: ["https://app.example/cb"] }],
};

const build = (seed: number) => buildWorld(fixture, seed, { clock: manualClock(), sleep: () => Promise.resolve() });

describe("docs/architecture.md, State: a world draws its ids and tokens from two seeded streams, in a fixed order", () => {
  it("ids draw from the seed's ids stream: store, tax, outlet, payment type, reasons, key, categories, customers, users", () => {
    const world = build(7);
    const draws = createRng(7, "ids");
    const next = () => draws.uuid();
    const store = world.stores.get("shop")!;
    expect(store.settings.id).toBe(next());
    expect([...store.taxes.all()].map((r) => r.id)).toEqual([next()]);
    expect([...store.outlets.all()].map((r) => r.id)).toEqual([next()]);
    expect([...store.paymentTypes.all()].map((r) => r.id)).toEqual([next()]);
    const reasons = [...store.reasons.all()].map((r) => [r.id, r.value.name]);
    expect(reasons).toEqual([
      [next(), SYSTEM_REASON_NAME],
      [next(), "Damage"],
    ]);
    expect(store.systemReasonId).toBe(reasons[0]![0]);
    expect(world.credentials.forStore("shop").map((c) => c.id)).toEqual([next()]);
    expect([store.catalog.otherCategoryId, store.catalog.giftCardCategoryId]).toEqual([next(), next()]);
    expect(store.customers.defaultGroupId).toBe(next());
    expect(store.customers.walkInId).toBe(next());
    expect(world.users).toEqual([
      { id: next(), email: "a@shop.example", storePrefix: "shop", role: "admin", password: DEFAULT_USER_PASSWORD },
    ]);
    expect(world.env.ids.uuid()).toBe(next());
  });

  it("tokens draw from the seed's secrets stream: unpinned keys first, then OAuth clients", () => {
    const world = build(7);
    const secrets = createRng(7, "secrets");
    const key = world.credentials.forStore("shop")[0]!;
    expect(world.issuedKeys.get(key.id)).toBe(`rsk_${secrets.token(40)}`);
    expect(world.oauthClients).toEqual([
      {
        clientId: `rsc_${secrets.token(24)}`,
        clientSecret: `rss_${secrets.token(40)}`,
        name: "App",
        redirectUris: ["https://app.example/cb"],
      },
    ]);
    expect(world.secrets.token(10)).toBe(secrets.token(10));
  });

  it("two worlds from the same seed are equal and share no state", () => {
    const [a, b] = [build(3), build(3)];
    expect(a.stores.get("shop")!.settings).toEqual(b.stores.get("shop")!.settings);
    expect(a.stores.get("shop")).not.toBe(b.stores.get("shop"));
    expect(a.env.ids.uuid()).toBe(b.env.ids.uuid());
    expect(build(4).stores.get("shop")!.settings.id).not.toBe(a.stores.get("shop")!.settings.id);
  });

  it("row JSON caches belong to the store whose rows they hold: a read in one world fills no other's", () => {
    const time = { clock: manualClock(), sleep: () => Promise.resolve() };
    const [a, b] = [buildWorld(demoFixture(), 1, time), buildWorld(demoFixture(), 1, time)];
    const [storeA, storeB] = [a.stores.get("demo")!, b.stores.get("demo")!];
    const product = [...storeA.catalog.products.all()][0]!;
    const sale = [...storeA.sales.sales.all()][0]!;
    expect(productJson(storeA.catalog, product, "http://sim.test")).toBe(
      productJson(storeA.catalog, product, "http://sim.test"),
    );
    expect(saleJson(storeA.sales, sale)).toBe(saleJson(storeA.sales, sale));
    expect([storeA.catalog.productJson.size, storeA.sales.saleJson.size]).toEqual([1, 1]);
    expect([storeB.catalog.productJson.size, storeB.sales.saleJson.size]).toEqual([0, 0]);
  });
});
