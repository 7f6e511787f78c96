import type { Mutant } from "../base.js";
import { json, on, re, sub, withJson } from "./util.js";

// Crash probes: servers whose answers a client can hardly parse or never gets. A conformance run
// must report these as failures, not throw or hang.

const HTML_404 = `<!DOCTYPE html>
<html><head><title>404 Not Found</title></head>
<body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>
`;

export const probeMutants: readonly Mutant[] = [
  {
    name: "blind.probe.html-not-found",
    breaks: 'What the service does 5: "All requests and responses are JSON." (every 404 is the proxy\'s HTML page)',
    caughtBy: ["envelope.unknown-path", "envelope.non-uuid-id"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (sub(req) === null || res.status !== 404) return res;
      return { ...res, headers: { ...res.headers, "content-type": "text/html" }, body: HTML_404 };
    },
  },
  {
    name: "blind.probe.single-resource-unwrapped",
    breaks:
      'What the service does 7: "Every success response wraps its payload as {"data": ...}." (reads of one resource return the bare object)',
    caughtBy: ["envelope.success-data", "auth.me-identity", "catalog.product-fields"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "GET" || res.status !== 200) return res;
      const s = sub(req) ?? "";
      if (
        !(
          re("/(products|brands|categories|tags|suppliers|customers|sales|customer-groups)/:id").test(s) ||
          s === "/me" ||
          s === "/store"
        )
      )
        return res;
      const b = json(res);
      return b?.data && !Array.isArray(b.data) ? withJson(res, b.data) : res;
    },
  },
  {
    name: "blind.probe.taxes-hangs",
    breaks: 'Endpoints: "GET | /taxes | none | list of taxes" (the taxes route never answers: a lost upstream call)',
    caughtBy: ["scopes.scopeless-endpoints", "pagination.each-row-once"],
    wrap: (next) => async (req) => {
      if (on(req, "GET", re("/taxes"))) return new Promise(() => {});
      return next(req);
    },
  },
];
