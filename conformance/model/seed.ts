import type { Snapshot } from "../../src/contract/schemas/snapshot.js";
import type { SnapshotStore } from "../../src/contract/schemas/snapshot-stores.js";
import { normalizeScopes, isScope, SCOPES } from "../../src/contract/scopes.js";
import { sha256 } from "../../src/kernel/digest.js";
import { createSimulator } from "../../src/simulator.js";
import { storeKeyParts } from "../credentials.js";
import type { RunState } from "../run-state.js";

// The model of a deployment without a control plane (staging): a snapshot made from what the API
// shows of the store, under the target's own ids: outlets, payment types, taxes, adjustment reasons,
// categories, brands, tags, suppliers, customer groups and the walk-in customer, the run's credentials
// with the scopes `GET /me` lists, and the stores of the other credentials it was given. Nothing of the
// rows other people made: the model knows the rows the run creates, and is compared on those.

/** A GET of the target through the run's pacing: status and JSON body (undefined when not JSON). */
export type Read = (url: string, token: string) => Promise<{ status: number; json: any; date?: string }>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const uuid = (v: unknown): v is string => typeof v === "string" && UUID.test(v);

/** Every row of a list, following cursors (at most 10 pages of 200); empty when the route is not served. */
async function rows(read: Read, base: string, token: string, path: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10; page++) {
    const sep = path.includes("?") ? "&" : "?";
    const url = `${base}${path}${path.endsWith("adjustment-reasons") ? "" : `${sep}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`}`;
    const res = await read(url, token);
    if (res.status !== 200 || !Array.isArray(res.json?.data)) break;
    out.push(...res.json.data.filter((row: any) => uuid(row?.id)));
    if (res.json.has_more !== true || typeof res.json.next_cursor !== "string") break;
    cursor = res.json.next_cursor;
  }
  return out;
}

/** A fresh UUID the target's data does not hold (a system row the API does not show). */
const made = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

/** A template's document with every id replaced by a made one (from `from` on): the template's may be the target's too. */
function renumbered<T>(doc: T, from: number): T {
  const ids = new Map<string, string>();
  return JSON.parse(
    JSON.stringify(doc).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
      if (!ids.has(id)) ids.set(id, made(from + ids.size));
      return ids.get(id) as string;
    }),
  ) as T;
}

const reasonType = (type: unknown): "increase" | "decrease" | "any" => {
  const t = String(type).toLowerCase();
  if (/incr|in$|_in|add|receiv|return/.test(t)) return "increase";
  if (/decr|out|remov|loss|damage|theft|shrink/.test(t)) return "decrease";
  return "any";
};

async function storeOf(
  read: Read,
  base: string,
  token: string,
  template: SnapshotStore,
  prefix: string,
  name: string,
): Promise<SnapshotStore> {
  let seq = 0;
  const row = <T>(value: T) => ({ seq: ++seq, deleted_at: null, value });
  const list = (path: string) => rows(read, base, token, path);
  const outlets = await list("/outlets");
  const paymentTypes = await list("/payment-types");
  const taxes = await list("/taxes");
  const reasons = await list("/inventory/adjustment-reasons");
  const categories = await list("/categories");
  const brands = await list("/brands");
  const tags = await list("/tags");
  const suppliers = await list("/suppliers");
  const groups = await list("/customer-groups");
  const customers = await list("/customers");
  const walkIn = customers.find((c) => c?.is_walk_in === true);
  const walkInId: string = walkIn?.id ?? made(7);
  const walkInCode: string =
    typeof walkIn?.customer_code === "string" && walkIn.customer_code !== "" ? walkIn.customer_code : "WALKIN";
  const defaultGroup = walkIn?.customer_group_id ?? groups[0]?.id ?? made(2);
  const other = categories.find((c) => c?.name === "Other Products")?.id ?? made(3);
  const gifts = categories.find((c) => /gift/i.test(String(c?.name)))?.id ?? made(4);
  const systemReason =
    reasons.find((r) => r?.is_system === true && r?.name === "Stock set via API") ??
    reasons.find((r) => r?.is_system === true);
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  const orNull = (v: unknown) => (typeof v === "string" ? v : null);
  const store: SnapshotStore = {
    ...template,
    settings: { ...template.settings, id: made(1), prefix, name, default_outlet_id: outlets[0]?.id ?? null },
    settings_seq: ++seq,
    system_reason_id: systemReason?.id ?? made(5),
    outlets: outlets.map((o) =>
      row({
        id: o.id,
        name: text(o.name),
        timezone: text(o.timezone) || "UTC",
        status: /inactive|closed/i.test(String(o.status)) ? ("inactive" as const) : ("active" as const),
        default_tax_id: uuid(o.default_tax_id) ? o.default_tax_id : (taxes[0]?.id ?? made(6)),
      }),
    ),
    payment_types: paymentTypes.map((p) => row({ id: p.id, name: text(p.name), enabled: p.enabled !== false })),
    taxes: taxes.map((t) =>
      row({
        id: t.id,
        name: text(t.name),
        rate: typeof t.rate === "number" && t.rate >= 0 && t.rate <= 1 ? t.rate : 0,
      }),
    ),
    adjustment_reasons: [
      ...(systemReason
        ? []
        : [row({ id: made(5), name: "Stock set via API", type: "any" as const, is_system: true, enabled: true })]),
      ...reasons.map((r) =>
        row({
          id: r.id,
          name: text(r.name),
          type: r.is_system ? ("any" as const) : reasonType(r.type),
          is_system: r.is_system === true,
          enabled: true,
        }),
      ),
    ],
    catalog: {
      ...template.catalog,
      products: [],
      brands: brands.map((b) => row({ id: b.id, name: text(b.name), description: orNull(b.description) })),
      categories: [
        ...(categories.some((c) => c.id === other)
          ? []
          : [{ id: other, name: "Other Products", parent_id: null, depth: 0 }]),
        ...(categories.some((c) => c.id === gifts)
          ? []
          : [{ id: gifts, name: "Gift Cards", parent_id: null, depth: 0 }]),
        ...categories,
      ].map((c) =>
        row({
          id: c.id,
          name: text(c.name),
          parent_id: uuid(c.parent_id) ? c.parent_id : null,
          depth: Number.isInteger(c.depth) && c.depth >= 0 ? c.depth : 0,
          system: c.id === other ? ("other" as const) : c.id === gifts ? ("gift_cards" as const) : null,
        }),
      ),
      tags: tags.map((t) => row({ id: t.id, name: text(t.name) })),
      suppliers: suppliers.map((t) => row({ id: t.id, name: text(t.name) })),
      other_category_id: other,
      gift_card_category_id: gifts,
      brand_names: brands.map((b) => [text(b.name).toLowerCase(), b.id] as [string, string]),
      tag_names: tags.map((t) => [text(t.name).toLowerCase(), t.id] as [string, string]),
      subcategories: groupsOf(categories),
    },
    inventory: { levels: [], movements: [] },
    customers: {
      // The walk-in customer as the API shows it, or one of the model's own when no page showed it.
      customers: [
        row({
          ...(template.customers.customers[0]?.value as any),
          id: walkInId,
          customer_group_id: defaultGroup,
          customer_code: walkInCode,
        }),
      ],
      groups: (groups.length > 0 ? groups : [{ id: defaultGroup, name: "All Customers" }]).map((g) =>
        row({ id: g.id, name: text(g.name) }),
      ),
      walk_in_id: walkInId,
      default_group_id: defaultGroup,
      codes: [[walkInCode.toLowerCase(), walkInId]],
    },
    sales: { sales: [], refunds_of: [] },
  };
  return { ...store, last_seq: seq };
}

function groupsOf(categories: any[]): [string, string[]][] {
  const by = new Map<string, string[]>();
  for (const c of categories) if (uuid(c.parent_id)) by.set(c.parent_id, [...(by.get(c.parent_id) ?? []), c.id]);
  return [...by];
}

/** The scopes of a credential, as `GET /me` lists them. */
const scopesOf = (json: any) =>
  normalizeScopes(
    (Array.isArray(json?.data?.scopes) ? json.data.scopes : []).filter(
      (s: unknown) => typeof s === "string" && isScope(s),
    ),
  );

export async function seedSnapshot(run: RunState, read: Read): Promise<Snapshot> {
  const template = createSimulator({ clock: "manual", fixture: "empty" }).snapshot();
  const [demo, otherTemplate, liteTemplate] = template.stores as [SnapshotStore, SnapshotStore, SnapshotStore];
  const base = run.target.baseUrl;
  const me = await read(`${base}/me`, run.token);
  const prefix = String(me.json?.data?.domain_prefix ?? /\/([^/]+)\/v1$/.exec(base)?.[1] ?? "store");
  const stores = [await storeOf(read, base, run.token, demo, prefix, String(me.json?.data?.store_name ?? prefix))];
  const now = Date.parse(me.date ?? "");
  const key = (
    token: string,
    store: string,
    scopes: readonly string[],
    state: "active" | "revoked" = "active",
    n = 0,
  ) => ({
    id: made(100 + n),
    kind: "api_key" as const,
    name: `key ${n}`,
    store_prefix: store,
    scopes: normalizeScopes(scopes.filter(isScope)),
    created_at: Number.isFinite(now) ? now : template.clock.now,
    last_used_at: null,
    state,
    expires_at: null,
    connection_id: null,
    digest: "",
    token,
  });
  const c = run.credentials;
  const credentials = [key(run.token, prefix, scopesOf(me.json), "active", 0)];
  credentials.push(...c.extra.map((token, i) => key(token, prefix, SCOPES, "active", 1 + i)));
  credentials.push(...c.keys.map((k, i) => key(k.token, prefix, k.scopes, "active", 20 + i)));
  if (c.revoked) credentials.push(key(c.revoked, prefix, [], "revoked", 40));
  // Other stores the run holds a key of: known to the model as stores, so their keys read as another store's.
  for (const [given, storeTemplate, n] of [
    [c.otherStore, otherTemplate, 41],
    [c.lite, liteTemplate, 42],
  ] as const) {
    if (!given) continue;
    const { prefix: other, token } = storeKeyParts(given);
    const store = renumbered(storeTemplate, 1000 * n);
    stores.push({ ...store, settings: { ...store.settings, prefix: other } });
    credentials.push(key(token, other, SCOPES, "active", n));
  }
  // The model's ids come from a stream of its own: the template's would repeat ids a store built from
  // the same seed holds already (the target may well be a simulator).
  const stream = (words: readonly number[]) =>
    words.map((w, i) => (w ^ (0x9e3779b9 * (i + 1))) >>> 0) as [number, number, number, number];
  return {
    ...template,
    random: { ids: stream(template.random.ids), secrets: stream(template.random.secrets) },
    clock: { mode: "manual", now: Number.isFinite(now) ? now : template.clock.now },
    stores,
    credentials: credentials.map((k) => ({ ...k, digest: sha256(k.token) })),
    // The user given to --oauth-user (an admin of the store, who may consent), and the template's users,
    // under ids of their own (the template's come from a seed a target may share).
    users: [
      ...(c.oauthUser
        ? [
            {
              id: made(299),
              email: c.oauthUser.email,
              password: c.oauthUser.password,
              store_prefix: prefix,
              role: "admin" as const,
            },
          ]
        : []),
      ...template.users
        .filter((u) => u.store_prefix === "demo" && u.email !== c.oauthUser?.email)
        .map((u, i) => ({ ...u, id: made(300 + i), store_prefix: prefix })),
    ],
    oauth: {
      ...template.oauth,
      clients: c.oauthClient
        ? [
            {
              client_id: c.oauthClient.client_id,
              client_secret: c.oauthClient.client_secret,
              name: "client",
              redirect_uris: c.oauthClient.redirect_uri ? [c.oauthClient.redirect_uri] : [],
            },
          ]
        : [],
      connections: [],
      codes: [],
      refresh_tokens: [],
      sign_ins: [],
    },
    idempotency: [],
    rate_limits: [],
  };
}
