import type { SimRequest, SimResponse } from "../../src/http/types.js";
import { API, bodyOf, mapJson, type Mutant } from "./base.js";

// Broken simulators for images, the image-write limit, page sizes, has_more, cursors with
// order=desc and tenant isolation. State a mutant keeps lives inside wrap(), so each simulator gets
// its own. Requests a mutant makes behind the client's back go through the same handler.

const PRODUCTS = /^\/[^/]+\/v1\/products$/;
const PRODUCT = /^\/[^/]+\/v1\/products\/([^/]+)$/;
const UNDER_PRODUCTS = /^\/[^/]+\/v1\/products(\/|$)/;
const BY_ID = /^\/([^/]+)\/v1\/(products|brands|customers)\/([0-9a-fA-F-]{36})$/;
/** A list: an API path that ends in a collection name, not an id. */
const LIST = /^\/[^/]+\/v1\/(?:[a-z-]+\/)*[a-z-]+$/;

type Next = (req: SimRequest) => Promise<SimResponse>;

const json = (res: SimResponse): any => {
  if (typeof res.body !== "string" || res.body === "") return undefined;
  try {
    return JSON.parse(res.body);
  } catch {
    return undefined;
  }
};
const isProductWrite = (req: SimRequest): boolean =>
  (req.method === "POST" && PRODUCTS.test(req.path)) || (req.method === "PATCH" && PRODUCT.test(req.path));
const importsImage = (req: SimRequest): boolean =>
  isProductWrite(req) && typeof bodyOf(req)?.image_url === "string" && bodyOf(req).image_url.startsWith("https://");
const isProduct = (row: any): boolean => typeof row === "object" && row !== null && typeof row.sku === "string";
const idOf = (id: unknown): string => String(id).toLowerCase();

/** Applies f to every product document (single or listed) of a /products response. */
const mapProducts = (req: SimRequest, res: SimResponse, f: (p: any) => any): SimResponse => {
  if (!UNDER_PRODUCTS.test(req.path)) return res;
  return mapJson(res, (b) => {
    if (Array.isArray(b?.data)) return { ...b, data: b.data.map((row: any) => (isProduct(row) ? f(row) : row)) };
    if (isProduct(b?.data)) return { ...b, data: f(b.data) };
    return b;
  });
};

/** A control-plane or API request of the mutant's own. */
const own = (req: SimRequest, method: string, path: string, body?: unknown, authorization?: string): SimRequest => {
  const bytes = body === undefined ? null : new TextEncoder().encode(JSON.stringify(body));
  const headers: Record<string, string> = bytes
    ? { "content-type": "application/json", "content-length": String(bytes.length) }
    : {};
  if (authorization) headers.authorization = authorization;
  return { method, path, query: "", headers, body: bytes, remoteAddress: req.remoteAddress, origin: req.origin };
};

/** The stores and keys of the simulator (control: GET /_sim/credentials). */
async function stores(
  next: Next,
  req: SimRequest,
): Promise<
  { prefix: string; plan: string; status: string; keys: { token: string; name: string; scopes: string[] }[] }[]
> {
  return json(await next(own(req, "GET", "/_sim/credentials")))?.stores ?? [];
}

const setQuery = (query: string, name: string, value: string | undefined): string => {
  const parts = query.split("&").filter((p) => p !== "" && !p.startsWith(`${name}=`));
  if (value !== undefined) parts.push(`${name}=${value}`);
  return parts.join("&");
};
const queryValue = (query: string, name: string): string | undefined =>
  new URLSearchParams(query).get(name) ?? undefined;

export const catalogExtraMutants: readonly Mutant[] = [
  {
    name: "image-fetch-failure-hidden",
    breaks:
      "Product write rules 7: a failed download answers 422 IMAGE_FETCH_FAILED with the saved product (this one answers success)",
    caughtBy: ["catalog.image-fetch-failed"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const body = json(res);
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
        const id = json(res)?.data?.id;
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
        const id = json(res)?.data?.id;
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
    name: "image-limit-never-applied",
    breaks:
      "Limits: product writes with image_url are limited to 10 per minute per credential (this one never refuses them)",
    caughtBy: ["limits.image-writes"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!importsImage(req) || res.status !== 429 || json(res)?.error?.code !== "RATE_LIMITED") return res;
      // As if no limit were counted: the write goes through under a fresh window (a new key of the same scopes).
      const prefix = req.path.split("/")[1] as string;
      const me = json(await next(own(req, "GET", `/${prefix}/v1/me`, undefined, req.headers.authorization)));
      const key = json(
        await next(own(req, "POST", `/_sim/stores/${prefix}/keys`, { name: "mutant", scopes: me?.data?.scopes ?? [] })),
      );
      if (typeof key?.token !== "string") return res;
      return next({ ...req, headers: { ...req.headers, authorization: `Bearer ${key.token}` } });
    },
  },
  {
    name: "image-limit-counts-every-write",
    breaks:
      "Limits: writes without an image do not count toward the image-write limit (this one counts every product write)",
    caughtBy: ["limits.image-writes"],
    wrap: (next) => {
      let n = 0;
      return async (req) => {
        const res = await next(req);
        const id = json(res)?.data?.id;
        if (!isProductWrite(req) || importsImage(req) || res.status >= 300 || typeof id !== "string") return res;
        // Counted like an image write: an import that is counted and then refused as busy writes nothing.
        const url = `https://mutant.invalid/count-${++n}.png`;
        await next(own(req, "POST", "/_sim/images", { url, outcome: "busy" }));
        await next(
          own(
            req,
            "PATCH",
            `${/^\/[^/]+\/v1/.exec(req.path)?.[0]}/products/${id}`,
            { image_url: url },
            req.headers.authorization,
          ),
        );
        return res;
      };
    },
  },
  {
    name: "limit-capped-at-50",
    breaks: "Limits: list limit is 1 to 200 (this one silently serves at most 50 rows a page)",
    caughtBy: ["pagination.limit-range-and-default"],
    wrap: (next) => async (req) => {
      const limit = Number(queryValue(req.query, "limit"));
      if (req.method !== "GET" || !LIST.test(req.path) || !(limit > 50 && limit <= 200)) return next(req);
      return next({ ...req, query: setQuery(req.query, "limit", "50") });
    },
  },
  {
    name: "has-more-when-page-full",
    breaks:
      "Endpoints: has_more says whether rows follow (this one says true on every full page, the last one included)",
    caughtBy: ["pagination.has-more-exactly-full"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "GET" || !API.test(req.path) || queryValue(req.query, "order") === "desc") return res;
      const limit = Number(queryValue(req.query, "limit") ?? 50);
      return mapJson(res, (b) =>
        Array.isArray(b?.data) && b.has_more === false && b.data.length === limit && typeof b.next_cursor === "string"
          ? { ...b, has_more: true }
          : b,
      );
    },
  },
  {
    name: "desc-ignores-cursor",
    breaks:
      "Pagination 3: with order=desc any cursor is only validated (this one never reads it, so an unreadable one passes)",
    caughtBy: ["pagination.desc-validates-cursor"],
    wrap: (next) => async (req) => {
      if (req.method !== "GET" || !API.test(req.path) || queryValue(req.query, "order") !== "desc") return next(req);
      return next({ ...req, query: setQuery(req.query, "cursor", undefined) });
    },
  },
  {
    name: "foreign-ids-served",
    breaks: "Errors: another store's ids answer 404 NOT_FOUND (this one looks ids up across every store)",
    caughtBy: ["isolation.foreign-ids"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const m = BY_ID.exec(req.path);
      if (!m || res.status !== 404 || !["GET", "PATCH", "DELETE"].includes(req.method)) return res;
      for (const store of await stores(next, req)) {
        if (store.prefix === m[1] || store.plan !== "growth" || store.status !== "active") continue;
        const key = store.keys.find((k) => k.name === "full");
        if (!key) continue;
        const there = await next({
          ...req,
          path: `/${store.prefix}/v1/${m[2]}/${m[3]}`,
          headers: { ...req.headers, authorization: `Bearer ${key.token}` },
        });
        if (there.status < 400) return there;
      }
      return res;
    },
  },
];
