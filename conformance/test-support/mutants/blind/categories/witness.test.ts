import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createSimulator, type Simulator } from "../../../../../src/simulator.js";
import * as oa from "../../../../../src/test-support/oauth.js";
import { mutantSimulator } from "../../index.js";
import { ALL_CATEGORY_MUTANTS, CATEGORY_MUTANTS } from "./index.js";

// Each category mutant is real: a short request sequence, run against the honest simulator and
// against the mutant, whose observed value is the spec's on the first and differs on the second.
// Time moves only through the control plane's clock.

const ORIGIN = "http://sim.test";

interface Reply {
  status: number;
  headers: Headers;
  json: any;
}

interface CallOptions {
  /** A fixture key of the path's store (default `full`). */
  key?: string;
  /** A bearer token instead of a fixture key; null sends no Authorization. */
  token?: string | null;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
}

async function call(sim: Simulator, method: string, path: string, o: CallOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...o.headers };
  const token = o.token === undefined ? sim.token(path.split("/")[1] ?? "demo", o.key ?? "full") : o.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const body = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
  if (body !== undefined || (path.startsWith("/_sim") && method !== "GET"))
    headers["content-type"] = "application/json";
  const res = await sim.fetch(`${ORIGIN}${path}`, { method, headers, body });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json };
}

const api = (sim: Simulator, method: string, path: string, o: CallOptions = {}) =>
  call(sim, method, `/demo/v1${path}`, o);
const ctl = (sim: Simulator, method: string, path: string, body?: unknown) =>
  call(sim, method, `/_sim${path}`, { token: null, ...(body === undefined ? {} : { body }) });
const advance = (sim: Simulator, seconds: number) => ctl(sim, "POST", "/clock", { advance_seconds: seconds });
const DAY = 86_400;

let keys = 0;
const key = (): Record<string, string> => ({ "idempotency-key": `witness-${++keys}` });
const product = async (sim: Simulator, sku: string) => (await api(sim, "GET", `/products?sku=${sku}`)).json.data[0];
const outlet = async (sim: Simulator) => (await api(sim, "GET", "/outlets")).json.data[0].id as string;
const reason = async (sim: Simulator, name: string) =>
  (await api(sim, "GET", "/inventory/adjustment-reasons")).json.data.find((r: { name: string }) => r.name === name).id;
const level = async (sim: Simulator, productId: string, outletId: string) =>
  (await api(sim, "GET", `/products/${productId}/inventory`)).json.data.find(
    (l: { outlet_id: string }) => l.outlet_id === outletId,
  )?.on_hand;
const keyId = async (sim: Simulator, name: string) =>
  (await ctl(sim, "GET", "/credentials")).json.stores
    .find((s: { prefix: string }) => s.prefix === "demo")
    .keys.find((k: { name: string }) => k.name === name).id as string;
const customer = async (sim: Simulator, code: string) =>
  (await api(sim, "GET", "/customers?limit=200")).json.data.find(
    (c: { customer_code: string }) => c.customer_code === code,
  );
const headless = async (sim: Simulator, body: Partial<oa.AuthorizeBody> & { user_id: string }) => {
  const fx = await oa.fixture(sim);
  return oa.authorizeHeadless(sim, {
    client_id: fx.client.client_id,
    redirect_uri: fx.redirectUri,
    scope: "catalog:read",
    state: "st-w",
    decision: "allow",
    ...body,
  });
};
const redirectParam = (r: oa.JsonReply, name: string) =>
  r.status === 200 ? new URL(r.json.redirect_to).searchParams.get(name) : `status ${r.status}`;
const connect = async (sim: Simulator, scope = "catalog:read") => oa.connect(sim, await oa.fixture(sim), scope);
const exchangeStatus = async (sim: Simulator, code: string, extra: Record<string, string> = {}) => {
  const fx = await oa.fixture(sim);
  const r = await oa.token(sim, {
    grant_type: "authorization_code",
    code,
    redirect_uri: fx.redirectUri,
    ...oa.bodyCreds(fx.client),
    ...extra,
  });
  return r.status;
};
const sale = async (sim: Simulator, quantity: number, completedAt?: string) => {
  const mug = await product(sim, "MUG-ENAMEL");
  const body = {
    outlet_id: await outlet(sim),
    lines: [{ product_id: mug.id, quantity, unit_price: 1000 }],
    ...(completedAt ? { completed_at: completedAt } : {}),
  };
  return { sale: (await ctl(sim, "POST", "/stores/demo/sales", body)).json, mug };
};

interface Witness {
  name: string;
  /** The spec's answer, which the honest simulator gives. */
  expected: unknown;
  witness: (sim: Simulator) => Promise<unknown>;
}

const W: Witness[] = [
  // ---- state ----
  {
    name: "blind.state.tag-unlink-keeps-version",
    expected: true,
    witness: async (sim) => {
      const p = await product(sim, "TOTE-CANVAS");
      await api(sim, "PATCH", `/products/${p.id}`, { body: { tags: [{ id: p.tags[0].id }] } });
      return (await api(sim, "GET", `/products/${p.id}`)).json.data.version !== p.version;
    },
  },
  {
    name: "blind.state.supplier-rename-keeps-version",
    expected: true,
    witness: async (sim) => {
      const p = await product(sim, "TOTE-CANVAS");
      await api(sim, "PATCH", `/suppliers/${p.suppliers[1].supplier_id}`, { body: { name: "Acme Wholesale Ltd" } });
      return (await api(sim, "GET", `/products/${p.id}`)).json.data.version !== p.version;
    },
  },
  {
    name: "blind.state.code-edit-keeps-version",
    expected: true,
    witness: async (sim) => {
      const p = await product(sim, "TOTE-CANVAS");
      const codes = [p.codes[0], { type: "custom", code: "TOTE02" }];
      await api(sim, "PATCH", `/products/${p.id}`, { body: { codes } });
      return (await api(sim, "GET", `/products/${p.id}`)).json.data.version !== p.version;
    },
  },
  {
    name: "blind.state.second-refund-keeps-parent",
    expected: "refunded",
    witness: async (sim) => {
      const { sale: s, mug } = await sale(sim, 3);
      await ctl(sim, "POST", `/stores/demo/sales/${s.id}/refunds`, { lines: [{ product_id: mug.id, quantity: 1 }] });
      await ctl(sim, "POST", `/stores/demo/sales/${s.id}/refunds`, {});
      return (await api(sim, "GET", `/sales/${s.id}`)).json.data.status;
    },
  },
  {
    name: "blind.state.erased-details-in-tombstone",
    expected: false,
    witness: async (sim) => {
      const alice = await customer(sim, "ALICE");
      await api(sim, "DELETE", `/customers/${alice.id}`);
      const rows = (await api(sim, "GET", "/customers?include_deleted=true&limit=200")).json.data;
      return "email" in rows.find((r: { id: string }) => r.id === alice.id);
    },
  },
  {
    name: "blind.state.tags-merged-not-replaced",
    expected: ["New"],
    witness: async (sim) => {
      const p = await product(sim, "TOTE-CANVAS");
      const tag = (await api(sim, "GET", "/tags")).json.data.find((t: { name: string }) => t.name === "New");
      const r = await api(sim, "PATCH", `/products/${p.id}`, { body: { tags: [{ id: tag.id }] } });
      return r.json.data.tags.map((t: { name: string }) => t.name);
    },
  },
  {
    name: "blind.state.deleted-product-stock-readable",
    expected: 404,
    witness: async (sim) => {
      const p = await product(sim, "SOCKS-WOOL");
      await api(sim, "DELETE", `/products/${p.id}`);
      return (await api(sim, "GET", `/products/${p.id}/inventory`)).status;
    },
  },
  {
    name: "blind.state.category-delete-leaves-products",
    expected: "Other Products",
    witness: async (sim) => {
      const cat = (await api(sim, "POST", "/categories", { body: { name: "Seasonal" } })).json.data;
      const p = (
        await api(sim, "POST", "/products", { body: { name: "Lantern", retail_price: 900, category_id: cat.id } })
      ).json.data;
      await api(sim, "DELETE", `/categories/${cat.id}`);
      const now = (await api(sim, "GET", `/products/${p.id}`)).json.data.category_id;
      return (await api(sim, "GET", `/categories/${now}`)).json?.data?.name ?? null;
    },
  },
  {
    name: "blind.state.adjust-after-set-stale",
    expected: 5,
    witness: async (sim) => {
      const [mug, o] = [await product(sim, "MUG-ENAMEL"), await outlet(sim)];
      await api(sim, "PUT", `/products/${mug.id}/inventory/${o}`, { body: { on_hand: 4 } });
      const adjust = { product_id: mug.id, outlet_id: o, reason_id: await reason(sim, "Stock received"), quantity: 1 };
      await api(sim, "POST", "/inventory/adjustments", { body: adjust, headers: key() });
      return level(sim, mug.id, o);
    },
  },
  {
    name: "blind.state.repeat-set-after-adjust-skipped",
    expected: 5,
    witness: async (sim) => {
      const [mug, o] = [await product(sim, "MUG-ENAMEL"), await outlet(sim)];
      await api(sim, "PUT", `/products/${mug.id}/inventory/${o}`, { body: { on_hand: 5 } });
      const adjust = { product_id: mug.id, outlet_id: o, reason_id: await reason(sim, "Stock received"), quantity: 1 };
      await api(sim, "POST", "/inventory/adjustments", { body: adjust, headers: key() });
      await api(sim, "PUT", `/products/${mug.id}/inventory/${o}`, { body: { on_hand: 5 } });
      return level(sim, mug.id, o);
    },
  },
  {
    name: "blind.state.product-tombstone-keeps-version",
    expected: true,
    witness: async (sim) => {
      const p = await product(sim, "SOCKS-WOOL");
      await api(sim, "DELETE", `/products/${p.id}`);
      const rows = (await api(sim, "GET", "/products?include_deleted=true&limit=200")).json.data;
      return rows.find((r: { id: string }) => r.id === p.id).version !== p.version;
    },
  },
  {
    name: "blind.state.tag-delete-keeps-links",
    expected: false,
    witness: async (sim) => {
      const tag = (await product(sim, "TOTE-CANVAS")).tags.find((t: { name: string }) => t.name === "Bestseller");
      await api(sim, "DELETE", `/tags/${tag.id}`);
      return (await product(sim, "TOTE-CANVAS")).tags.some((t: { id: string }) => t.id === tag.id);
    },
  },
  // ---- edges ----
  {
    name: "blind.edges.limit-200-refused",
    expected: 200,
    witness: async (sim) => (await api(sim, "GET", "/brands?limit=200")).status,
  },
  {
    name: "blind.edges.ten-codes-refused",
    expected: 201,
    witness: async (sim) => {
      const codes = Array.from({ length: 10 }, (_, i) => ({ type: "custom", code: `C-${i}` }));
      return (await api(sim, "POST", "/products", { body: { name: "Ten codes", retail_price: 100, codes } })).status;
    },
  },
  {
    name: "blind.edges.twenty-one-tags-accepted",
    expected: 422,
    witness: async (sim) => {
      const tags = [];
      for (let i = 0; i < 21; i++)
        tags.push({ id: (await api(sim, "POST", "/tags", { body: { name: `W${i}` } })).json.data.id });
      return (await api(sim, "POST", "/products", { body: { name: "Many tags", retail_price: 100, tags } })).status;
    },
  },
  {
    name: "blind.edges.hundred-batch-lines-refused",
    expected: 422,
    witness: async (sim) => {
      const o = await outlet(sim);
      const lines = Array.from({ length: 100 }, (_, i) => ({ sku: `NO-SUCH-${i}`, outlet_id: o, set: { on_hand: 1 } }));
      return (await api(sim, "POST", "/inventory/batch", { body: { lines }, headers: key() })).status;
    },
  },
  {
    name: "blind.edges.key-of-255-refused",
    expected: 201,
    witness: async (sim) =>
      (
        await api(sim, "POST", "/brands", {
          body: { name: "Long key" },
          headers: { "idempotency-key": "k".repeat(255) },
        })
      ).status,
  },
  {
    name: "blind.edges.key-case-folded",
    expected: 201,
    witness: async (sim) => {
      await api(sim, "POST", "/brands", { body: { name: "Alpha" }, headers: { "idempotency-key": "Case-Key" } });
      return (await api(sim, "POST", "/brands", { body: { name: "Beta" }, headers: { "idempotency-key": "case-key" } }))
        .status;
    },
  },
  {
    name: "blind.edges.empty-key-ignored",
    expected: 400,
    witness: async (sim) =>
      (await api(sim, "POST", "/brands", { body: { name: "Empty key" }, headers: { "idempotency-key": "" } })).status,
  },
  {
    name: "blind.edges.completed-from-date-accepted",
    expected: 400,
    witness: async (sim) => (await api(sim, "GET", "/sales?completed_from=2025-12-30")).status,
  },
  {
    name: "blind.edges.three-decimals-refused",
    expected: 200,
    witness: async (sim) => {
      const mug = await product(sim, "MUG-ENAMEL");
      return (await api(sim, "PUT", `/products/${mug.id}/inventory/${await outlet(sim)}`, { body: { on_hand: 4.125 } }))
        .status;
    },
  },
  {
    name: "blind.edges.batch-sku-non-ascii-case",
    expected: 200,
    witness: async (sim) => {
      await api(sim, "POST", "/products", { body: { name: "Café mug", retail_price: 1200, sku: "CAFÉ-MUG" } });
      const lines = [{ sku: "café-mug", outlet_id: await outlet(sim), set: { on_hand: 3 } }];
      return (await api(sim, "POST", "/inventory/batch", { body: { lines }, headers: key() })).status;
    },
  },
  {
    name: "blind.edges.attribute-position-3-refused",
    expected: 201,
    witness: async (sim) => {
      const variant_attributes = ["Size", "Colour", "Fit"].map((name, i) => ({ name, position: i + 1 }));
      const body = { name: "Jacket", retail_price: 9000, has_variants: true, variant_attributes };
      return (await api(sim, "POST", "/products", { body })).status;
    },
  },
  {
    name: "blind.edges.empty-codes-untouched",
    expected: 0,
    witness: async (sim) => {
      const p = await product(sim, "TOTE-CANVAS");
      return (await api(sim, "PATCH", `/products/${p.id}`, { body: { codes: [] } })).json.data.codes.length;
    },
  },
  // ---- double ----
  {
    name: "blind.double.body-before-scope",
    expected: 403,
    witness: async (sim) => (await api(sim, "POST", "/products", { key: "none", raw: "{" })).status,
  },
  {
    name: "blind.double.row-before-scope",
    expected: 403,
    witness: async (sim) =>
      (await api(sim, "GET", "/sales/00000000-0000-4000-8000-000000000000", { key: "catalog:read" })).status,
  },
  {
    name: "blind.double.key-header-before-scope",
    expected: 403,
    witness: async (sim) =>
      (await api(sim, "POST", "/inventory/adjustments", { key: "catalog:read", body: {} })).status,
  },
  {
    name: "blind.double.route-before-auth",
    expected: 401,
    witness: async (sim) => (await api(sim, "GET", "/nowhere", { token: "not-a-key" })).status,
  },
  {
    name: "blind.double.key-header-before-auth",
    expected: 401,
    witness: async (sim) => {
      await ctl(sim, "POST", `/keys/${await keyId(sim, "inventory:write")}/revoke`);
      return (await api(sim, "POST", "/inventory/adjustments", { key: "inventory:write", body: {} })).status;
    },
  },
  {
    name: "blind.double.scope-before-expiry",
    expected: 401,
    witness: async (sim) => {
      await advance(sim, 91 * DAY);
      return (await api(sim, "GET", "/products", { key: "none" })).status;
    },
  },
  {
    name: "blind.double.body-before-paused-store",
    expected: 402,
    witness: async (sim) => {
      await ctl(sim, "PATCH", "/stores/demo", { status: "paused" });
      return (await api(sim, "POST", "/products", { raw: "{" })).status;
    },
  },
  {
    name: "blind.double.replay-after-revoke",
    expected: 401,
    witness: async (sim) => {
      const k = (await ctl(sim, "POST", "/stores/demo/keys", { name: "temp", scopes: ["catalog:write"] })).json;
      const once = { token: k.token, body: { name: "Gamma" }, headers: key() };
      await api(sim, "POST", "/brands", once);
      await ctl(sim, "POST", `/keys/${k.id}/revoke`);
      return (await api(sim, "POST", "/brands", once)).status;
    },
  },
  {
    name: "blind.double.sku-check-before-replay",
    expected: 201,
    witness: async (sim) => {
      const once = { body: { name: "Dup", retail_price: 100, sku: "DUP-1" }, headers: key() };
      await api(sim, "POST", "/products", once);
      return (await api(sim, "POST", "/products", once)).status;
    },
  },
  {
    name: "blind.double.body-before-key-reuse",
    expected: 422,
    witness: async (sim) => {
      const headers = key();
      await api(sim, "POST", "/brands", { body: { name: "Delta" }, headers });
      return (await api(sim, "POST", "/brands", { raw: "{", headers })).status;
    },
  },
  {
    name: "blind.double.auth-before-lockout",
    expected: 429,
    witness: async (sim) => {
      for (let i = 0; i < 30; i++) await api(sim, "GET", "/me", { token: "guessed" });
      return (await api(sim, "GET", "/me", { token: "guessed" })).status;
    },
  },
  {
    name: "blind.double.client-auth-before-token-limit",
    expected: "invalid_request",
    witness: async (sim) => {
      const fx = await oa.fixture(sim);
      const form = {
        grant_type: "authorization_code",
        code: "nope",
        redirect_uri: fx.redirectUri,
        client_id: fx.client.client_id,
        client_secret: "wrong",
      };
      for (let i = 0; i < 30; i++) await oa.token(sim, form);
      return (await oa.token(sim, form)).json.error;
    },
  },
  // ---- time ----
  {
    name: "blind.time.retry-after-http-date",
    expected: "300",
    witness: async (sim) => {
      for (let i = 0; i < 30; i++) await api(sim, "GET", "/me", { token: "guessed" });
      return (await api(sim, "GET", "/me", { token: "guessed" })).headers.get("retry-after");
    },
  },
  {
    name: "blind.time.ratelimit-reset-counts-up",
    expected: "40",
    witness: async (sim) => {
      await api(sim, "GET", "/me");
      await advance(sim, 20);
      return /reset=(\d+)/.exec((await api(sim, "GET", "/me")).headers.get("ratelimit") ?? "")?.[1];
    },
  },
  {
    name: "blind.time.access-token-30-minutes",
    expected: 200,
    witness: async (sim) => {
      const t = await connect(sim);
      await advance(sim, 31 * 60);
      return (await api(sim, "GET", "/me", { token: t.access_token })).status;
    },
  },
  {
    name: "blind.time.access-token-2-hours",
    expected: 401,
    witness: async (sim) => {
      const t = await connect(sim);
      await advance(sim, 61 * 60);
      return (await api(sim, "GET", "/me", { token: t.access_token })).status;
    },
  },
  {
    name: "blind.time.code-valid-5-minutes",
    expected: 200,
    witness: async (sim) => {
      const code = await oa.getCode(sim, await oa.fixture(sim));
      await advance(sim, 6 * 60);
      return exchangeStatus(sim, code);
    },
  },
  {
    name: "blind.time.code-valid-15-minutes",
    expected: 400,
    witness: async (sim) => {
      const code = await oa.getCode(sim, await oa.fixture(sim));
      await advance(sim, 11 * 60);
      return exchangeStatus(sim, code);
    },
  },
  {
    name: "blind.time.idempotency-never-lapses",
    expected: null,
    witness: async (sim) => {
      const once = { body: { name: "Kettle", retail_price: 2500 }, headers: key() };
      await api(sim, "POST", "/products", once);
      await advance(sim, DAY + 1);
      return (await api(sim, "POST", "/products", once)).headers.get("idempotent-replayed");
    },
  },
  {
    name: "blind.time.credential-idle-30-days",
    expected: 200,
    witness: async (sim) => {
      await api(sim, "GET", "/me");
      await advance(sim, 31 * DAY);
      return (await api(sim, "GET", "/me")).status;
    },
  },
  {
    name: "blind.time.never-used-key-from-store-start",
    expected: 200,
    witness: async (sim) => {
      await advance(sim, 60 * DAY);
      const k = (await ctl(sim, "POST", "/stores/demo/keys", { name: "late", scopes: ["catalog:read"] })).json;
      await advance(sim, 40 * DAY);
      return (await api(sim, "GET", "/me", { token: k.token })).status;
    },
  },
  {
    name: "blind.time.completed-from-drops-milliseconds",
    expected: 0,
    witness: async (sim) => {
      await sale(sim, 1, "2025-12-31T10:00:00.200Z");
      const range = "completed_from=2025-12-31T10:00:00.500Z&completed_to=2025-12-31T10:00:01.000Z";
      return (await api(sim, "GET", `/sales?${range}`)).json.data.length;
    },
  },
  {
    name: "blind.time.local-timestamps-after-first-day",
    expected: true,
    witness: async (sim) => {
      await advance(sim, 2 * DAY);
      const p = (await api(sim, "POST", "/products", { body: { name: "Late", retail_price: 100 } })).json.data;
      return p.created_at.endsWith("Z");
    },
  },
  {
    name: "blind.time.expires-in-counts-down",
    expected: 3600,
    witness: async (sim) => {
      const t = await connect(sim);
      await advance(sim, 20 * 60);
      return (await oa.refresh(sim, (await oa.fixture(sim)).client, t.refresh_token)).json.expires_in;
    },
  },
  // ---- oauth ----
  {
    name: "blind.oauth.pkce-plain-accepted",
    expected: "invalid_request",
    witness: async (sim) => {
      const fx = await oa.fixture(sim);
      const r = await headless(sim, {
        user_id: fx.admin.id,
        code_challenge: "plain-verifier-0123456789-0123456789-0123456789",
        code_challenge_method: "plain",
      });
      return redirectParam(r, "error");
    },
  },
  {
    name: "blind.oauth.pkce-verifier-unchecked",
    expected: 400,
    witness: async (sim) => {
      const code = await oa.getCode(sim, await oa.fixture(sim), { challenge: oa.pkcePair().challenge });
      return exchangeStatus(sim, code, { code_verifier: oa.pkcePair().verifier });
    },
  },
  {
    name: "blind.oauth.non-admin-connects",
    expected: 400,
    witness: async (sim) => (await headless(sim, { user_id: (await oa.fixture(sim)).staff.id })).status,
  },
  {
    name: "blind.oauth.lite-plan-connects",
    expected: 400,
    witness: async (sim) => (await headless(sim, { user_id: (await oa.fixture(sim)).liteAdmin.id })).status,
  },
  {
    name: "blind.oauth.read-token-erases",
    expected: 403,
    witness: async (sim) => {
      const t = await connect(sim, "customers:read");
      return (await api(sim, "DELETE", `/customers/${(await customer(sim, "BOB")).id}`, { token: t.access_token }))
        .status;
    },
  },
  {
    name: "blind.oauth.token-type-lowercase",
    expected: "Bearer",
    witness: async (sim) => (await connect(sim)).token_type,
  },
  {
    name: "blind.oauth.api-base-url-without-prefix",
    expected: `${ORIGIN}/demo/v1`,
    witness: async (sim) => (await connect(sim)).api_base_url,
  },
  {
    name: "blind.oauth.disconnect-spares-access-tokens",
    expected: 401,
    witness: async (sim) => {
      const t = await connect(sim);
      for (const c of (await ctl(sim, "GET", "/connections")).json)
        await ctl(sim, "POST", `/connections/${c.id}/disconnect`);
      return (await api(sim, "GET", "/me", { token: t.access_token })).status;
    },
  },
  {
    name: "blind.oauth.cancel-not-access-denied",
    expected: "access_denied",
    witness: async (sim) =>
      redirectParam(await headless(sim, { user_id: (await oa.fixture(sim)).admin.id, decision: "cancel" }), "error"),
  },
  {
    name: "blind.oauth.code-redeemable-by-other-client",
    expected: 400,
    witness: async (sim) => {
      const fx = await oa.fixture(sim);
      const other = (await ctl(sim, "POST", "/oauth/clients", { name: "Other app", redirect_uris: [fx.redirectUri] }))
        .json;
      const code = await oa.getCode(sim, fx);
      return exchangeStatus(sim, code, { client_id: other.client_id, client_secret: other.client_secret });
    },
  },
  {
    name: "blind.oauth.refresh-without-client-auth",
    expected: 401,
    witness: async (sim) => {
      const t = await connect(sim);
      return (await oa.token(sim, { grant_type: "refresh_token", refresh_token: t.refresh_token })).status;
    },
  },
  {
    name: "blind.oauth.plus-separated-scope-refused",
    expected: true,
    witness: async (sim) => {
      const r = await headless(sim, { user_id: (await oa.fixture(sim)).admin.id, scope: "catalog:read+sales:read" });
      return typeof redirectParam(r, "code") === "string" && redirectParam(r, "error") === null;
    },
  },
];

const SPEC = readFileSync(new URL("../../../../spec/retail-api-v1.md", import.meta.url), "utf8")
  .replace(/`/g, "")
  .replace(/\s+/g, " ");

/** The spec sentence a mutant's `breaks` quotes: the text between the first `"` and the last `" (`. */
const quoteOf = (breaks: string): string | undefined => /"(.+)" \(/s.exec(breaks)?.[1];

describe("category mutants", () => {
  it("has one witness per mutant, about twelve per category, each named for its category", () => {
    expect(W.map((w) => w.name).sort()).toEqual(ALL_CATEGORY_MUTANTS.map((m) => m.name).sort());
    expect(new Set(W.map((w) => w.name)).size).toBe(W.length);
    for (const [category, mutants] of Object.entries(CATEGORY_MUTANTS)) {
      expect(mutants.length).toBeGreaterThanOrEqual(10);
      for (const m of mutants) {
        expect(m.name.startsWith(`blind.${category}.`)).toBe(true);
      }
    }
  });

  it.each(ALL_CATEGORY_MUTANTS.map((m) => [m.name, m.breaks] as const))("%s quotes the spec verbatim", (_, breaks) => {
    const quote = quoteOf(breaks);
    expect(quote, breaks).toBeDefined();
    for (const part of (quote ?? "").split("...").map((p) => p.trim().replace(/\s+/g, " ")))
      if (part !== "") expect(SPEC, `"${part}"`).toContain(part);
  });

  it.each(W.map((w) => [w.name, w] as const))("%s is witnessed", async (name, w) => {
    const mutant = ALL_CATEGORY_MUTANTS.find((m) => m.name === name);
    if (!mutant) throw new Error(`no mutant ${name}`);
    const honest = await w.witness(createSimulator({ clock: "manual", seed: 1 }));
    expect(honest).toEqual(w.expected);
    const broken = await w.witness(mutantSimulator(mutant)({ clock: "manual", seed: 1 }));
    expect(broken).not.toEqual(w.expected);
  });
});
