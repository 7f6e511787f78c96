import type { Clock, Sleep } from "../kernel/clock.js";
import type { Env } from "../kernel/env.js";
import { toMilli } from "../kernel/quantity.js";
import { createRng, type Rng } from "../kernel/random.js";
import { normalizeScopes, type Scope } from "../contract/scopes.js";
import type { FixtureSpec, FixtureStore } from "../contract/schemas/fixture.js";
import { CredentialRegistry, type Credential } from "./auth/credentials.js";
import { OAuthState } from "./auth/oauth.js";
import { addSystemCategories, buildCatalog } from "./catalog/fixture.js";
import { ImageRegistry } from "./catalog/images.js";
import { buildCustomers } from "./customers/fixture.js";
import { buildSales } from "./sales/fixture.js";
import { FaultList } from "./faults.js";
import { IdempotencyStore } from "./idempotency.js";
import { RateLimiter } from "./limits.js";
import { StoreState } from "./store.js";

export interface UserRecord {
  readonly id: string;
  readonly email: string;
  readonly storePrefix: string;
  readonly role: "admin" | "user";
  /** For the consent page's sign-in form; not a secret in a simulator (listed by /_sim/credentials). */
  readonly password: string;
}

export const DEFAULT_USER_PASSWORD = "retail-sim";

export interface OAuthClientRecord {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly name: string;
  readonly redirectUris: readonly string[];
}

/** Spec, Inventory rules 1: the system reason every store has. */
export const SYSTEM_REASON_NAME = "Stock set via API";

/** The whole simulated service: every store, credential and limit. Built from a seed and a fixture. */
export class World {
  readonly env: Env;
  /** Secrets (tokens, client secrets) draw from their own stream, so adding ids never shifts them. */
  readonly secrets: Rng;
  readonly stores = new Map<string, StoreState>();
  readonly credentials = new CredentialRegistry();
  /**
   * The plaintext of the API keys this simulator issued (fixture and control plane), by key id: what
   * `GET /_sim/credentials` lists. Kept apart from the registry; authentication never reads it.
   */
  readonly issuedKeys = new Map<string, string>();
  readonly users: UserRecord[] = [];
  readonly oauthClients: OAuthClientRecord[] = [];
  readonly idempotency = new IdempotencyStore();
  readonly limits: RateLimiter;
  readonly faults = new FaultList();
  readonly images = new ImageRegistry();
  readonly oauth = new OAuthState();
  /** Where internal errors are reported (the CLI prints them to stderr); never given credentials. */
  log?: (line: string) => void;

  constructor(
    clock: Clock,
    sleep: Sleep,
    readonly seed: number,
    readonly fixture: FixtureSpec,
    options: { rateLimits?: boolean } = {},
  ) {
    this.limits = new RateLimiter(options.rateLimits ?? true);
    this.env = { clock, sleep, ids: createRng(seed, "ids") };
    this.secrets = createRng(seed, "secrets");
    for (const spec of fixture.stores) this.addStore(spec);
    for (const user of fixture.users) {
      this.users.push({
        id: this.env.ids.uuid(),
        email: user.email,
        storePrefix: user.store_prefix,
        role: user.role,
        password: user.password ?? DEFAULT_USER_PASSWORD,
      });
    }
    for (const client of fixture.oauth_clients) {
      this.oauthClients.push({
        clientId: `rsc_${this.secrets.token(24)}`,
        clientSecret: `rss_${this.secrets.token(40)}`,
        name: client.name,
        redirectUris: [...client.redirect_uris],
      });
    }
  }

  createKey(store: StoreState, name: string, scopes: readonly Scope[], token?: string): Credential {
    const plaintext = token ?? `rsk_${this.secrets.token(40)}`;
    const key = this.credentials.add(
      {
        id: this.env.ids.uuid(),
        kind: "api_key",
        name,
        storePrefix: store.prefix,
        scopes: normalizeScopes(scopes),
        createdAt: this.env.clock.now(),
        lastUsedAt: null,
        state: "active",
        expiresAt: null,
      },
      plaintext,
    );
    this.issuedKeys.set(key.id, plaintext);
    return key;
  }

  private addStore(spec: FixtureStore): void {
    const { ids, clock } = this.env;
    const store = new StoreState({
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
    });
    this.stores.set(store.prefix, store);
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
    for (const key of spec.keys) this.createKey(store, key.name, key.scopes, key.token);
    addSystemCategories(store.catalog, ids);
    if (spec.catalog) {
      const outletIds = new Map([...store.outlets.all()].map((r) => [r.value.name, r.id]));
      const storeImage = () => {
        const imageId = ids.uuid();
        this.images.stored.add(imageId);
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
  }
}
