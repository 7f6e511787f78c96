import type { Mutant } from "./base.js";
import { stores } from "./support.js";

// Broken tenant isolation (spec, Errors: another store's ids are NOT_FOUND).

const BY_ID = /^\/([^/]+)\/v1\/(products|brands|customers)\/([0-9a-fA-F-]{36})$/;

export const isolationMutants: readonly Mutant[] = [
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
