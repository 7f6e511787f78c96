import { API, type Mutant } from "./base.js";
import { errorCode } from "./support.js";

// Broken scopes (spec, Authentication: Scopes).

export const scopeMutants: readonly Mutant[] = [
  {
    name: "insufficient-scope-404",
    breaks:
      "Scopes: a call without the needed scope answers 403 INSUFFICIENT_SCOPE (this one hides the route with 404 NOT_FOUND)",
    caughtBy: ["scopes.missing-scope"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!API.test(req.path) || res.status !== 403 || errorCode(res) !== "INSUFFICIENT_SCOPE") return res;
      return { ...res, status: 404, body: JSON.stringify({ error: { code: "NOT_FOUND", message: "Not found." } }) };
    },
  },
];
