import type { Mutant } from "../base.js";
import { bodyJson, errorCode, json, on, re, reError, withBody, withJson, withKey } from "./util.js";

// Blind mutants of variants (Product write rules 5 and 9, the variant attribute cap).

const VARIANTS = re("/products/:id/variants");

export const catalogVariantMutants: readonly Mutant[] = [
  {
    name: "blind.variants-created-one-by-one",
    breaks:
      'Product write rules 9: "The call is all or nothing." (each variant is inserted in its own transaction; the good ones stay)',
    caughtBy: ["catalog.variants", "catalog.variants-count"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const body = bodyJson(req);
      if (
        !on(req, "POST", VARIANTS) ||
        res.status < 400 ||
        res.status >= 500 ||
        !Array.isArray(body?.variants) ||
        body.variants.length < 2
      )
        return res;
      if (errorCode(res)?.startsWith("IDEMPOTENCY") || res.headers["idempotent-replayed"] === "true") return res;
      for (const v of body.variants.slice(0, 200)) await next(withKey(withBody(req, { variants: [v] }), undefined));
      return res;
    },
  },
  {
    name: "blind.variant-attribute-change-ignored",
    breaks:
      'Product write rules 5: "variant_attributes can change only while the product has no live variant children; afterwards a change answers 409 CONFLICT" (the change is dropped and the rest saved)',
    caughtBy: ["catalog.variant-attributes"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "PATCH", re("/products/:id")) || res.status !== 409 || errorCode(res) !== "CONFLICT") return res;
      const fields = (json(res)?.error?.fields ?? []) as { field: string }[];
      if (!fields.some((f) => f.field.startsWith("variant_attributes"))) return res;
      const { variant_attributes: _va, ...rest } = bodyJson(req) ?? {};
      return next(withBody(req, rest));
    },
  },
  {
    name: "blind.variant-combination-exists-422",
    breaks: 'Product write rules 9: "A combination that already exists answers 409 CONFLICT." (422 UNPROCESSABLE)',
    caughtBy: ["catalog.variants"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return on(req, "POST", VARIANTS) && res.status === 409 && errorCode(res) === "CONFLICT"
        ? reError(res, 422, "UNPROCESSABLE", { fields: json(res).error.fields })
        : res;
    },
  },
  {
    name: "blind.variant-attribute-cap-422",
    breaks:
      'Errors: "Cap exceptions: over 3 variant attributes or a position outside 1 to 3 answers 400 VALIDATION_FAILED, not 422." (422 UNPROCESSABLE like the other caps)',
    caughtBy: ["catalog.variant-attribute-limits"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!(on(req, "POST", re("/products")) || on(req, "PATCH", re("/products/:id"))) || res.status !== 400)
        return res;
      const b = json(res);
      const fields = (b?.error?.fields ?? []) as { field: string }[];
      if (fields.length === 0 || !fields.every((f) => f.field.startsWith("variant_attributes"))) return res;
      return withJson(res, { error: { ...b.error, code: "UNPROCESSABLE" } }, 422);
    },
  },
];
