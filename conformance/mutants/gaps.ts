import type { Mutant } from "./base.js";
import { accessGapMutants } from "./gaps-access.js";
import {
  API_PATH,
  CONTROL_PATH,
  answer,
  apiError,
  bodyOf,
  codeOf,
  jsonOf,
  param,
  sideRequest,
  textOf,
  withBody,
} from "./gaps-support.js";

// Broken simulators for the gap rules (conformance/rules/gaps-*.ts): catalog, inventory, customers
// and sales. Each is wrong the way a real server could be; state a mutant keeps lives inside wrap().

const PRODUCTS = API_PATH("/products");
const VARIANTS = API_PATH("/products/[^/]+/variants");
const CATEGORY = API_PATH("/categories/([^/]+)");
const LEVELS = API_PATH("/products/([^/]+)/inventory");
const STOCK_WRITE = [
  API_PATH("/products/[^/]+/inventory/[^/]+"),
  API_PATH("/inventory/adjustments"),
  API_PATH("/inventory/batch"),
];
const BATCH = API_PATH("/inventory/batch");
const REASON = CONTROL_PATH("/stores/[^/]+/adjustment-reasons/([^/]+)");
const CUSTOMERS = API_PATH("/customers");
const SALES = API_PATH("/sales");
const SALE = API_PATH("/sales/([^/]+)");
const CONTROL_SALES = CONTROL_PATH("/stores/[^/]+/sales");

/** Spec, Resources: Customer: the fields of the document. */
const CUSTOMER_FIELDS = new Set([
  "id",
  "customer_group_id",
  "customer_code",
  "first_name",
  "last_name",
  "company_name",
  "email",
  "phone",
  "mobile",
  "website",
  "gender",
  "tax_id",
  "note",
  "date_of_birth",
  "address_1",
  "address_2",
  "city",
  "state",
  "zipcode",
  "country",
  "custom_field_1",
  "custom_field_2",
  "custom_field_3",
  "custom_field_4",
  "on_account_limit",
  "enable_loyalty",
  "dont_email",
  "dont_sms",
  "do_not_sell_share",
  "is_walk_in",
  "created_at",
  "updated_at",
  "version",
]);

const catalog: readonly Mutant[] = [
  {
    name: "product-price-defaults-to-zero",
    breaks: "Resources, Product: retail_price is required on create (this one saves a product without it at price 0)",
    caughtBy: ["catalog.create-required"],
    wrap: (next) => async (req) => {
      const body = bodyOf(req);
      if (
        req.method !== "POST" ||
        !PRODUCTS.test(req.path) ||
        typeof body !== "object" ||
        body === null ||
        (body.retail_price !== undefined && body.retail_price !== null)
      )
        return next(req);
      return next(withBody(req, { ...body, retail_price: 0 }));
    },
  },
  {
    name: "sku-lookup-by-prefix",
    breaks:
      "Endpoints: GET /products?sku= is an exact lookup (this one matches every SKU that starts with it, like SQL LIKE 'x%')",
    caughtBy: ["catalog.sku-exact-lookup"],
    wrap: (next) => async (req) => {
      const sku = param(req.query, "sku");
      if (req.method !== "GET" || !PRODUCTS.test(req.path) || sku === undefined) return next(req);
      const rows: any[] = [];
      let cursor: string | null = null;
      let last;
      for (let pages = 0; pages < 100; pages++) {
        last = await next(
          sideRequest(req, "GET", req.path, `limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`),
        );
        const page = jsonOf(last);
        if (last.status !== 200 || !Array.isArray(page?.data)) return last;
        rows.push(...page.data.filter((p: any) => String(p?.sku).toLowerCase().startsWith(sku.toLowerCase())));
        if (!page.has_more) break;
        cursor = page.next_cursor;
      }
      return answer(last!, 200, { data: rows, next_cursor: null, has_more: false });
    },
  },
  {
    name: "variants-empty-accepted",
    breaks: "Endpoints: a variants call takes 1 to 200 variants (this one answers an empty list with 201 and no child)",
    caughtBy: ["catalog.variants-count"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const body = bodyOf(req);
      return req.method === "POST" &&
        VARIANTS.test(req.path) &&
        Array.isArray(body?.variants) &&
        body.variants.length === 0
        ? answer(res, 201, { data: [] })
        : res;
    },
  },
  {
    name: "gift-cards-category-deletable",
    breaks:
      "Delete rules: deleting the gift cards category answers 409 CONFLICT (this one refuses only the system category Other Products)",
    caughtBy: ["catalog.gift-cards-category-delete"],
    wrap: (next) => {
      const deleted = new Set<string>();
      return async (req) => {
        const id = CATEGORY.exec(req.path)?.[1]?.toLowerCase();
        if (id === undefined) return next(req);
        if (deleted.has(id))
          return apiError(await next(sideRequest(req, "GET", req.path)), 404, "NOT_FOUND", "Category not found.");
        if (req.method !== "DELETE") return next(req);
        const read = await next(sideRequest(req, "GET", req.path));
        if (read.status !== 200 || jsonOf(read)?.data?.name !== "Gift Cards") return next(req);
        deleted.add(id);
        return answer(read, 204, undefined);
      };
    },
  },
  {
    name: "product-limit-unprocessable",
    breaks:
      "Product write rules 8: a store at its product limit answers 402 PRODUCT_LIMIT_REACHED (this one answers 422 UNPROCESSABLE)",
    caughtBy: ["catalog.product-limit"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return codeOf(res) === "PRODUCT_LIMIT_REACHED"
        ? apiError(res, 422, "UNPROCESSABLE", "The product cannot be created.")
        : res;
    },
  },
];

const inventory: readonly Mutant[] = [
  {
    name: "level-version-frozen",
    breaks:
      "Resources: a stock level's version increases with every change (this one keeps the version the level was created with)",
    caughtBy: ["inventory.level-version-rises"],
    wrap: (next) => {
      const first = new Map<string, string>();
      return async (req) => {
        const res = await next(req);
        const product = LEVELS.exec(req.path)?.[1];
        const page = jsonOf(res);
        if (req.method !== "GET" || product === undefined || res.status !== 200 || !Array.isArray(page?.data))
          return res;
        const data = page.data.map((row: any) => {
          const key = `${product}:${row.outlet_id}`;
          if (!first.has(key)) first.set(key, row.version);
          return { ...row, version: first.get(key) };
        });
        return answer(res, 200, { ...page, data });
      };
    },
  },
  {
    name: "batch-line-set-wins",
    breaks:
      "Inventory rules 2: a batch line has exactly one of set or adjust (this one applies the set of a line that has both)",
    caughtBy: ["inventory.batch-line-shape"],
    wrap: (next) => async (req) => {
      const body = bodyOf(req);
      if (req.method !== "POST" || !BATCH.test(req.path) || !Array.isArray(body?.lines)) return next(req);
      const lines = body.lines.map((line: any) =>
        line && typeof line === "object" && line.set !== undefined && line.adjust !== undefined
          ? { ...line, adjust: undefined }
          : line,
      );
      return next(withBody(req, { ...body, lines }));
    },
  },
  {
    name: "batch-empty-accepted",
    breaks: "Endpoints: a batch has 1 to 100 lines (this one answers a batch of no lines with 200 and no result)",
    caughtBy: ["inventory.batch-line-count"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const body = bodyOf(req);
      return req.method === "POST" && BATCH.test(req.path) && Array.isArray(body?.lines) && body.lines.length === 0
        ? answer(res, 200, { data: [] })
        : res;
    },
  },
  {
    name: "disabled-reason-unknown",
    breaks:
      "Inventory rules 5: a disabled reason answers 422 REASON_NOT_ALLOWED (this one looks reasons up among enabled ones only and answers 422 UNPROCESSABLE)",
    caughtBy: ["inventory.disabled-reason-refused"],
    wrap: (next) => {
      const disabled = new Set<string>();
      return async (req) => {
        const res = await next(req);
        const reason = REASON.exec(req.path)?.[1]?.toLowerCase();
        if (reason !== undefined && req.method === "PATCH" && res.status === 200) {
          if (bodyOf(req)?.enabled === false) disabled.add(reason);
          else disabled.delete(reason);
          return res;
        }
        if (!STOCK_WRITE.some((p) => p.test(req.path)) || codeOf(res) !== "REASON_NOT_ALLOWED") return res;
        const text = textOf(req).toLowerCase();
        return [...disabled].some((id) => text.includes(id))
          ? apiError(res, 422, "UNPROCESSABLE", "Unknown adjustment reason.", [
              { field: "reason_id", message: "not found" },
            ])
          : res;
      };
    },
  },
];

const people: readonly Mutant[] = [
  {
    name: "customer-unknown-property-dropped",
    breaks:
      "Resources: no resource accepts unknown properties (this one drops the customer's unknown properties and creates it)",
    caughtBy: ["customers.unknown-property"],
    wrap: (next) => async (req) => {
      const body = bodyOf(req);
      if (req.method !== "POST" || !CUSTOMERS.test(req.path) || typeof body !== "object" || body === null)
        return next(req);
      return next(withBody(req, Object.fromEntries(Object.entries(body).filter(([k]) => CUSTOMER_FIELDS.has(k)))));
    },
  },
  {
    name: "sales-deletable",
    breaks: "What the service does 3: sales are never deleted (this one deletes a sale on DELETE /sales/{id})",
    caughtBy: ["sales.read-only"],
    wrap: (next) => {
      const deleted = new Set<string>();
      return async (req) => {
        const id = SALE.exec(req.path)?.[1]?.toLowerCase();
        if (id !== undefined && req.method === "DELETE") {
          const read = await next(sideRequest(req, "GET", req.path));
          if (read.status !== 200) return next(req);
          deleted.add(id);
          return answer(read, 204, undefined);
        }
        const res = await next(req);
        if (id !== undefined && deleted.has(id)) return apiError(res, 404, "NOT_FOUND", "Sale not found.");
        const page = jsonOf(res);
        if (!SALES.test(req.path) || !Array.isArray(page?.data)) return res;
        return answer(res, res.status, {
          ...page,
          data: page.data.filter((s: any) => !deleted.has(String(s?.id).toLowerCase())),
        });
      };
    },
  },
  {
    name: "open-sales-listed",
    breaks:
      "States: an open (parked) sale is never returned by the list (this one lists parked sales on the last page)",
    caughtBy: ["sales.open-never-listed"],
    wrap: (next) => {
      const parked: any[] = [];
      return async (req) => {
        const res = await next(req);
        if (req.method === "POST" && CONTROL_SALES.test(req.path) && bodyOf(req)?.parked === true && res.status < 300) {
          const doc = jsonOf(res);
          parked.push(doc?.data ?? doc);
          return res;
        }
        const page = jsonOf(res);
        if (
          req.method !== "GET" ||
          !SALES.test(req.path) ||
          res.status !== 200 ||
          page?.has_more !== false ||
          param(req.query, "status") !== undefined
        )
          return res;
        const customer = param(req.query, "customer_id");
        const extra = parked.filter((s) => customer === undefined || s?.customer_id === customer);
        return extra.length === 0 ? res : answer(res, 200, { ...page, data: [...page.data, ...extra] });
      };
    },
  },
];

export const gapMutants: readonly Mutant[] = [...catalog, ...inventory, ...people, ...accessGapMutants];
