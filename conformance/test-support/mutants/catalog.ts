import type { SimRequest, SimResponse } from "../../../src/http/types.js";
import { bodyOf, mapJson, withBody, type Mutant } from "./base.js";
import { answer, apiError, codeOf, idOf, importsImage, isProductWrite, jsonOf, param } from "./support.js";

// Broken catalogs (products, variants, images, taxonomy, deletes, limits of a store's catalog): each
// violates one catalog rule of the spec. State a mutant keeps lives inside
// wrap(), so each simulator gets its own.

const PRODUCTS = /^\/[^/]+\/v1\/products$/;
const PRODUCT = /^\/[^/]+\/v1\/products\/([^/]+)$/;
const VARIANTS = /^\/[^/]+\/v1\/products\/([^/]+)\/variants$/;
const TAG = /^\/[^/]+\/v1\/tags\/([^/]+)$/;
const UNDER_PRODUCTS = /^\/[^/]+\/v1\/products(\/|$)/;
const CATEGORY = /^\/[^/]+\/v1\/categories\/([^/]+)$/;

/** Another request of the same caller, made by the mutant behind the client's back. */
const sideRequest = (req: SimRequest, method: string, path: string, query = "", body?: unknown): SimRequest => {
  const { "content-length": _l, "content-type": _t, "idempotency-key": _k, ...headers } = req.headers;
  const side: SimRequest = { ...req, method, path, query, headers, body: null };
  return body === undefined
    ? side
    : withBody({ ...side, headers: { ...headers, "content-type": "application/json" } }, body);
};
const json = (res: SimResponse): any =>
  typeof res.body === "string" && res.body !== "" ? JSON.parse(res.body) : undefined;
const prefixOf = (path: string): string => /^\/[^/]+\/v1/.exec(path)?.[0] ?? "";
const isProduct = (row: any): boolean => typeof row === "object" && row !== null && typeof row.sku === "string";

/** Applies f to every product document (single or listed) of a /products response. */
const mapProducts = (req: SimRequest, res: SimResponse, f: (p: any) => any): SimResponse => {
  if (!UNDER_PRODUCTS.test(req.path)) return res;
  return mapJson(res, (b) => {
    if (Array.isArray(b?.data)) return { ...b, data: b.data.map((row: any) => (isProduct(row) ? f(row) : row)) };
    if (isProduct(b?.data)) return { ...b, data: f(b.data) };
    return b;
  });
};

export const catalogMutants: readonly Mutant[] = [
  {
    name: "product-version-constant",
    breaks: "Resources: version increases with every change to the row (this one never changes)",
    caughtBy: ["catalog.version-rises", "catalog.feed-model"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!UNDER_PRODUCTS.test(req.path)) return res;
      return mapJson(res, (b) => {
        const fix = (row: any) =>
          typeof row === "object" && row !== null && "version" in row ? { ...row, version: "1" } : row;
        if (Array.isArray(b?.data)) return { ...b, data: b.data.map(fix) };
        return b?.data ? { ...b, data: fix(b.data) } : b;
      });
    },
  },
  {
    name: "patch-ignores-expected-version",
    breaks:
      "Product write rules 6: an outdated version or expected_version answers 409 STALE_VERSION (this one ignores both)",
    caughtBy: ["catalog.stale-version"],
    wrap: (next) => async (req) => {
      const body = bodyOf(req);
      if (req.method !== "PATCH" || !PRODUCT.test(req.path) || typeof body !== "object" || body === null)
        return next(req);
      const { version: _v, expected_version: _e, ...rest } = body;
      return next(withBody(req, rest));
    },
  },
  {
    name: "tombstones-missing",
    breaks: "Pagination 4: with include_deleted=true deleted products come back as tombstones (this one drops them)",
    caughtBy: ["catalog.product-delete", "catalog.feed-model"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "GET" || !PRODUCTS.test(req.path) || !/(^|&)include_deleted=true(&|$)/.test(req.query))
        return res;
      return mapJson(res, (b) =>
        Array.isArray(b?.data) ? { ...b, data: b.data.filter((row: any) => !("deleted_at" in row)) } : b,
      );
    },
  },
  {
    name: "tag-delete-keeps-products",
    breaks: "Delete rules: a deleted tag is removed from every product carrying it (this one stays on them)",
    caughtBy: ["catalog.tag-delete"],
    wrap: (next) => {
      const kept = new Map<string, { id: string; name: string; carriers: Set<string> }>();
      return async (req) => {
        const tag = TAG.exec(req.path)?.[1]?.toLowerCase();
        if (req.method === "DELETE" && tag) {
          const read = json(await next(sideRequest(req, "GET", req.path, "")));
          const carriers = new Set<string>();
          let cursor = "";
          for (let pages = 0; pages < 100; pages++) {
            const page = json(
              await next(
                sideRequest(
                  req,
                  "GET",
                  `${prefixOf(req.path)}/products`,
                  `limit=200${cursor ? `&cursor=${cursor}` : ""}`,
                ),
              ),
            );
            for (const p of page?.data ?? []) if ((p.tags ?? []).some((t: any) => t.id === tag)) carriers.add(p.id);
            if (!page?.has_more) break;
            cursor = encodeURIComponent(page.next_cursor);
          }
          const res = await next(req);
          if (res.status === 204 && read?.data) kept.set(tag, { id: tag, name: read.data.name, carriers });
          return res;
        }
        const res = await next(req);
        if (kept.size === 0) return res;
        return mapProducts(req, res, (p) => {
          const tags = [...p.tags];
          for (const k of kept.values())
            if (k.carriers.has(p.id) && !tags.some((t: any) => t.id === k.id)) tags.push({ id: k.id, name: k.name });
          return { ...p, tags };
        });
      };
    },
  },
  {
    name: "decimal-price-rounded",
    breaks: "Money is never a decimal: a decimal retail_price or loyalty_amount answers 400 (this one rounds it)",
    caughtBy: ["catalog.decimal-money"],
    wrap: (next) => async (req) => {
      const body = bodyOf(req);
      if (!(req.method === "POST" && PRODUCTS.test(req.path)) && !(req.method === "PATCH" && PRODUCT.test(req.path)))
        return next(req);
      if (typeof body !== "object" || body === null) return next(req);
      const fixed = { ...body };
      for (const key of ["retail_price", "loyalty_amount"])
        if (typeof fixed[key] === "number") fixed[key] = Math.round(fixed[key]);
      return next(withBody(req, fixed));
    },
  },
  {
    name: "variants-partial",
    breaks: "Product write rules 9: the variants call is all or nothing (this one adds every variant it can)",
    caughtBy: ["catalog.variants"],
    wrap: (next) => async (req) => {
      const body = bodyOf(req);
      if (
        req.method !== "POST" ||
        !VARIANTS.test(req.path) ||
        !Array.isArray(body?.variants) ||
        body.variants.length < 2
      )
        return next(req);
      let first: SimResponse | undefined;
      const made: unknown[] = [];
      for (const v of body.variants) {
        const res = await next(withBody(req, { variants: [v] }));
        if (res.status >= 400) first ??= res;
        else made.push(...(json(res)?.data ?? []));
      }
      return (
        first ?? { status: 201, headers: { "content-type": "application/json" }, body: JSON.stringify({ data: made }) }
      );
    },
  },
  {
    name: "tags-merged-not-replaced",
    breaks: "Product write rules 3: an array replaces the collection and [] clears it (this one adds to the tags)",
    caughtBy: ["catalog.collections-replace"],
    wrap: (next) => async (req) => {
      const body = bodyOf(req);
      if (req.method !== "PATCH" || !PRODUCT.test(req.path) || !Array.isArray(body?.tags)) return next(req);
      const current = json(await next(sideRequest(req, "GET", req.path, "")));
      const tags = [...body.tags];
      for (const t of current?.data?.tags ?? [])
        if (!tags.some((x: any) => String(x.id).toLowerCase() === t.id)) tags.push({ id: t.id });
      return next(withBody(req, { ...body, tags }));
    },
  },
  {
    name: "refused-update-saves-scalars",
    breaks:
      "Product write rules 4: a whole write is atomic (this one saves name, price and description of a refused update)",
    caughtBy: ["catalog.atomic-write"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const body = bodyOf(req);
      if (
        req.method !== "PATCH" ||
        !PRODUCT.test(req.path) ||
        res.status < 400 ||
        res.status === 404 ||
        typeof body !== "object" ||
        body === null
      )
        return res;
      const scalars = Object.fromEntries(
        Object.entries(body).filter(
          ([k]) =>
            ["name", "retail_price", "description"].includes(k) && (k !== "retail_price" || Number.isInteger(body[k])),
        ),
      );
      if (Object.keys(scalars).length > 0) await next(sideRequest(req, "PATCH", req.path, "", scalars));
      return res;
    },
  },
  {
    name: "eleven-codes-accepted",
    breaks: "Limits: at most 10 codes, over the cap is 422 UNPROCESSABLE (this one keeps the first 10 of 11)",
    caughtBy: ["catalog.cap-codes"],
    wrap: (next) => async (req) => {
      const body = bodyOf(req);
      if (!(req.method === "POST" && PRODUCTS.test(req.path)) && !(req.method === "PATCH" && PRODUCT.test(req.path)))
        return next(req);
      if (!Array.isArray(body?.codes) || body.codes.length !== 11) return next(req);
      return next(withBody(req, { ...body, codes: body.codes.slice(0, 10) }));
    },
  },
  {
    name: "image-fetch-failure-hidden",
    breaks:
      "Product write rules 7: a failed download answers 422 IMAGE_FETCH_FAILED with the saved product (this one answers success)",
    caughtBy: ["catalog.image-fetch-failed"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const body = jsonOf(res);
      if (!isProductWrite(req) || res.status !== 422 || body?.error?.code !== "IMAGE_FETCH_FAILED") return res;
      return { ...res, status: req.method === "POST" ? 201 : 200, body: JSON.stringify({ data: body.data }) };
    },
  },
  {
    name: "image-address-kept",
    breaks: "Product write rules 7: the given image address is not kept (this one serves the address it was sent)",
    caughtBy: ["catalog.image-address-not-kept"],
    wrap: (next) => {
      const sent = new Map<string, string>();
      return async (req) => {
        const url = importsImage(req) ? (bodyOf(req).image_url as string) : undefined;
        const res = await next(req);
        const id = jsonOf(res)?.data?.id;
        if (url && res.status < 300 && typeof id === "string") sent.set(idOf(id), url);
        if (sent.size === 0) return res;
        return mapProducts(req, res, (p) => (sent.has(idOf(p.id)) ? { ...p, image_url: sent.get(idOf(p.id)) } : p));
      };
    },
  },
  {
    name: "image-null-removes-image",
    breaks: "Product write rules 7: null image_url leaves the image unchanged (this one removes the image)",
    caughtBy: ["catalog.image-null-leaves-image"],
    wrap: (next) => {
      const removed = new Set<string>();
      return async (req) => {
        const body = isProductWrite(req) ? bodyOf(req) : undefined;
        const res = await next(req);
        const id = jsonOf(res)?.data?.id;
        if (body && res.status < 300 && typeof id === "string") {
          if (body.image_url === null) removed.add(idOf(id));
          else if (typeof body.image_url === "string") removed.delete(idOf(id));
        }
        if (removed.size === 0) return res;
        return mapProducts(req, res, (p) =>
          removed.has(idOf(p.id)) ? { ...p, image_url: null, image_thumb_url: null } : p,
        );
      };
    },
  },
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
