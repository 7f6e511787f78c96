import { bodyOf, CUSTOMER_FIELDS, mapJson, withBody, type Mutant } from "./base.js";

// Broken customers (spec, Resources: Customer; Delete rules): each violates one sentence.

const CUSTOMERS = /^\/[^/]+\/v1\/customers$/;
const CUSTOMER = /^\/[^/]+\/v1\/customers\/[^/]+$/;
const STORED_CUSTOMER = /^\/_sim\/stores\/[^/]+\/customers\/([^/]+)$/;

export const customerMutants: readonly Mutant[] = [
  {
    name: "erasure-keeps-email",
    breaks: "Delete rules, customer: erasure scrubs the email (this one keeps it)",
    caughtBy: ["customers.erasure"],
    wrap: (next) => {
      const emails = new Map<string, string>();
      return async (req) => {
        const res = await next(req);
        if (req.method === "POST" && CUSTOMERS.test(req.path)) {
          return mapJson(res, (b) => {
            if (typeof b?.data?.id === "string" && typeof b.data.email === "string")
              emails.set(b.data.id, b.data.email);
            return b;
          });
        }
        const stored = STORED_CUSTOMER.exec(req.path);
        const email = stored ? emails.get(stored[1]!) : undefined;
        return email === undefined ? res : mapJson(res, (b) => (b?.id ? { ...b, email } : b));
      };
    },
  },
  {
    name: "walk-in-deletable",
    breaks: "Delete rules, customer: deleting the walk-in customer answers 409 CONFLICT (this one answers 204)",
    caughtBy: ["customers.walk-in-undeletable"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return req.method === "DELETE" && CUSTOMER.test(req.path) && res.status === 409
        ? { status: 204, headers: {}, body: null }
        : res;
    },
  },
  {
    name: "customer-unknown-property-dropped",
    breaks:
      "Resources: no resource accepts unknown properties (this one drops the customer's unknown properties and creates it)",
    caughtBy: ["customers.unknown-property"],
    wrap: (next) => async (req) => {
      const body = bodyOf(req);
      if (req.method !== "POST" || !CUSTOMERS.test(req.path) || typeof body !== "object" || body === null)
        return next(req);
      return next(withBody(req, Object.fromEntries(Object.entries(body).filter(([k]) => CUSTOMER_FIELDS.has(k)))));
    },
  },
];
