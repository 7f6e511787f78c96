// The example requests of the account, reference data, sales, customers and OAuth token operations
// (docs/sdk-authors.md, Examples), each chosen to succeed on a fresh demo store with the documented status, and
// one request that fails, with the failure it gets. Names come from the demo fixture
// (scenarios/fixtures/demo.ts, demo-people.ts); ids, versions and cursors are read from a fresh demo simulator.
// Sales lie in the days before the manual clock's start, 2026-01-01T00:00:00Z.
import { badLimit, badQuery, id, type Lookup, notFound, type Recipe, secondPage } from "./openapi-example-kit.js";

const accountRecipes = {
  getMe: async () => ({
    name: "fullKey",
    summary: "The demo store's key full, with every scope",
    request: {},
    error: { code: "UNAUTHORIZED", status: 401, summary: "No Authorization header", key: null },
  }),
  getStore: async () => ({
    name: "demoOutfitters",
    summary: "The demo store, Demo Outfitters",
    request: {},
    error: {
      code: "PLAN_REQUIRED",
      status: 402,
      summary: "The same call to the store lite, whose plan has no API access",
      prefix: "lite",
    },
  }),
  listOutlets: (demo: Lookup) =>
    secondPage(demo, "/outlets", 1, badQuery("An unreadable cursor", { cursor: "garbage" })),
  listPaymentTypes: (demo: Lookup) =>
    secondPage(demo, "/payment-types", 2, badQuery("order=sideways: order is asc or desc", { order: "sideways" })),
  listTaxes: (demo: Lookup) => secondPage(demo, "/taxes", 1, badLimit("/taxes")),
  listAdjustmentReasons: async () => ({
    name: "all",
    summary: "The demo store's reasons: the system reason, one disabled",
    request: {},
    error: {
      code: "INSUFFICIENT_SCOPE",
      status: 403,
      summary: "The key catalog:read, without inventory:read",
      key: "catalog:read",
    },
  }),
  getOpenapi: async () => ({
    name: "document",
    summary: "This document",
    request: {},
    error: { code: "UNAUTHORIZED", status: 401, summary: "No Authorization header", key: null },
  }),
};

/** Sales at Main Street completed from 2025-12-29 to 2025-12-31, one a page. */
const SALES_QUERY = {
  completed_from: "2025-12-29T00:00:00Z",
  completed_to: "2025-12-31T23:59:59Z",
  status: "completed",
  limit: 1,
  order: "asc",
} as const;

const salesRecipes = {
  listSales: async (demo: Lookup) => {
    const query = { ...SALES_QUERY, outlet_id: await id(demo, "/outlets", "name", "Main Street") };
    return {
      name: "mainStreetSecondPage",
      summary: "The second page of the sales completed at Main Street over three days, one a page",
      request: { query: { ...query, cursor: await demo.nextCursor("/sales", query) } },
      error: badQuery("status=open", { status: "open" }),
    };
  },
  getSale: async (demo: Lookup) => ({
    name: "partiallyRefunded",
    summary: "A sale to BOB at Harbour Front, partially refunded (the refund is a sale of its own)",
    request: { path: { id: await id(demo, "/sales", "status", "partially_refunded") } },
    error: notFound("sale"),
  }),
};

const customer = (demo: Lookup, code: string) => demo.find("/customers", "customer_code", code);

const customerRecipes = {
  listCustomers: (demo: Lookup) => secondPage(demo, "/customers", 2, badLimit("/customers")),
  createCustomer: async (demo: Lookup) => ({
    name: "frank",
    summary: "A VIP customer with loyalty",
    request: {
      header: { "Idempotency-Key": "create-customer-frank" },
      body: {
        customer_code: "FRANK",
        first_name: "Frank",
        last_name: "Moreau",
        email: "frank@example.com",
        phone: "+1 555 0142",
        city: "Portland",
        country: "US",
        customer_group_id: await id(demo, "/customer-groups", "name", "VIP"),
        enable_loyalty: true,
      },
    },
    error: {
      code: "CONFLICT",
      status: 409,
      summary: "A customer with ALICE's customer_code",
      body: { customer_code: "ALICE", first_name: "Alice" },
    },
  }),
  getCustomer: async (demo: Lookup) => ({
    name: "alice",
    summary: "ALICE, a VIP customer with loyalty",
    request: { path: { id: (await customer(demo, "ALICE")).id } },
    error: notFound("customer"),
  }),
  updateCustomer: async (demo: Lookup) => {
    const bob = await customer(demo, "BOB");
    return {
      name: "bob",
      summary: "BOB moves to Evanston, at his current version",
      request: { path: { id: bob.id }, body: { city: "Evanston", phone: "+1 555 0177", version: bob.version } },
      error: {
        code: "STALE_VERSION",
        status: 409,
        summary: "The same update at an older version",
        path: { id: bob.id },
        body: { city: "Evanston", version: "1" },
      },
    };
  },
  deleteCustomer: async (demo: Lookup) => ({
    name: "dev",
    summary: "Erase DEV (his sale remains, with the anonymized customer)",
    request: { path: { id: (await customer(demo, "DEV")).id } },
    error: {
      code: "CONFLICT",
      status: 409,
      summary: "Delete the walk-in customer",
      path: { id: (await customer(demo, "WALKIN")).id },
    },
  }),
  listCustomerGroups: (demo: Lookup) => secondPage(demo, "/customer-groups", 2, badLimit("/customer-groups")),
  getCustomerGroup: async (demo: Lookup) => ({
    name: "vip",
    summary: "The group VIP",
    request: { path: { id: await id(demo, "/customer-groups", "name", "VIP") } },
    error: notFound("customer group"),
  }),
};

/** The consent the token example's code comes from (openapi-examples.ts, `prepareExample`). */
const tokenRecipe = {
  createToken: async (demo: Lookup) => {
    const client = demo.client();
    const form = {
      grant_type: "authorization_code",
      code: demo.code(),
      redirect_uri: client.redirect_uri,
      client_id: client.client_id,
      client_secret: client.client_secret,
    };
    return {
      name: "authorizationCode",
      summary:
        "Exchange the code of admin@demo.example's consent (scopes catalog:read and inventory:read) for tokens; on a fresh demo simulator, POST /_sim/oauth/authorize issues this code",
      request: { body: form },
      error: {
        code: "invalid_grant",
        status: 400,
        summary: "A code the service never issued",
        body: { ...form, code: "rsc_code_unknown" },
      },
    };
  },
};

/** The recipes of the account, sales, customers and token operations, by operationId. */
export const PEOPLE_RECIPES: Readonly<Record<string, (demo: Lookup) => Promise<Recipe>>> = {
  ...accountRecipes,
  ...salesRecipes,
  ...customerRecipes,
  ...tokenRecipe,
};
