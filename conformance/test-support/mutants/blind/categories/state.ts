import type { SimRequest, SimResponse } from "../../../../../src/http/types.js";
import { type Mutant, withRaw } from "../../base.js";
import {
  bodyJson,
  bodyText,
  derived,
  isReset,
  json,
  keyOf,
  on,
  params,
  re,
  sub,
  withBody,
  withJson,
  type Next,
} from "../util.js";
import { VersionMask } from "../version-mask.js";
import { apiReq, bearer, decode, isObject, mapData, readFull, seg } from "./util.js";

// State across a sequence of requests: versions that do not move on one kind of change, refunds,
// erasure seen through another path, collections, deletes and stock arithmetic.

const PRODUCT = re("/products/:id");
const PRODUCT_DOCS = /^\/products(\/[^/]+)?$/;
const STOCK_SET = re("/products/:id/inventory/:id");
const ADJUST = re("/inventory/adjustments");
const BATCH = re("/inventory/batch");

type Product = { id: string; version: string; updated_at: string; [k: string]: any };

/** A product as the caller reads it. */
async function productOf(next: Next, req: SimRequest, id: string): Promise<Product | undefined> {
  const res = await next(apiReq(req, bearer(req), "GET", `/products/${encodeURIComponent(id)}`));
  return res.status === 200 ? json(res)?.data : undefined;
}

/** The body of a product PATCH that sends only `key`. */
const patchOf = (req: SimRequest, key: string): Record<string, any> | undefined => {
  const b = bodyJson(req);
  return on(req, "PATCH", PRODUCT) && isObject(b) && Object.keys(b).length === 1 && key in b ? b : undefined;
};

/** Products whose version the change `req` should move but that keep showing the version they had. */
function keepsVersion(pick: (next: Next, req: SimRequest) => Promise<Product[] | undefined>): Mutant["wrap"] {
  return (next) => {
    const mask = new VersionMask();
    return async (req) => {
      if (isReset(req)) mask.clear();
      const before = await pick(next, req);
      if (before && before.length > 0) return mask.response(req, await mask.around(next, req, before));
      return mask.response(req, await next(mask.request(req)));
    };
  };
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;
const isReplay = (res: SimResponse): boolean => res.headers["idempotent-replayed"] === "true";

export const stateMutants: readonly Mutant[] = [
  {
    name: "blind.state.tag-unlink-keeps-version",
    breaks:
      'Resources, Product, version: "Also changes when a code, tag link, supplier link, variant option, variant attribute or component is added, removed or edited." (removing a tag link deletes the join row without touching the product row: version and updated_at stay)',
    caughtBy: ["model.catalog"],
    wrap: keepsVersion(async (next, req) => {
      const b = patchOf(req, "tags");
      if (!b || !Array.isArray(b.tags)) return undefined;
      const before = await productOf(next, req, seg(req, 2));
      const had = new Set((before?.tags ?? []).map((t: { id: string }) => t.id.toLowerCase()));
      const sent = b.tags.map((t: any) => String(t?.id).toLowerCase());
      return before && sent.length < had.size && sent.every((id: string) => had.has(id)) ? [before] : undefined;
    }),
  },
  {
    name: "blind.state.supplier-rename-keeps-version",
    breaks:
      'Resources, Product, version: "It also changes when an attached tag or supplier is renamed." (a supplier rename updates the supplier only; its products keep their version)',
    caughtBy: ["catalog.version-on-rename"],
    wrap: keepsVersion(async (next, req) => {
      if (!on(req, "PATCH", re("/suppliers/:id")) || !isObject(bodyJson(req)) || !("name" in bodyJson(req)))
        return undefined;
      const id = seg(req, 2);
      return new VersionMask().products(next, req, (p) =>
        ((p.suppliers ?? []) as { supplier_id: string }[]).some((s) => s.supplier_id.toLowerCase() === id),
      );
    }),
  },
  {
    name: "blind.state.code-edit-keeps-version",
    breaks:
      'Resources, Product, version: "Also changes when a code, tag link, supplier link, variant option, variant attribute or component is added, removed or edited." (editing the value of an existing code updates the code row in place; the product keeps its version)',
    caughtBy: ["model.catalog"],
    wrap: keepsVersion(async (next, req) => {
      const b = patchOf(req, "codes");
      if (!b || !Array.isArray(b.codes) || b.codes.length === 0) return undefined;
      const before = await productOf(next, req, seg(req, 2));
      const codes: { type: string; code: string }[] = before?.codes ?? [];
      const types = (xs: { type: string }[]) =>
        xs
          .map((c) => String(c?.type))
          .sort()
          .join(",");
      const same = (xs: { type: string; code: string }[]) =>
        xs
          .map((c) => `${c?.type}=${c?.code}`)
          .sort()
          .join(",");
      const edit = codes.length === b.codes.length && types(codes) === types(b.codes) && same(codes) !== same(b.codes);
      return before && edit ? [before] : undefined;
    }),
  },
  {
    name: "blind.state.second-refund-keeps-parent",
    breaks:
      'States and transitions, Sale status: "a sale that is refunded later receives a new version and its new status." (only the first refund updates the original sale; a later refund leaves its status and version as they were)',
    caughtBy: ["sales.polling-each-change-once"],
    wrap: (next) => {
      const frozen = new Map<string, { status: string; version: string }>();
      return async (req) => {
        if (isReset(req)) frozen.clear();
        const m = req.method === "POST" ? /^\/_sim\/stores\/([^/]+)\/sales\/([^/]+)\/refunds$/.exec(req.path) : null;
        if (m) {
          const prefix = m[1] as string;
          const id = decode(m[2] as string).toLowerCase();
          const token = await keyOf(next, req, prefix, "full");
          const read = async (path: string, query = "") =>
            json(await next(derived(req, "GET", `/${prefix}/v1${path}`, query, { authorization: `Bearer ${token}` })))
              ?.data;
          const before = await read(`/sales/${id}`);
          const refunds = await read("/sales", `parent_sale_id=${id}`);
          const res = await next(req);
          if (res.status < 300 && before && Array.isArray(refunds) && refunds.length > 0 && !frozen.has(id))
            frozen.set(id, { status: before.status, version: before.version });
          return res;
        }
        const res = await next(req);
        if (
          frozen.size === 0 ||
          res.status !== 200 ||
          !(on(req, "GET", re("/sales")) || on(req, "GET", re("/sales/:id")))
        )
          return res;
        return mapData(res, (s) => {
          const f = isObject(s) ? frozen.get(String(s.id).toLowerCase()) : undefined;
          return f ? { ...s, ...f } : s;
        });
      };
    },
  },
  {
    name: "blind.state.erased-details-in-tombstone",
    breaks:
      'Delete rules, customer: "name, email, phone, address and other personal details scrubbed" (the tombstone in the include_deleted list is built from a search index that still holds the name, email and phone)',
    caughtBy: ["customers.delete-tombstone"],
    wrap: (next) => {
      const index = new Map<string, Record<string, unknown>>();
      return async (req) => {
        if (isReset(req)) index.clear();
        if (on(req, "DELETE", re("/customers/:id"))) {
          const id = seg(req, 2);
          const before = await next(apiReq(req, bearer(req), "GET", `/customers/${encodeURIComponent(id)}`));
          const res = await next(req);
          const c = json(before)?.data;
          if (res.status === 204 && isObject(c))
            index.set(id, { first_name: c.first_name, last_name: c.last_name, email: c.email, phone: c.phone });
          return res;
        }
        const res = await next(req);
        if (index.size === 0 || !on(req, "GET", re("/customers")) || params(req).get("include_deleted") !== "true")
          return res;
        return res.status === 200
          ? mapData(res, (r) => (isObject(r) && "deleted_at" in r ? { ...r, ...index.get(String(r.id)) } : r))
          : res;
      };
    },
  },
  {
    name: "blind.state.tags-merged-not-replaced",
    breaks:
      'Product write rules 3: "For each collection (codes, tags, suppliers, variant_attributes, components): key left out means untouched; an array replaces the collection; [] clears it." (a non-empty tags array is added to the tags the product has)',
    caughtBy: ["model.catalog"],
    wrap: (next) => async (req) => {
      const b = bodyJson(req);
      if (!on(req, "PATCH", PRODUCT) || !isObject(b) || !Array.isArray(b.tags) || b.tags.length === 0) return next(req);
      const before = await productOf(next, req, seg(req, 2));
      if (!before) return next(req);
      const have = (before.tags as { id: string }[]).map((t) => ({ id: t.id }));
      const extra = b.tags.filter((t: any) => !have.some((h) => h.id === String(t?.id).toLowerCase()));
      const merged = [...have, ...extra];
      return next(merged.length <= 20 ? withBody(req, { ...b, tags: merged }) : req);
    },
  },
  {
    name: "blind.state.deleted-product-stock-readable",
    breaks:
      'States and transitions, Soft deletion: "a deleted product, brand, category, tag, supplier or customer is hidden from reads, and its id then answers NOT_FOUND." (the stock levels of a deleted product still answer, from the levels table that the delete does not touch)',
    caughtBy: ["model.catalog"],
    wrap: (next) => {
      const levels = new Map<string, unknown[]>();
      return async (req) => {
        if (isReset(req)) levels.clear();
        if (on(req, "DELETE", PRODUCT)) {
          const id = seg(req, 2);
          const rows = await readFull(next, req, `/products/${encodeURIComponent(id)}/inventory`);
          const res = await next(req);
          if (res.status === 204 && Array.isArray(rows)) levels.set(id, rows);
          return res;
        }
        const res = await next(req);
        const rows = on(req, "GET", re("/products/:id/inventory")) ? levels.get(seg(req, 2)) : undefined;
        return rows && res.status === 404 ? withJson(res, { data: rows }, 200) : res;
      };
    },
  },
  {
    name: "blind.state.category-delete-leaves-products",
    breaks:
      'Resources, Category: "Products of a deleted category move to the system category named Other Products." (the products keep naming the deleted category)',
    caughtBy: ["catalog.category-delete"],
    wrap: (next) => {
      const moved = new Map<string, { shown: string; real: string }>();
      return async (req) => {
        if (isReset(req)) moved.clear();
        if (on(req, "DELETE", re("/categories/:id"))) {
          const id = seg(req, 2);
          const before = await new VersionMask().products(next, req, (p) => String(p.category_id).toLowerCase() === id);
          const res = await next(req);
          const first = before[0];
          const after = res.status === 204 && first ? await productOf(next, req, first.id) : undefined;
          if (after) for (const p of before) moved.set(p.id, { shown: String(p.category_id), real: after.category_id });
          return res;
        }
        const res = await next(req);
        if (moved.size === 0 || !PRODUCT_DOCS.test(sub(req) ?? "") || (res.status >= 300 && res.status !== 422))
          return res;
        return mapData(res, (d) => {
          const m = isObject(d) ? moved.get(d.id) : undefined;
          if (!m) return d;
          if (d.category_id === m.real) return { ...d, category_id: m.shown };
          moved.delete(d.id);
          return d;
        });
      };
    },
  },
  {
    name: "blind.state.adjust-after-set-stale",
    breaks:
      'Inventory rules 1: "PUT sets an absolute level." (the next adjustment of the same product and outlet starts from the level the set replaced: a stale cache that sets do not refresh)',
    caughtBy: ["inventory.disabled-reason-refused"],
    wrap: (next) => {
      const stale = new Map<string, { before: number; set: number }>();
      const sent = new Map<string, string>();
      return async (req) => {
        if (isReset(req)) {
          stale.clear();
          sent.clear();
        }
        if (on(req, "PUT", STOCK_SET)) {
          const res = await next(req);
          const d = json(res)?.data;
          if (res.status === 200 && !isReplay(res) && d?.changed === true)
            stale.set(`${seg(req, 2)}|${seg(req, 4)}`, { before: d.previous, set: d.on_hand });
          return res;
        }
        if (!on(req, "POST", ADJUST)) return next(req);
        const b = bodyJson(req);
        const retry = `${req.headers.authorization}\n${req.headers["idempotency-key"]}\n${bodyText(req)}`;
        const pair =
          isObject(b) && typeof b.product_id === "string" && typeof b.outlet_id === "string"
            ? `${b.product_id.toLowerCase()}|${b.outlet_id.toLowerCase()}`
            : "";
        const s = stale.get(pair);
        const prior = sent.get(retry);
        if (prior === undefined && (!s || typeof b.quantity !== "number")) return next(req);
        const text = prior ?? JSON.stringify({ ...b, quantity: round3(b.quantity + (s?.before ?? 0) - (s?.set ?? 0)) });
        if (sent.size < 10_000) sent.set(retry, text);
        stale.delete(pair);
        const res = await next(withRaw(req, text));
        return res.status < 300
          ? mapData(res, (d) =>
              isObject(d) && typeof d.on_hand === "number"
                ? { ...d, previous: round3(d.on_hand - b.quantity), delta: b.quantity }
                : d,
            )
          : res;
      };
    },
  },
  {
    name: "blind.state.repeat-set-after-adjust-skipped",
    breaks:
      'Inventory rules 1: "PUT sets an absolute level. Repeating the same on_hand changes nothing (changed false)." (a set is compared with the last set value instead of the current level, so after an adjustment the same set is skipped)',
    caughtBy: ["model.inventory"],
    wrap: (next) => {
      const last = new Map<string, { value: number; adjusted: boolean }>();
      const touched = (pair: string) => {
        const l = last.get(pair);
        if (l) l.adjusted = true;
      };
      return async (req) => {
        if (isReset(req)) last.clear();
        const b = bodyJson(req);
        if (on(req, "PUT", STOCK_SET) && isObject(b) && typeof b.on_hand === "number") {
          const pair = `${seg(req, 2)}|${seg(req, 4)}`;
          const l = last.get(pair);
          if (l?.adjusted && l.value === b.on_hand) {
            const rows = await readFull(next, req, `/products/${seg(req, 2)}/inventory`);
            const row = Array.isArray(rows)
              ? rows.find((r) => String(r.outlet_id).toLowerCase() === seg(req, 4))
              : null;
            if (typeof row?.on_hand === "number") {
              const res = await next(withBody(req, { ...b, on_hand: row.on_hand }));
              return res.status === 200
                ? mapData(res, (d) => (d?.changed === false ? { ...d, previous: b.on_hand, on_hand: b.on_hand } : d))
                : res;
            }
          }
          const res = await next(req);
          if (res.status === 200) last.set(pair, { value: b.on_hand, adjusted: false });
          return res;
        }
        const res = await next(req);
        if (res.status >= 300 || !isObject(b)) return res;
        if (on(req, "POST", ADJUST) && typeof b.product_id === "string" && typeof b.outlet_id === "string")
          touched(`${b.product_id.toLowerCase()}|${b.outlet_id.toLowerCase()}`);
        if (on(req, "POST", BATCH) && Array.isArray(b.lines))
          for (const l of b.lines)
            if (typeof l?.product_id === "string" && typeof l?.outlet_id === "string")
              touched(`${l.product_id.toLowerCase()}|${l.outlet_id.toLowerCase()}`);
        return res;
      };
    },
  },
  {
    name: "blind.state.product-tombstone-keeps-version",
    breaks:
      'Resources and their fields: "Every resource row carries version, an opaque string that increases with every change to that row." (the delete sets deleted_at only: the tombstone shows the version the live product had)',
    caughtBy: ["catalog.product-delete"],
    wrap: (next) => {
      const versions = new Map<string, string>();
      const note = (rows: unknown[]) => {
        for (const r of rows)
          if (isObject(r) && typeof r.id === "string" && typeof r.version === "string" && !("deleted_at" in r))
            versions.set(r.id, r.version);
      };
      return async (req) => {
        if (isReset(req)) versions.clear();
        if (on(req, "DELETE", PRODUCT)) {
          const p = await productOf(next, req, seg(req, 2));
          if (p) note([p]);
          return next(req);
        }
        const res = await next(req);
        if (!PRODUCT_DOCS.test(sub(req) ?? "") || res.status >= 300) return res;
        const data = json(res)?.data;
        if (data === undefined || data === null) return res;
        if (on(req, "GET", re("/products")) && params(req).get("include_deleted") === "true")
          return mapData(res, (r) =>
            isObject(r) && "deleted_at" in r && versions.has(r.id) ? { ...r, version: versions.get(r.id) } : r,
          );
        note(Array.isArray(data) ? data : [data]);
        return res;
      };
    },
  },
  {
    name: "blind.state.tag-delete-keeps-links",
    breaks:
      'Delete rules: "tag | removed from every product carrying it" (the tag row goes, its links stay: products keep listing it until their tags are next written)',
    caughtBy: ["catalog.tag-delete"],
    wrap: (next) => {
      const kept = new Map<string, { id: string; name: string }[]>();
      return async (req) => {
        if (isReset(req)) kept.clear();
        if (on(req, "DELETE", re("/tags/:id"))) {
          const id = seg(req, 2);
          const tag = json(await next(apiReq(req, bearer(req), "GET", `/tags/${encodeURIComponent(id)}`)))?.data;
          const carriers = await new VersionMask().products(next, req, (p) =>
            ((p.tags ?? []) as { id: string }[]).some((t) => t.id.toLowerCase() === id),
          );
          const res = await next(req);
          if (res.status === 204 && isObject(tag))
            for (const p of carriers) kept.set(p.id, [...(kept.get(p.id) ?? []), { id: tag.id, name: tag.name }]);
          return res;
        }
        const res = await next(req);
        const b = bodyJson(req);
        if (on(req, "PATCH", PRODUCT) && res.status === 200 && isObject(b) && Array.isArray(b.tags))
          kept.delete(seg(req, 2));
        if (kept.size === 0 || !PRODUCT_DOCS.test(sub(req) ?? "") || (res.status >= 300 && res.status !== 422))
          return res;
        return mapData(res, (d) => {
          const links = isObject(d) && Array.isArray(d.tags) ? kept.get(d.id) : undefined;
          if (!links) return d;
          const missing = links.filter((t) => !d.tags.some((x: { id: string }) => x.id === t.id));
          return { ...d, tags: [...d.tags, ...missing] };
        });
      };
    },
  },
];
