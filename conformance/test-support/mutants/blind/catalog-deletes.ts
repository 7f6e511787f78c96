import type { Mutant } from "../base.js";
import { errorCode, isReset, json, on, re, reError, sub, withJson } from "./util.js";
import { VersionMask } from "./version-mask.js";

// Blind mutants of deletes and of versions changed by edits of other resources.

const idOf = (path: string | null): string => decodeURIComponent((path ?? "").split("/")[2] ?? "");

export const catalogDeleteMutants: readonly Mutant[] = [
  {
    name: "blind.tag-rename-keeps-product-version",
    breaks:
      'Resources, Product: "version ... also changes when an attached tag or supplier is renamed." (a tag rename does not touch the products)',
    caughtBy: ["catalog.version-on-rename"],
    wrap: (next) => {
      const mask = new VersionMask();
      return async (req) => {
        if (isReset(req)) mask.clear();
        if (on(req, "PATCH", re("/tags/:id"))) {
          const id = idOf(sub(req));
          const before = await mask.products(
            next,
            req,
            (p) => Array.isArray(p.tags) && p.tags.some((t: { id: string }) => t.id === id),
          );
          return mask.around(next, req, before);
        }
        return mask.response(req, await next(mask.request(req)));
      };
    },
  },
  {
    name: "blind.brand-delete-keeps-product-version",
    breaks:
      'Delete rules: "Deleting a brand, category, tag or supplier gives a new version to each affected product." (brand deletes clear brand_id with a bulk update that keeps versions)',
    caughtBy: ["catalog.brand-delete"],
    wrap: (next) => {
      const mask = new VersionMask();
      return async (req) => {
        if (isReset(req)) mask.clear();
        if (on(req, "DELETE", re("/brands/:id"))) {
          const id = idOf(sub(req));
          const before = await mask.products(next, req, (p) => p.brand_id === id);
          return mask.around(next, req, before);
        }
        return mask.response(req, await next(mask.request(req)));
      };
    },
  },
  {
    name: "blind.deleted-brand-still-readable",
    breaks:
      'States, Soft deletion: "a deleted product, brand, category, tag, supplier or customer is hidden from reads, and its id then answers NOT_FOUND." (a read cache keeps serving deleted brands)',
    caughtBy: ["catalog.brand-delete"],
    wrap: (next) => {
      const cache = new Map<string, unknown>();
      return async (req) => {
        if (isReset(req)) cache.clear();
        if (on(req, "DELETE", re("/brands/:id"))) {
          const row = json(await next({ ...req, method: "GET", body: null }))?.data;
          const res = await next(req);
          if (res.status === 204 && row) cache.set(req.path.toLowerCase(), row);
          return res;
        }
        const res = await next(req);
        if (on(req, "GET", re("/brands/:id")) && res.status === 404 && cache.has(req.path.toLowerCase())) {
          return withJson(res, { data: cache.get(req.path.toLowerCase()) }, 200);
        }
        return res;
      };
    },
  },
  {
    name: "blind.tag-delete-twice-204",
    breaks:
      'Delete rules: "Deleting an unknown, foreign or already deleted id answers 404 NOT_FOUND." (deleting a deleted tag again answers 204)',
    caughtBy: ["catalog.tag-delete"],
    // DELETE ... WHERE id = ? succeeds whatever the row's deleted flag.
    wrap: (next) => {
      const deleted = new Set<string>();
      return async (req) => {
        if (isReset(req)) deleted.clear();
        const res = await next(req);
        if (!on(req, "DELETE", re("/tags/:id"))) return res;
        const key = req.path.toLowerCase();
        if (res.status === 204) deleted.add(key);
        else if (res.status === 404 && deleted.has(key))
          return {
            ...res,
            status: 204,
            headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => k !== "content-type")),
            body: null,
          };
        return res;
      };
    },
  },
  {
    name: "blind.gift-card-delete-409",
    breaks:
      'Delete rules: "product | soft delete | 422 UNPROCESSABLE for a gift card" (409 CONFLICT like the other refusals)',
    caughtBy: ["catalog.gift-card-delete"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return on(req, "DELETE", re("/products/:id")) && res.status === 422 && errorCode(res) === "UNPROCESSABLE"
        ? reError(res, 409, "CONFLICT")
        : res;
    },
  },
  {
    name: "blind.system-category-delete-422",
    breaks:
      'Delete rules: "category ... 409 CONFLICT for a system category, the gift cards category, or a category with live subcategories" (422 UNPROCESSABLE for the two reserved categories)',
    caughtBy: ["catalog.category-delete-refusals", "catalog.gift-cards-category-delete"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "DELETE", re("/categories/:id")) || res.status !== 409) return res;
      const msg = String(json(res)?.error?.message ?? "");
      return /subcategor/i.test(msg) ? res : reError(res, 422, "UNPROCESSABLE");
    },
  },
];
