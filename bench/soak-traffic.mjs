// The soak's request stream (npm run soak): a seeded mix of operations that touches every
// store of state the simulator keeps. Authenticated traffic stays within the spec's rate limits the way
// a real client would, by rotating over many API keys (at most KEY_BUDGET requests, CUSTOMER_BUDGET of
// them on customer endpoints, per key); the abuse is deliberately over them (failed authentication from
// many loopback addresses, unauthenticated requests, failed token exchanges, sign-ins with no limit).
// Rows are created (products, customers, OAuth connections) in the first half of the run only; the
// second half sends the same requests in shapes that create nothing, so the data stops growing there.
// The OAuth operations are in bench/soak-oauth.mjs.
import { addressCall, JSON_TYPE, json, loopbackAddress, openPool, poolCall } from "./soak-http.mjs";
import { oauthOperations } from "./soak-oauth.mjs";

export const KEY_BUDGET = 100; // of the 120 a minute (spec, Limits)
export const CUSTOMER_BUDGET = 25; // of the 30 a minute on customer endpoints
const SCOPES = ["catalog:write", "inventory:write", "customers:write", "sales:read"];
const BASE_PRODUCTS = 50; // times two outlets: the 100 lines of a batch

/**
 * Operations and their weights (per thousand operations; some send several requests). On the frozen
 * clock, where nothing lapses, the stores the caps bound fill before 40% of a default run: new
 * rate-limit windows (two per failed authentication from a new address, one per failed token exchange:
 * about 0.54 a request, 100,000 by ~185,000 requests), pending sign-ins (abandoned ones, 10,000 by
 * ~180,000) and unexchanged codes (likewise), idempotency bytes (a batch's answer is ~18 KB) and
 * movements (100 a batch) much sooner; so the second half, over which the slope is fitted, sees only
 * what the bounds let stay.
 */
export const MIX = {
  me: 109,
  products_page: 60,
  product_get: 50,
  sales_page: 50,
  customers_page: 20,
  stock_put: 70,
  batch_100_lines: 50,
  adjustment: 60,
  product_patch: 40,
  product_create_delete: 30,
  customer_create_erase: 15,
  big_unknown_keys_body: 1,
  bad_key_new_address: 250,
  no_auth_new_address: 30,
  no_auth: 15,
  token_failure_new_address: 30,
  sign_in_abandoned: 60,
  sign_in_allowed_code_kept: 25,
  control_authorize: 30,
  sign_in_exchange: 5,
};

/** mulberry32: a small seeded generator, so two runs send the same stream. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Traffic {
  /** `total` requests; `mode` "moving" or "frozen"; `ready` the simulator's ready line. */
  constructor({ ready, mode, total, concurrency, stateBytes, bigBodyBytes, clockEvery, clockStepSeconds, skip = [] }) {
    this.origin = ready.listen_url;
    this.pool = openPool(this.origin, concurrency);
    this.mode = mode;
    this.total = total;
    this.concurrency = concurrency;
    this.clockEvery = clockEvery;
    this.clockStepSeconds = clockStepSeconds;
    this.client = ready.oauth_clients[0];
    this.sent = 0;
    this.ops = 0;
    this.addresses = 0;
    this.clockAdvanced = 0;
    this.nextClockAt = clockEvery;
    this.tally = {};
    this.keys = [];
    this.keyAt = 0;
    this.keysLate = 0;
    this.cursors = {};
    this.stopped = false;
    this.onRequest = () => {};
    this.rng = random(17);
    this.stateFiller = "s".repeat(stateBytes);
    const unknown = Math.floor(bigBodyBytes / 18);
    const big = { name: "Soak unknown keys", retail_price: 100 };
    for (let i = 0; i < unknown; i++) big[`unknown_${String(i).padStart(5, "0")}`] = 0;
    this.bigBody = json(big);
    const ops = Object.entries(MIX).filter(([name]) => !skip.includes(name));
    const sum = ops.reduce((s, [, w]) => s + w, 0);
    let acc = 0;
    this.cumulative = ops.map(([name, w]) => [name, (acc += w / sum)]);
  }

  get secondHalf() {
    return this.sent >= this.total / 2;
  }

  count(op, status) {
    const t = (this.tally[op] ??= {});
    t[status] = (t[status] ?? 0) + 1;
  }

  /** Sends one request, counted against the run and tallied under `op` by status (or network error). */
  async tallied(op, send) {
    this.sent += 1;
    this.onRequest(this.sent);
    try {
      const res = await send();
      this.count(op, res.status);
      return res;
    } catch (error) {
      this.count(op, `error ${error.code ?? error.message}`);
      return { status: 0, headers: {}, text: undefined };
    }
  }

  /** A request on the pool of connections from 127.0.0.1. */
  call(op, method, path, options) {
    return this.tallied(op, () => poolCall(this.pool, method, path, options));
  }

  /** A request from a loopback address never used before in this run. */
  fromNewAddress(op, method, path, options) {
    const address = loopbackAddress(this.addresses++);
    return this.tallied(op, () => addressCall(this.origin, address, method, path, options));
  }

  /** An API key with budget left (made on the spot, and counted, if the ones made up front run out). */
  async key(customers = false) {
    for (;;) {
      const k = this.keys[this.keyAt];
      if (!k) {
        this.keysLate += 1;
        await this.makeKeys(1);
        continue;
      }
      if (k.used < KEY_BUDGET && (!customers || k.customers < CUSTOMER_BUDGET)) {
        k.used += 1;
        if (customers) k.customers += 1;
        return { authorization: `Bearer ${k.token}` };
      }
      this.keyAt += 1;
    }
  }

  async makeKeys(count) {
    const made = [];
    const one = async (i) => {
      const res = await poolCall(this.pool, "POST", "/_sim/stores/demo/keys", {
        headers: JSON_TYPE,
        body: json({ name: `soak-${this.keys.length + i}`, scopes: SCOPES }),
        read: true,
      });
      if (res.status !== 201) throw new Error(`POST /_sim/stores/demo/keys answered ${res.status}: ${res.text}`);
      made.push({ token: JSON.parse(res.text).token, used: 0, customers: 0 });
    };
    for (let i = 0; i < count; i += 16)
      await Promise.all(Array.from({ length: Math.min(16, count - i) }, (_, j) => one(i + j)));
    this.keys.push(...made);
  }

  /** Before the first sample: the keys, 50 products to write stock to, 300 sales to page through. */
  async setup(keyCount) {
    await this.makeKeys(keyCount);
    const get = async (path, headers) =>
      JSON.parse((await poolCall(this.pool, "GET", path, { headers, read: true })).text);
    const auth = await this.key();
    this.outlets = (await get("/demo/v1/outlets", auth)).data.map((o) => o.id);
    this.reason = (await get("/demo/v1/inventory/adjustment-reasons", auth)).data.find(
      (r) => r.name === "Stocktake",
    ).id;
    this.user = (await get("/_sim/credentials")).users.find((u) => u.email === "admin@demo.example");
    this.products = [];
    for (let i = 0; i < BASE_PRODUCTS; i++) {
      const res = await poolCall(this.pool, "POST", "/demo/v1/products", {
        headers: { ...(await this.key()), ...JSON_TYPE },
        body: json({ name: `Soak base ${i}`, sku: `SOAK-BASE-${i}`, retail_price: 1000 + i }),
        read: true,
      });
      if (res.status !== 201) throw new Error(`POST /products answered ${res.status}: ${res.text}`);
      this.products.push(JSON.parse(res.text).data.id);
    }
    for (let i = 0; i < 300; i++) {
      const res = await poolCall(this.pool, "POST", "/_sim/stores/demo/sales", {
        headers: JSON_TYPE,
        body: json({
          outlet_id: this.outlets[i % 2],
          lines: [{ product_id: this.products[i % BASE_PRODUCTS], quantity: 1, unit_price: 1000 }],
        }),
      });
      if (res.status !== 201) throw new Error(`POST /_sim/stores/demo/sales answered ${res.status}`);
    }
  }

  /** Runs the stream until `total` requests were sent or stop() is called. */
  async run() {
    const worker = async () => {
      while (!this.stopped && this.sent < this.total) {
        if (this.mode === "moving" && this.sent >= this.nextClockAt) {
          this.nextClockAt += this.clockEvery;
          await this.moveClock();
          continue;
        }
        const n = this.ops++;
        const r = this.rng();
        const op = this.cumulative.find(([, c]) => r < c)?.[0] ?? "me";
        await this[op](n);
      }
    };
    await Promise.all(Array.from({ length: this.concurrency }, worker));
  }

  stop() {
    this.stopped = true;
  }

  async close() {
    await this.pool.destroy();
  }

  async moveClock() {
    const res = await this.call("clock_advance", "POST", "/_sim/clock", {
      headers: JSON_TYPE,
      body: json({ advance_seconds: this.clockStepSeconds }),
    });
    if (res.status === 200) this.clockAdvanced += this.clockStepSeconds;
  }

  // Reads within the limits; list pages walk their feed with the cursor, from the start again at the end.

  async me() {
    await this.call("me", "GET", "/demo/v1/me", { headers: await this.key() });
  }

  async page(op, list, query, customers = false) {
    const cursor = this.cursors[list];
    const path = `/demo/v1/${list}?limit=50${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await this.call(op, "GET", path, { headers: await this.key(customers), read: true });
    if (res.status !== 200) return;
    const page = JSON.parse(res.text);
    this.cursors[list] = page.has_more ? page.next_cursor : undefined;
  }

  async products_page() {
    await this.page("products_page", "products", "&include_deleted=true");
  }

  async sales_page() {
    await this.page("sales_page", "sales", "");
  }

  async customers_page() {
    await this.page("customers_page", "customers", "&include_deleted=true", true);
  }

  async product_get(n) {
    await this.call("product_get", "GET", `/demo/v1/products/${this.products[n % BASE_PRODUCTS]}`, {
      headers: await this.key(),
    });
  }

  // Writes, each with an Idempotency-Key never used before.

  async write(op, method, path, body, n, customers = false) {
    const headers = { ...(await this.key(customers)), ...JSON_TYPE, "idempotency-key": `soak-${op}-${n}` };
    return this.call(op, method, path, { headers, body: json(body), read: true });
  }

  async stock_put(n) {
    const path = `/demo/v1/products/${this.products[n % BASE_PRODUCTS]}/inventory/${this.outlets[n % 2]}`;
    await this.write("stock_put", "PUT", path, { on_hand: n % 500 }, n);
  }

  async batch_100_lines(n) {
    const lines = this.outlets.flatMap((outlet_id, o) =>
      this.products.map((product_id, i) => ({ product_id, outlet_id, set: { on_hand: (n + i + o) % 500 } })),
    );
    await this.write("batch_100_lines", "POST", "/demo/v1/inventory/batch", { lines }, n);
  }

  async adjustment(n) {
    const body = {
      product_id: this.products[n % BASE_PRODUCTS],
      outlet_id: this.outlets[n % 2],
      reason_id: this.reason,
      quantity: n % 2 === 0 ? 1 : -1,
    };
    await this.write("adjustment", "POST", "/demo/v1/inventory/adjustments", body, n);
  }

  async product_patch(n) {
    const path = `/demo/v1/products/${this.products[n % BASE_PRODUCTS]}`;
    await this.call("product_patch", "PATCH", path, {
      headers: { ...(await this.key()), ...JSON_TYPE },
      body: json({ retail_price: 100 + (n % 900) }),
    });
  }

  /** First half: a product made and deleted (a tombstone stays). Second half: a SKU in use (409) and an unknown id (404). */
  async product_create_delete(n) {
    const sku = this.secondHalf ? "SOAK-BASE-0" : `SOAK-${n}`;
    const res = await this.write(
      "product_create",
      "POST",
      "/demo/v1/products",
      { name: `Soak ${n}`, sku, retail_price: 500 },
      n,
    );
    const id = res.status === 201 ? JSON.parse(res.text).data.id : "00000000-0000-4000-8000-000000000000";
    await this.call("product_delete", "DELETE", `/demo/v1/products/${id}`, { headers: await this.key() });
  }

  /** First half: a customer made and erased. Second half: a body without first_name (400) and an unknown id (404). */
  async customer_create_erase(n) {
    const body = this.secondHalf
      ? { last_name: `Soak ${n}` }
      : { first_name: "Soak", last_name: `Customer ${n}`, email: `soak${n}@example.com` };
    const res = await this.write("customer_create", "POST", "/demo/v1/customers", body, n, true);
    const id = res.status === 201 ? JSON.parse(res.text).data.id : "00000000-0000-4000-8000-000000000000";
    await this.call("customer_erase", "DELETE", `/demo/v1/customers/${id}`, { headers: await this.key(true) });
  }

  async big_unknown_keys_body(n) {
    const headers = { ...(await this.key()), ...JSON_TYPE, "idempotency-key": `soak-big-${n}` };
    await this.call("big_unknown_keys_body", "POST", "/demo/v1/products", { headers, body: this.bigBody });
  }

  // Over the limits on purpose.

  async bad_key_new_address(n) {
    await this.fromNewAddress("bad_key_new_address", "GET", "/demo/v1/me", {
      headers: { authorization: `Bearer rsk_soakNotAKey${n}` },
    });
  }

  async no_auth_new_address() {
    await this.fromNewAddress("no_auth_new_address", "GET", "/demo/v1/products");
  }

  async no_auth() {
    await this.call("no_auth", "GET", "/demo/v1/me");
  }
}

Object.assign(Traffic.prototype, oauthOperations);
