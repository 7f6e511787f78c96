import { rule, SPEC } from "./rule.js";
import { prefixOfBaseUrl, storePrefix } from "./support/access.js";
import { Mismatch } from "../outcomes.js";
import { bodyOf, dataOf, isObject, type Json } from "../shapes.js";

// Spec, Versioning: the OpenAPI document served at {base_url}/openapi.json describes the operations
// of the endpoint table.

/**
 * Spec, Endpoints: the operations the endpoint table gives with a path relative to {base_url}. Left
 * out: the rows without a path of their own (create and delete calls for brands, categories, tags,
 * suppliers), the document itself, and the OAuth endpoints, which live outside {base_url}.
 */
const TABLE_OPERATIONS: readonly string[] = [
  "GET /me",
  "GET /store",
  "GET /outlets",
  "GET /payment-types",
  "GET /taxes",
  "GET /products",
  "POST /products",
  "GET /products/{id}",
  "PATCH /products/{id}",
  "DELETE /products/{id}",
  "POST /products/{id}/variants",
  "GET /products/{id}/inventory",
  "PUT /products/{id}/inventory/{outlet_id}",
  "POST /inventory/adjustments",
  "POST /inventory/batch",
  "GET /inventory/adjustment-reasons",
  "GET /sales",
  "GET /sales/{id}",
  "GET /customers",
  "POST /customers",
  "DELETE /customers/{id}",
  "GET /brands/{id}",
  "GET /categories/{id}",
  "GET /tags/{id}",
];

/** A path with its parameters unnamed (`/products/{}`), without a trailing slash. */
const shape = (path: string): string => path.replace(/\{[^}]*\}/g, "{}").replace(/\/+$/, "");

/** The operations a document describes, as `METHOD /path` with unnamed parameters. */
function describedOperations(doc: Json, prefix: string): Set<string> {
  const ops = new Set<string>();
  const paths = doc.paths !== null && typeof doc.paths === "object" ? doc.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (item === null || typeof item !== "object") continue;
    // Paths are relative to the server URL; a document may also spell them out from the API root.
    const relative = path.startsWith(`/${prefix}/v1/`) ? path.slice(`/${prefix}/v1`.length) : path;
    for (const method of Object.keys(item)) ops.add(`${method.toUpperCase()} ${shape(relative)}`);
  }
  return ops;
}

export const openapiRules = [
  rule({
    id: "openapi.document",
    area: "OpenAPI",
    title:
      "GET /openapi.json is an OpenAPI 3.1 document, version 1.0.0, with a server URL ending in the store prefix and /v1, describing every operation of the endpoint table",
    spec: {
      section: SPEC.what,
      quote:
        "GET /openapi.json under the store prefix serves the machine-readable description of the API, with the store prefix in its server URL.",
    },
    cost: 1,
    leniency:
      "The raw document or {data: document}; a trailing slash on the server URL; path parameters under any name; operations beyond the table's (the spec counts 44 but does not show them all). Only the table's rows with a path of their own are required.",
    async run(ctx) {
      const reply = await ctx.call("GET", "/openapi.json");
      ctx.status(reply, 200);
      const body = bodyOf(reply);
      const doc = typeof body?.openapi === "string" ? body : dataOf<Json>(reply);
      const openapi = doc?.openapi;
      if (doc === undefined || typeof openapi !== "string" || !/^3\.1(\.\d+)?$/.test(openapi))
        throw new Mismatch("openapi 3.1.x", JSON.stringify(openapi ?? null));
      const info = isObject(doc.info) ? doc.info : undefined;
      ctx.check(info?.version === "1.0.0", "info.version 1.0.0", JSON.stringify(info?.version ?? null));
      let prefix: string;
      try {
        prefix = prefixOfBaseUrl(ctx);
      } catch {
        prefix = await storePrefix(ctx);
      }
      const urls = (Array.isArray(doc.servers) ? doc.servers : []).map((s: unknown) =>
        isObject(s) ? s.url : undefined,
      );
      ctx.check(
        urls.some((u: unknown) => typeof u === "string" && u.replace(/\/+$/, "").endsWith(`/${prefix}/v1`)),
        `a server URL ending in /${prefix}/v1`,
        JSON.stringify(urls),
      );
      // What the service does: "The first release has 44 operations", and Versioning 2: later changes only
      // add fields and refusals. The description of the API describes each operation the endpoint table lists.
      const described = describedOperations(doc, prefix);
      const missing = TABLE_OPERATIONS.filter((op) => {
        const [method, path] = op.split(" ") as [string, string];
        return !described.has(`${method} ${shape(path)}`);
      });
      ctx.check(
        missing.length === 0,
        `paths describing each operation of the endpoint table (${TABLE_OPERATIONS.length})`,
        `missing: ${missing.join(", ")}`,
      );
    },
  }),
];
