import type { Env } from "../kernel/env.js";
import { toMilli } from "../kernel/quantity.js";
import { createRng } from "../kernel/random.js";
import type { FixtureSpec, FixtureStore } from "../contract/schemas/fixture.js";
import { addSystemCategories, buildCatalog } from "./catalog/fixture.js";
import { buildCustomers } from "./customers/fixture.js";
import { buildColumnSales, SALE_COLUMNS, type WithSaleColumns } from "./sales/fixture-columns.js";
import { buildSales } from "./sales/fixture.js";
import { StoreState } from "./store.js";
import { World, type WorldOptions } from "./world.js";

// A world from a seed and a fixture. Every id draws from the seed's "ids" stream and every token from
// its "secrets" stream, in the order below: stores one after another (each with its taxes, outlets,
// payment types, reasons, keys, catalog, customers and sales), then users, then OAuth clients. The same
// seed and fixture give the same world, byte for byte.

export const DEFAULT_USER_PASSWORD = "retail-sim";

/** Spec, Inventory rules 1: the system reason every store has. */
export const SYSTEM_REASON_NAME = "Stock set via API";

export function buildWorld(
  fixture: FixtureSpec,
  seed: number,
  time: Pick<Env, "clock" | "sleep">,
  options: WorldOptions & { secrets?: string } = {},
): World {
  // A sandbox draws its secrets from a stream of its own, so its keys are refused by every other world.
  const world = new World(
    { clock: time.clock, sleep: time.sleep, ids: createRng(seed, "ids") },
    createRng(seed, options.secrets ?? "secrets"),
    options,
  );
  for (const spec of fixture.stores) addStore(world, spec);
  for (const user of fixture.users) {
    world.users.push({
      id: world.env.ids.uuid(),
      email: user.email,
      storePrefix: user.store_prefix,
      role: user.role,
      password: user.password ?? DEFAULT_USER_PASSWORD,
    });
  }
  for (const client of fixture.oauth_clients) {
    world.oauthClients.push({
      clientId: `rsc_${world.secrets.token(24)}`,
      clientSecret: `rss_${world.secrets.token(40)}`,
      name: client.name,
      redirectUris: [...client.redirect_uris],
    });
  }
  return world;
}

function addStore(world: World, spec: FixtureStore): void {
  const { ids, clock } = world.env;
  const store = new StoreState(
    {
      id: ids.uuid(),
      prefix: spec.prefix,
      name: spec.name,
      currency: spec.currency ?? "USD",
      timezone: spec.timezone ?? "America/New_York",
      country: spec.country ?? "US",
      createdAt: clock.now(),
      plan: spec.plan ?? "growth",
      status: spec.status ?? "active",
      productLimit: spec.product_limit ?? null,
      defaultOutletId: null,
    },
    world.caps,
  );
  world.stores.set(store.prefix, store);
  const taxIds = new Map<string, string>();
  for (const tax of spec.taxes) {
    const id = ids.uuid();
    taxIds.set(tax.name, id);
    store.taxes.put(id, { id, name: tax.name, rate: tax.rate });
  }
  const firstTax = [...taxIds.values()][0] as string;
  for (const outlet of spec.outlets) {
    const id = ids.uuid();
    store.outlets.put(id, {
      id,
      name: outlet.name,
      timezone: outlet.timezone ?? store.settings.timezone,
      status: outlet.status ?? "active",
      default_tax_id: (outlet.default_tax && taxIds.get(outlet.default_tax)) || firstTax,
    });
    store.settings.defaultOutletId ??= id;
  }
  for (const pt of spec.payment_types) {
    const id = ids.uuid();
    store.paymentTypes.put(id, { id, name: pt.name, enabled: pt.enabled ?? true });
  }
  const systemId = ids.uuid();
  store.reasons.put(systemId, {
    id: systemId,
    name: SYSTEM_REASON_NAME,
    type: "any",
    is_system: true,
    enabled: true,
  });
  store.systemReasonId = systemId;
  for (const reason of spec.adjustment_reasons) {
    const id = ids.uuid();
    store.reasons.put(id, {
      id,
      name: reason.name,
      type: reason.type,
      is_system: false,
      enabled: reason.enabled ?? true,
    });
  }
  for (const key of spec.keys) world.createKey(store, key.name, key.scopes, key.token);
  addSystemCategories(store.catalog, ids);
  if (spec.catalog) {
    const outletIds = new Map([...store.outlets.all()].map((r) => [r.value.name, r.id]));
    const storeImage = () => {
      const imageId = ids.uuid();
      world.images.stored.add(imageId);
      return imageId;
    };
    buildCatalog(store.catalog, spec.catalog, ids, clock.now(), storeImage, (productId, levels) => {
      for (const level of levels) {
        store.inventory.put(productId, {
          outlet_id: outletIds.get(level.outlet) as string,
          on_hand: toMilli(level.on_hand),
          average_cost: level.average_cost ?? 0,
          reorder_method: level.reorder_point === undefined ? "none" : "reorder_point",
          reorder_point: level.reorder_point === undefined ? null : toMilli(level.reorder_point),
          reorder_amount: null,
          reorder_target: null,
          seq: store.nextSeq(),
        });
      }
    });
  }
  buildCustomers(store.customers, spec.customer_groups ?? [], spec.customers ?? [], ids, clock.now());
  buildSales(store, spec.sales ?? [], ids, clock.now());
  const columns = (spec as WithSaleColumns)[SALE_COLUMNS];
  if (columns) buildColumnSales(store, columns, ids, clock.now());
}
