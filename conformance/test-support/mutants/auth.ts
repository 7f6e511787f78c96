import { API, type Mutant } from "./base.js";
import { API_PATH, answer, jsonOf } from "./support.js";

// Broken authentication (spec, Authentication and Errors).

const ME = API_PATH("/me");

export const authMutants: readonly Mutant[] = [
  {
    name: "unauthorized-403",
    breaks: "Errors: a revoked (or missing, unknown, idle) credential answers 401 UNAUTHORIZED (this one answers 403)",
    caughtBy: ["auth.revoked-key"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return API.test(req.path) && res.status === 401 ? { ...res, status: 403 } : res;
    },
  },
  {
    name: "me-domain-prefix-hostname",
    breaks: "Resources: Identity: domain_prefix is the store prefix (this one answers the store's host name)",
    caughtBy: ["auth.me-identity"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const me = jsonOf(res);
      if (req.method !== "GET" || !ME.test(req.path) || typeof me?.data?.domain_prefix !== "string") return res;
      return answer(res, res.status, {
        data: { ...me.data, domain_prefix: `${me.data.domain_prefix}.retail.example` },
      });
    },
  },
];
