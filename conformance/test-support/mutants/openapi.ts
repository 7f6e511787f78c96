import { mapJson, type Mutant } from "./base.js";

// A broken OpenAPI document (spec, Versioning).

export const openapiMutants: readonly Mutant[] = [
  {
    name: "openapi-version-bumped",
    breaks: "Versioning 2: the API description version is 1.0.0 and has stayed so (this one says 1.1.0)",
    caughtBy: ["openapi.document"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!/\/v1\/openapi\.json$/.test(req.path) || res.status !== 200) return res;
      return mapJson(res, (doc) => ({ ...doc, info: { ...doc.info, version: "1.1.0" } }));
    },
  },
];
