import { createHash } from "node:crypto";
import type { Mutant } from "../base.js";
import { bodyJson, errorCode, json, on, re, reError, withBody, withJson, type Next } from "./util.js";
import type { SimRequest, SimResponse } from "../../../../src/http/types.js";

// Blind mutants of product creates and updates (Product write rules).

const PRODUCTS = re("/products");
const PRODUCT = re("/products/:id");
const isProductWrite = (req: SimRequest): boolean => on(req, "POST", PRODUCTS) || on(req, "PATCH", PRODUCT);
/** A 400 naming `from` now names `to` with `message`. */
const renameField = (res: SimResponse, from: string, to: string, message: string): SimResponse => {
  const b = json(res);
  if (res.status !== 400 || !Array.isArray(b?.error?.fields)) return res;
  const fields = b.error.fields.map((f: { field: string; message: string }) =>
    f.field === from ? { field: to, message } : f,
  );
  return withJson(res, {
    error: {
      ...b.error,
      message: fields.map((f: { field: string; message: string }) => `${f.field}: ${f.message}`).join("; "),
      fields,
    },
  });
};
const fieldsOf = (res: SimResponse): string[] =>
  (json(res)?.error?.fields ?? []).map((f: { field: string }) => f.field);

export const catalogWriteMutants: readonly Mutant[] = [
  {
    name: "blind.update-saved-despite-bad-tag",
    breaks:
      'Product write rules 4: "A whole write is atomic: if any entry is invalid, nothing is saved." (an update with an unknown tag saves its other fields)',
    caughtBy: ["catalog.atomic-write"],
    // The tags are validated after the row update was already written.
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "PATCH", PRODUCT) || res.status !== 400 || !fieldsOf(res).some((f) => f.startsWith("tags")))
        return res;
      const body = bodyJson(req);
      if (!body || typeof body !== "object") return res;
      const { tags: _tags, ...rest } = body;
      if (Object.keys(rest).length > 0) await next(withBody(req, rest));
      return res;
    },
  },
  {
    name: "blind.create-requires-category",
    breaks: 'Product write rules 1: "Create needs only name and retail_price." (category_id is required too)',
    caughtBy: ["catalog.create-minimal"],
    wrap: (next) => async (req) => {
      if (!on(req, "POST", PRODUCTS)) return next(req);
      const body = bodyJson(req);
      if (!body || typeof body !== "object" || Array.isArray(body) || "category_id" in body) return next(req);
      // The schema marks category_id required: the same pipeline (auth, scope, idempotency) refuses it.
      const res = await next(withBody(req, { ...body, category_id: "" }));
      return renameField(res, "category_id", "category_id", "is required");
    },
  },
  {
    name: "blind.thumb-url-refused-on-write",
    breaks:
      'Product write rules 2: "Fields owned by the API (id, created_at, updated_at, image_thumb_url, is_gift_card, variant_options) are accepted and ignored" (image_thumb_url is refused as read only)',
    caughtBy: ["catalog.api-owned-ignored", "catalog.read-document-roundtrip"],
    wrap: (next) => async (req) => {
      if (!isProductWrite(req)) return next(req);
      const body = bodyJson(req);
      if (!body || typeof body !== "object" || Array.isArray(body) || !("image_thumb_url" in body)) return next(req);
      // Read-only fields are stripped from the schema, so the property counts as unknown.
      const { image_thumb_url: _thumb, ...rest } = body;
      const res = await next(withBody(req, { ...rest, readonly_image_thumb_url: true }));
      return renameField(res, "readonly_image_thumb_url", "image_thumb_url", "is read only");
    },
  },
  {
    name: "blind.codes-reinserted-with-new-ids",
    breaks:
      'Product write rules 3: "Replacement items are matched by identity (code by type, ...), so a re-sent row keeps its identity." (codes are deleted and inserted again)',
    caughtBy: ["catalog.collections-replace", "catalog.read-document-roundtrip"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "PATCH", PRODUCT) || res.status !== 200) return res;
      const body = bodyJson(req);
      if (!Array.isArray(body?.codes) || body.codes.length === 0) return res;
      const cleared = await next(withBody(req, { codes: [] }));
      if (cleared.status !== 200) return res;
      const again = await next(withBody(req, { codes: body.codes }));
      return again.status === 200 ? again : res;
    },
  },
  {
    name: "blind.unknown-tag-422",
    breaks: 'Product write rules 8: "Unknown tag id: 400." (answered 422 UNPROCESSABLE like other missing references)',
    caughtBy: ["catalog.unknown-tag", "catalog.atomic-write"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!isProductWrite(req) || res.status !== 400 || !fieldsOf(res).some((f) => /^tags\.\d+/.test(f))) return res;
      return withJson(res, { error: { ...json(res).error, code: "UNPROCESSABLE" } }, 422);
    },
  },
  {
    name: "blind.sku-in-use-422",
    breaks: 'Product write rules 8: "SKU in use: 409 CONFLICT." (answered 422 UNPROCESSABLE)',
    caughtBy: ["catalog.sku-conflict", "idempotency.client-error-replayed"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (
        !isProductWrite(req) ||
        res.status !== 409 ||
        errorCode(res) !== "CONFLICT" ||
        !/sku/i.test(JSON.stringify(json(res)))
      )
        return res;
      return reError(res, 422, "UNPROCESSABLE");
    },
  },
  {
    name: "blind.image-failure-without-product",
    breaks:
      'Product write rules 7: "the response is 422 IMAGE_FETCH_FAILED carrying the saved product in data next to the error" (no data)',
    caughtBy: ["catalog.image-fetch-failed"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (errorCode(res) !== "IMAGE_FETCH_FAILED") return res;
      return withJson(res, { error: json(res).error });
    },
  },
  {
    name: "blind.image-url-echoed",
    breaks:
      'Product write rules 7: "image_url (https) is downloaded once and stored as the service\'s own copy; the given address is not kept." (the write answer shows the given address)',
    caughtBy: ["catalog.image-address-not-kept"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const url = bodyJson(req)?.image_url;
      if (!isProductWrite(req) || res.status >= 300 || typeof url !== "string" || !url.startsWith("https://"))
        return res;
      const b = json(res);
      return b?.data ? withJson(res, { data: { ...b.data, image_url: url } }) : res;
    },
  },
  {
    name: "blind.expected-version-ignored",
    breaks:
      'Product write rules 6: "Sending version (or expected_version) with an update that no longer matches answers 409 STALE_VERSION." (only version is checked)',
    caughtBy: ["catalog.stale-version"],
    wrap: (next) => async (req) => {
      if (!on(req, "PATCH", PRODUCT)) return next(req);
      const body = bodyJson(req);
      if (!body || typeof body !== "object" || !("expected_version" in body) || "version" in body) return next(req);
      const { expected_version: _ignored, ...rest } = body;
      return next(withBody(req, rest));
    },
  },
  {
    name: "blind.generated-sku-prefix",
    breaks:
      'Resources, Product: "If left out at create, the service generates one that starts with PRD-." (it starts with SKU-)',
    caughtBy: ["catalog.create-minimal"],
    wrap: (next: Next) => {
      let n = 0;
      return async (req) => {
        if (!on(req, "POST", PRODUCTS)) return next(req);
        const body = bodyJson(req);
        if (!body || typeof body !== "object" || Array.isArray(body) || "sku" in body) return next(req);
        const key = req.headers["idempotency-key"];
        // Same key and body, same sku: a retry stays a retry.
        const seed = key
          ? `${key}\n${Buffer.from(req.body ?? new Uint8Array()).toString("utf8")}`
          : `n${++n}-${Math.random()}`;
        const sku = `SKU-${createHash("sha256").update(seed).digest("hex").slice(0, 8).toUpperCase()}`;
        const res = await next(withBody(req, { ...body, sku }));
        return res;
      };
    },
  },
  {
    name: "blind.update-echoes-sent-sku",
    breaks:
      'Resources, Product: "sku | Set only at create; a sku sent in an update is ignored." (the update answer shows the sent sku)',
    caughtBy: ["catalog.sku-update-ignored"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const sku = bodyJson(req)?.sku;
      if (!on(req, "PATCH", PRODUCT) || res.status !== 200 || typeof sku !== "string") return res;
      const b = json(res);
      return b?.data ? withJson(res, { data: { ...b.data, sku } }) : res;
    },
  },
];
