import { API, type Mutant } from "./base.js";
import { errorCode } from "./support.js";

// Broken store states (spec, Errors: the 402 and 403 codes of a store's plan and status).

export const storeMutants: readonly Mutant[] = [
  {
    name: "paused-store-403",
    breaks: "Errors: a paused store answers 402 RETAILER_PAUSED (this one answers 403)",
    caughtBy: ["stores.status-codes"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return API.test(req.path) && errorCode(res) === "RETAILER_PAUSED" ? { ...res, status: 403 } : res;
    },
  },
];
