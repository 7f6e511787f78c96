// The snapshot round trip (docs/interfaces.md, Snapshots): a scripted mix of writes on the demo fixture,
// and a script of further requests whose every answer (status, headers, body bytes) is recorded, so two
// simulators, one restored from the other's snapshot, can be compared exchange by exchange.
import type { Snapshot } from "../contract/schemas/snapshot.js";
import type { Simulator } from "../simulator.js";
import { forms, type Form } from "./oauth.js";
import { ORIGIN } from "./sim.js";

/** Every run of the round trip writes its URLs with this origin (`publicUrl`), whatever it was sent to. */
export const PUBLIC_URL = "http://sim.test";

/** A snapshot's faults: `n` of them (a 503 on a path each), as a document holding them writes them. */
export const manyFaults = (n: number): Snapshot["faults"] => ({
  next_id: n + 1,
  list: Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    method: null,
    path: `/x${i}`,
    status: 503,
    code: null,
    times: null,
    remaining: null,
    delay_ms: null,
    after_commit: false,
    hold: false,
  })),
});

export interface Sent {
  status: number;
  text: string;
  json: any;
  headers: Headers;
}

export interface SendOptions {
  /** A bearer token; left out: the demo store's `full` key. `null` sends no Authorization header. */
  token?: string | null;
  body?: unknown;
  /** A form body (the OAuth endpoints). */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  address?: string;
}

/** Requests to one simulator, each answer recorded as text: method and path, status, every header, the body. */
export class Wire {
  readonly transcript: string[] = [];

  constructor(readonly sim: Simulator) {}

  async send(method: string, path: string, options: SendOptions = {}): Promise<Sent> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? this.sim.token("demo", "full") : options.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.form !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(options.form).toString();
    } else if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    const res = await this.sim.fetch(`${ORIGIN}${path}`, {
      method,
      headers,
      body,
      redirect: "manual",
      remoteAddress: options.address,
    });
    const text = await res.text();
    const head = [...res.headers].map(([name, value]) => `${name}: ${value}`).join("\n");
    this.transcript.push(`${method} ${path}\n${res.status}\n${head}\n\n${text}`);
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json, headers: res.headers };
  }

  /** A control route (no credential); a write sends the JSON content type even without a body. */
  control(method: string, path: string, body?: unknown): Promise<Sent> {
    const headers: Record<string, string> = method === "GET" ? {} : { "content-type": "application/json" };
    return this.send(method, `/_sim${path}`, { token: null, body, headers });
  }
}

/** A keyed write, kept to be sent again (a replay) after the restore. */
export interface KeyedRequest {
  readonly method: string;
  readonly path: string;
  readonly key: string;
  readonly body: unknown;
}

/** What the further requests need from the writes: ids, tokens, a pending code and a pending sign-in. */
export interface MixContext {
  readonly outlets: string[];
  readonly reasons: Record<string, string>;
  readonly products: string[];
  readonly customers: string[];
  readonly erased: string;
  readonly sales: string[];
  readonly keyed: KeyedRequest[];
  readonly revokedToken: string;
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly client: { client_id: string; client_secret: string; redirect_uris: string[] };
  readonly adminId: string;
  readonly pendingCode: string;
  readonly usedCode: string;
  readonly consent: Form;
  readonly failingImage: string;
  readonly brand: string;
  readonly tag: string;
}

function idOf(sent: Sent): string {
  if (typeof sent.json?.data?.id !== "string")
    throw new Error(`expected a document with an id: ${sent.status} ${sent.text}`);
  return sent.json.data.id;
}
const codeOf = (sent: Sent): string => new URL(sent.json.redirect_to).searchParams.get("code") as string;

/** The scripted mix of writes, on the demo fixture with a manual clock. */
export async function writeMix(wire: Wire): Promise<MixContext> {
  const keyed: KeyedRequest[] = [];
  const write = async (method: string, path: string, key: string, body: unknown) => {
    keyed.push({ method, path, key, body });
    return wire.send(method, path, { body, headers: { "idempotency-key": key } });
  };
  const outlets = (await wire.send("GET", "/demo/v1/outlets")).json.data.map((o: { id: string }) => o.id);
  const reasons = Object.fromEntries(
    (await wire.send("GET", "/demo/v1/inventory/adjustment-reasons")).json.data.map((r: any) => [r.name, r.id]),
  );
  const [main, harbour] = outlets as [string, string];
  const brand = idOf(await wire.send("POST", "/demo/v1/brands", { body: { name: "Snapshot Brand" } }));
  const tag = idOf(await wire.send("POST", "/demo/v1/tags", { body: { name: "snapshot-tag" } }));
  const doomedTag = idOf(await wire.send("POST", "/demo/v1/tags", { body: { name: "doomed" } }));
  const lamp = idOf(
    await write("POST", "/demo/v1/products", "create-lamp", {
      sku: "LAMP-DESK",
      name: "Desk Lamp",
      retail_price: 4500,
      brand_id: brand,
      tags: [{ id: tag }, { id: doomedTag }],
      codes: [{ type: "ean", code: "4006381333931" }],
      image_url: "https://images.example/lamp.png",
    }),
  );
  const parent = idOf(
    await write("POST", "/demo/v1/products", "create-shirt", {
      sku: "SHIRT-OXFORD",
      name: "Oxford Shirt",
      retail_price: 5900,
      has_variants: true,
      variant_attributes: [{ name: "Size", position: 1 }],
    }),
  );
  const size = (await wire.send("GET", `/demo/v1/products/${parent}`)).json.data.variant_attributes[0].id;
  await write("POST", `/demo/v1/products/${parent}/variants`, "shirt-sizes", {
    variants: ["S", "M", "L"].map((value) => ({ options: [{ attribute_id: size, value }] })),
  });
  await wire.send("PATCH", `/demo/v1/products/${lamp}`, { body: { name: "Desk Lamp, brass" } });
  const gone = idOf(await wire.send("POST", "/demo/v1/products", { body: { name: "Short-lived", retail_price: 100 } }));
  await wire.send("DELETE", `/demo/v1/products/${gone}`);
  await wire.send("DELETE", `/demo/v1/tags/${doomedTag}`);
  await write("PUT", `/demo/v1/products/${lamp}/inventory/${main}`, "lamp-set", { on_hand: 12.5, unit_cost: 2100 });
  await write("POST", "/demo/v1/inventory/adjustments", "lamp-received", {
    product_id: lamp,
    outlet_id: harbour,
    quantity: 4,
    reason_id: reasons["Stock received"],
    unit_cost: 2300,
  });
  await write("POST", "/demo/v1/inventory/batch", "batch-1", {
    lines: [
      { sku: "LAMP-DESK", outlet_id: main, adjust: { quantity: -1.25, reason_id: reasons.Damaged } },
      { sku: "COFFEE-BEANS", outlet_id: harbour, set: { on_hand: 3.125 } },
    ],
  });
  const dana = idOf(
    await write("POST", "/demo/v1/customers", "create-dana", {
      first_name: "Dana",
      last_name: "Kim",
      email: "dana@example.com",
      customer_code: "DANA",
    }),
  );
  const eli = idOf(
    await write("POST", "/demo/v1/customers", "create-eli", { first_name: "Eli", email: "eli@example.com" }),
  );
  await wire.send("PATCH", `/demo/v1/customers/${dana}`, { body: { city: "Seattle" } });
  await wire.send("DELETE", `/demo/v1/customers/${eli}`);
  const sale = (
    await wire.control("POST", "/stores/demo/sales", {
      outlet_id: main,
      customer_id: dana,
      lines: [{ product_id: lamp, quantity: 2, unit_price: 4500 }],
    })
  ).json.id as string;
  const sale2 = (
    await wire.control("POST", "/stores/demo/sales", {
      outlet_id: harbour,
      lines: [{ product_id: lamp, quantity: 1, unit_price: 4000 }],
    })
  ).json.id as string;
  await wire.control("POST", `/stores/demo/sales/${sale2}/refunds`, {});
  await wire.control("POST", "/clock", { advance_seconds: 3600 });
  const creds = (await wire.control("GET", "/credentials")).json;
  const client = creds.oauth_clients[0];
  const admin = creds.users.find((u: { email: string }) => u.email === "admin@demo.example");
  const authorize = (scope: string) =>
    wire.control("POST", "/oauth/authorize", {
      user_id: admin.id,
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0],
      scope,
      state: "s1",
      decision: "allow",
    });
  const exchange = (code: string) =>
    wire.send("POST", "/oauth/token", {
      token: null,
      form: {
        grant_type: "authorization_code",
        code,
        redirect_uri: client.redirect_uris[0],
        client_id: client.client_id,
        client_secret: client.client_secret,
      },
    });
  const usedCode = codeOf(await authorize("catalog:read customers:read"));
  const tokens = (await exchange(usedCode)).json;
  await wire.send("GET", "/demo/v1/me", { token: tokens.access_token });
  const pendingCode = codeOf(await authorize("sales:read"));
  const page = await wire.send(
    "GET",
    `/oauth/authorize?${new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: client.redirect_uris[0],
      scope: "inventory:read",
      state: "page",
    })}`,
    { token: null },
  );
  const signIn = forms(page.text)[0] as Form;
  const consentPage = await wire.send("POST", "/oauth/authorize", {
    token: null,
    form: Object.fromEntries([...signIn.hidden, ["email", "admin@demo.example"], ["password", "retail-sim"]]),
  });
  const key = (await wire.control("POST", "/stores/demo/keys", { name: "to-revoke", scopes: ["catalog:read"] })).json;
  await wire.send("GET", "/demo/v1/me", { token: key.token });
  await wire.control("POST", `/keys/${key.id}/revoke`);
  await wire.send("GET", "/demo/v1/me", { token: "rsk_not_a_key_00000000000000000000000000", address: "10.0.0.9" });
  await wire.control("POST", "/faults", { method: "GET", path: "/demo/v1/taxes", status: 503, times: 2 });
  const failingImage = "https://images.example/broken.png";
  await wire.control("POST", "/images", { url: failingImage, outcome: "fail" });
  await wire.control("POST", "/clock", { advance_seconds: 90 });
  return {
    outlets,
    reasons,
    products: [lamp, parent],
    customers: [dana],
    erased: eli,
    sales: [sale, sale2],
    keyed,
    revokedToken: key.token,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    client,
    adminId: admin.id,
    pendingCode,
    usedCode,
    consent: forms(consentPage.text)[0] as Form,
    failingImage,
    brand,
    tag,
  };
}

/** Every list of the demo store, paged three rows at a time to its end (deleted rows too where they show). */
const LISTS = [
  "outlets",
  "payment-types",
  "taxes",
  "products?include_deleted=true",
  "brands?include_deleted=true",
  "categories",
  "tags?include_deleted=true",
  "suppliers",
  "customers?include_deleted=true",
  "customer-groups",
  "sales",
];

async function readEverything(wire: Wire, ctx: MixContext): Promise<void> {
  for (const list of LISTS) {
    let path: string | null = `/demo/v1/${list}${list.includes("?") ? "&" : "?"}limit=3`;
    for (let page = 0; path !== null && page < 100; page++) {
      const sent = await wire.send("GET", path);
      path = sent.json?.has_more
        ? `/demo/v1/${list}${list.includes("?") ? "&" : "?"}limit=3&cursor=${sent.json.next_cursor}`
        : null;
    }
  }
  for (const path of ["/me", "/store", "/inventory/adjustment-reasons", "/openapi.json", "/sales?order=desc"])
    await wire.send("GET", `/demo/v1${path}`);
  for (const id of ctx.products) {
    await wire.send("GET", `/demo/v1/products/${id}`);
    await wire.send("GET", `/demo/v1/products/${id}/inventory`);
    for (const outlet of ctx.outlets) await wire.control("GET", `/stores/demo/stock/${id}/${outlet}`);
  }
  for (const id of ctx.customers) await wire.send("GET", `/demo/v1/customers/${id}`);
  await wire.control("GET", `/stores/demo/customers/${ctx.erased}`);
  for (const id of ctx.sales) await wire.send("GET", `/demo/v1/sales/${id}`);
  for (const path of ["/credentials", "/clock", "/connections", "/faults", "/oauth/clients"])
    await wire.control("GET", path);
}

/** The requests sent to both simulators after the restore: reads, replays, new writes, tokens, time. */
export async function furtherRequests(wire: Wire, ctx: MixContext): Promise<string[]> {
  await readEverything(wire, ctx);
  const keyedSend = (r: KeyedRequest, body = r.body) =>
    wire.send(r.method, r.path, { body, headers: { "idempotency-key": r.key } });
  // Replays, and a key reused with another body.
  for (const r of ctx.keyed) await keyedSend(r);
  await keyedSend(ctx.keyed[0] as KeyedRequest, { name: "Another", retail_price: 1 });
  // New ids continue the streams.
  await wire.send("POST", "/demo/v1/products", { body: { name: "After restore", retail_price: 999 } });
  await wire.send("POST", "/demo/v1/products", {
    body: { name: "Bad image", retail_price: 1, image_url: ctx.failingImage },
  });
  await wire.send("POST", "/demo/v1/inventory/adjustments", {
    headers: { "idempotency-key": "after-restore" },
    body: {
      product_id: ctx.products[0],
      outlet_id: ctx.outlets[0],
      quantity: 2,
      reason_id: ctx.reasons["Stock received"],
      unit_cost: 2500,
    },
  });
  await wire.send("POST", "/demo/v1/customers", { body: { first_name: "Fay" } });
  await wire.control("POST", "/stores/demo/sales", {
    outlet_id: ctx.outlets[1],
    lines: [{ product_id: ctx.products[0], quantity: 1.5, unit_price: 4400 }],
  });
  await wire.control("POST", `/stores/demo/sales/${ctx.sales[0]}/void`);
  await wire.control("POST", "/stores/demo/keys", { name: "after", scopes: ["sales:read"] });
  // The lookups the writes keep in step: SKUs, customer codes, products by brand, tag and parent.
  await wire.send("GET", "/demo/v1/products?sku=lamp-desk");
  await wire.send("POST", "/demo/v1/products", { body: { sku: "lamp-desk", name: "Twin", retail_price: 1 } });
  await wire.send("POST", "/demo/v1/customers", { body: { first_name: "Dup", customer_code: "dana" } });
  await wire.send("POST", "/demo/v1/brands", { body: { name: "snapshot brand" } });
  await wire.send("PATCH", `/demo/v1/tags/${ctx.tag}`, { body: { name: "renamed-tag" } });
  await wire.send("DELETE", `/demo/v1/brands/${ctx.brand}`);
  await wire.send("DELETE", `/demo/v1/products/${ctx.products[1]}`);
  // Credentials: a revoked key, tokens, a pending code, a used code, a pending sign-in.
  await wire.send("GET", "/demo/v1/me", { token: ctx.revokedToken });
  await wire.send("GET", "/demo/v1/products?limit=1", { token: ctx.accessToken });
  const client = { client_id: ctx.client.client_id, client_secret: ctx.client.client_secret };
  const refreshed = await wire.send("POST", "/oauth/token", {
    token: null,
    form: { grant_type: "refresh_token", refresh_token: ctx.refreshToken, ...client },
  });
  await wire.send("GET", "/demo/v1/me", { token: refreshed.json?.access_token ?? "none" });
  const redirect_uri = ctx.client.redirect_uris[0] as string;
  await wire.send("POST", "/oauth/token", {
    token: null,
    form: { grant_type: "authorization_code", code: ctx.pendingCode, redirect_uri, ...client },
  });
  await wire.send("POST", "/oauth/token", {
    token: null,
    form: { grant_type: "authorization_code", code: ctx.usedCode, redirect_uri, ...client },
  });
  await wire.send("GET", "/demo/v1/me", { token: ctx.accessToken });
  await wire.send("POST", "/oauth/authorize", {
    token: null,
    form: Object.fromEntries([...ctx.consent.hidden, ["decision", "allow"]]),
  });
  // Faults, failed authentication from an address, and the customers limit up to its 429.
  for (let i = 0; i < 3; i++) await wire.send("GET", "/demo/v1/taxes");
  await wire.send("GET", "/demo/v1/me", { token: "rsk_not_a_key_00000000000000000000000000", address: "10.0.0.9" });
  for (let i = 0; i < 32; i++) await wire.send("GET", "/demo/v1/customers?limit=1");
  // Time passes: windows reset, tokens and idempotency records lapse (a keyed write runs again).
  await wire.control("POST", "/clock", { advance_seconds: 25 * 3600 });
  await wire.send("GET", "/demo/v1/products?limit=1", { token: ctx.accessToken });
  await keyedSend(ctx.keyed[0] as KeyedRequest);
  await readEverything(wire, ctx);
  return wire.transcript;
}
