// Tests of the OpenAPI documents as generators read them (docs/sdk-authors.md, Generate a client): named
// component schemas, live rows split from tombstones, the rules a schema can state, the headers the spec
// says every response carries, and the token endpoint's own document (spec, Authentication 3 to 8).
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { call, makeSim, ORIGIN } from "../test-support/sim.js";
import { Components } from "./openapi-schemas.js";
import { documentAjv } from "./response-check.js";
import { OPERATIONS } from "./operations/index.js";
import { component } from "./schemas/component.js";

type Doc = any;

async function documents(): Promise<{ api: Doc; oauth: Doc }> {
  const sim = makeSim();
  const api = await call(sim, "GET", "/demo/v1/openapi.json");
  const oauth = await call(sim, "GET", "/oauth/openapi.json", { auth: null });
  expect([api.status, oauth.status]).toEqual([200, 200]);
  return { api: api.json, oauth: oauth.json };
}

/** A validator of one named component of `doc`. */
function componentValidator(doc: Doc, name: string) {
  const ajv = documentAjv();
  ajv.addSchema(doc, "doc");
  return ajv.compile({ $ref: `doc#/components/schemas/${name}` });
}

/** Where `doc` holds an object schema with properties outside `components/schemas/{name}` itself. */
function inlineObjects(doc: Doc): string[] {
  const found: string[] = [];
  const walk = (node: unknown, where: string, root: boolean): void => {
    if (Array.isArray(node)) {
      for (const [i, n] of node.entries()) walk(n, `${where}/${i}`, false);
      return;
    }
    if (node === null || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    if (!root && record.type === "object" && record.properties && Object.keys(record.properties).length > 0)
      found.push(where);
    for (const [key, child] of Object.entries(record)) walk(child, `${where}/${key}`, false);
  };
  for (const [name, schema] of Object.entries(doc.components.schemas))
    walk(schema, `#/components/schemas/${name}`, true);
  walk(doc.paths, "#/paths", false);
  return found;
}

describe("docs/sdk-authors.md, Generate a client: every resource, sub-record, body, page and error is a named component", () => {
  it("the resources SDK authors name have components, and no object schema is left inline in either document", async () => {
    const { api, oauth } = await documents();
    for (const name of ["Product", "Customer", "Sale", "InventoryLevel", "ErrorEnvelope", "Tombstone", "ProductPage"])
      expect(api.components.schemas[name], name).toBeDefined();
    expect(Object.keys(oauth.components.schemas).sort()).toEqual(["OAuthError", "TokenRequest", "TokenResponse"]);
    expect(inlineObjects(api)).toEqual([]);
    expect(inlineObjects(oauth)).toEqual([]);
  });

  it("each operation's success body and request body are references to named components", async () => {
    const { api } = await documents();
    for (const op of OPERATIONS) {
      const operation = api.paths[op.path][op.method.toLowerCase()];
      const success = operation.responses[String(op.successStatus)];
      if (op.kind !== "empty" && op.kind !== "document")
        expect(success.content["application/json"].schema.$ref, op.id).toMatch(/^#\/components\/schemas\/\w+$/);
      if (op.body)
        expect(operation.requestBody.content["application/json"].schema.$ref, op.id).toMatch(
          /^#\/components\/schemas\/\w+$/,
        );
    }
    expect(api.paths["/products/{id}"].get.responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/ProductEnvelope",
    });
    expect(api.components.schemas.ProductEnvelope.properties.data).toEqual({ $ref: "#/components/schemas/Product" });
  });

  it("two different schemas under one name are refused when the document is built", () => {
    const components = new Components();
    components.schema(component("Thing", Type.Object({ a: Type.String() })));
    expect(() => components.schema(component("Thing", Type.Object({ b: Type.String() })))).toThrow(
      "Two different schemas are named Thing: name the derived one with component()",
    );
  });
});

describe("Spec, Pagination and polling 4: live rows and tombstones are told apart by the schema", () => {
  it("a page's items are oneOf Product or Tombstone; a live product and a real tombstone each match exactly one", async () => {
    const sim = makeSim();
    const doc = (await call(sim, "GET", "/demo/v1/openapi.json")).json;
    expect(doc.components.schemas.ProductPage.properties.data.items.oneOf).toEqual([
      { $ref: "#/components/schemas/Product" },
      { $ref: "#/components/schemas/Tombstone" },
    ]);
    const created = await call(sim, "POST", "/demo/v1/products", { body: { name: "Gone soon", retail_price: 100 } });
    expect(created.status).toBe(201);
    expect((await call(sim, "DELETE", `/demo/v1/products/${created.json.data.id}`)).status).toBe(204);
    const page = await call(sim, "GET", "/demo/v1/products?include_deleted=true&limit=200");
    expect(page.status).toBe(200);
    const tombstone = page.json.data.find((row: { id: string }) => row.id === created.json.data.id);
    expect(Object.keys(tombstone).sort()).toEqual(["deleted_at", "id", "version"]);
    const live = page.json.data.find((row: { deleted_at?: string }) => row.deleted_at === undefined);
    const isProduct = componentValidator(doc, "Product");
    const isTombstone = componentValidator(doc, "Tombstone");
    expect([isProduct(live), isTombstone(live)]).toEqual([true, false]);
    expect([isProduct(tombstone), isTombstone(tombstone)]).toEqual([false, true]);
  });
});

describe("Spec, Inventory: the schemas state exactly one of product_id or sku, and of set or adjust", () => {
  const OUTLET = "00000000-0000-4000-8000-000000000001";
  const PRODUCT = "00000000-0000-4000-8000-000000000002";
  const REASON = "00000000-0000-4000-8000-000000000003";
  const LINES: { what: string; line: Record<string, unknown>; valid: boolean }[] = [
    { what: "product_id and set", line: { product_id: PRODUCT, outlet_id: OUTLET, set: { on_hand: 1 } }, valid: true },
    {
      what: "sku and adjust",
      line: { sku: "X", outlet_id: OUTLET, adjust: { quantity: 1, reason_id: REASON } },
      valid: true,
    },
    {
      what: "both product_id and sku",
      line: { product_id: PRODUCT, sku: "X", outlet_id: OUTLET, set: { on_hand: 1 } },
      valid: false,
    },
    { what: "neither product_id nor sku", line: { outlet_id: OUTLET, set: { on_hand: 1 } }, valid: false },
    {
      what: "both set and adjust",
      line: { product_id: PRODUCT, outlet_id: OUTLET, set: { on_hand: 1 }, adjust: { quantity: 1, reason_id: REASON } },
      valid: false,
    },
    { what: "neither set nor adjust", line: { product_id: PRODUCT, outlet_id: OUTLET }, valid: false },
  ];

  for (const c of LINES) {
    it(`a batch line with ${c.what}: the document ${c.valid ? "accepts" : "refuses"} it, and the server ${c.valid ? "reads past the shape (422 for the unknown product)" : "answers 400 VALIDATION_FAILED"}`, async () => {
      const sim = makeSim();
      const doc = (await call(sim, "GET", "/demo/v1/openapi.json")).json;
      expect(componentValidator(doc, "StockBatchLine")(c.line)).toBe(c.valid);
      const reply = await call(sim, "POST", "/demo/v1/inventory/batch", {
        body: { lines: [c.line] },
        headers: { "idempotency-key": `line-${c.what.replace(/\W+/g, "-")}` },
      });
      // Past the shape, the made-up product is looked up: 422 UNPROCESSABLE naming the line's product field.
      if (c.valid)
        expect([reply.status, reply.json.error.code, reply.json.error.fields[0].field]).toEqual([
          422,
          "UNPROCESSABLE",
          "product_id" in c.line ? "lines.0.product_id" : "lines.0.sku",
        ]);
      else expect([reply.status, reply.json.error.code]).toEqual([400, "VALIDATION_FAILED"]);
    });
  }

  it("an adjustment with both product_id and sku, or neither, is refused by the document as by the server", async () => {
    const sim = makeSim();
    const doc = (await call(sim, "GET", "/demo/v1/openapi.json")).json;
    const valid = componentValidator(doc, "AdjustmentCreate");
    const base = { outlet_id: OUTLET, reason_id: REASON, quantity: 1 };
    expect(valid({ ...base, product_id: PRODUCT })).toBe(true);
    for (const body of [{ ...base, product_id: PRODUCT, sku: "X" }, base]) {
      expect(valid(body)).toBe(false);
      const reply = await call(sim, "POST", "/demo/v1/inventory/adjustments", {
        body,
        headers: { "idempotency-key": `adjust-${"sku" in body ? "both" : "neither"}` },
      });
      expect([reply.status, reply.json.error.code]).toEqual([400, "VALIDATION_FAILED"]);
    }
  });
});

describe("Spec, Sales list rules 1: the Z-only date-time filters carry a pattern tools check", () => {
  it("completed_from and completed_to accept ...Z and refuse an offset, in the document as in the server", async () => {
    const sim = makeSim();
    const doc = (await call(sim, "GET", "/demo/v1/openapi.json")).json;
    const ajv = documentAjv();
    for (const name of ["completed_from", "completed_to"]) {
      const param = doc.paths["/sales"].get.parameters.find((p: { name: string }) => p.name === name);
      const valid = ajv.compile(param.schema);
      expect([valid("2026-01-01T00:00:00Z"), valid("2026-01-01T00:00:00.250Z")]).toEqual([true, true]);
      expect([valid("2026-01-01T00:00:00+00:00"), valid("2026-01-01T02:00:00+02:00")]).toEqual([false, false]);
      const refused = await call(
        sim,
        "GET",
        `/demo/v1/sales?${name}=${encodeURIComponent("2026-01-01T00:00:00+00:00")}`,
      );
      expect([refused.status, refused.json.error.code, refused.json.error.fields[0].field]).toEqual([
        400,
        "VALIDATION_FAILED",
        name,
      ]);
    }
  });
});

describe("Spec, Limits: the headers every response carries are declared, and required, on every response", () => {
  it("RateLimit and RateLimit-Policy on every response of both documents; Retry-After on every 429", async () => {
    const { api, oauth } = await documents();
    for (const doc of [api, oauth]) {
      expect(doc.components.headers.RateLimit.required).toBe(true);
      expect(doc.components.headers.RateLimitPolicy.required).toBe(true);
      for (const [path, item] of Object.entries<Doc>(doc.paths))
        for (const [method, operation] of Object.entries<Doc>(item))
          for (const [status, response] of Object.entries<Doc>(operation.responses)) {
            const where = `${method} ${path} ${status}`;
            expect(response.headers.RateLimit, where).toEqual({ $ref: "#/components/headers/RateLimit" });
            expect(response.headers["RateLimit-Policy"], where).toEqual({
              $ref: "#/components/headers/RateLimitPolicy",
            });
            if (status === "429")
              expect(response.headers["Retry-After"], where).toEqual({ $ref: "#/components/headers/RetryAfter" });
          }
    }
  });

  it("Spec, Limits (Idempotency): Idempotent-Replayed is declared on every answer of a keyed operation, and a replayed error carries it", async () => {
    const sim = makeSim();
    const doc = (await call(sim, "GET", "/demo/v1/openapi.json")).json;
    for (const op of OPERATIONS.filter((o) => o.idempotency !== "none"))
      for (const [status, response] of Object.entries<Doc>(doc.paths[op.path][op.method.toLowerCase()].responses))
        expect(response.headers["Idempotent-Replayed"], `${op.id} ${status}`).toEqual({
          $ref: "#/components/headers/IdempotentReplayed",
        });
    const send = () =>
      call(sim, "POST", "/demo/v1/products", {
        body: { name: "No price" },
        headers: { "idempotency-key": "replayed-error" },
      });
    const first = await send();
    const again = await send();
    expect([first.status, first.json.error.code, first.headers.get("idempotent-replayed")]).toEqual([
      400,
      "VALIDATION_FAILED",
      null,
    ]);
    expect([again.status, again.json.error.code, again.headers.get("idempotent-replayed")]).toEqual([
      400,
      "VALIDATION_FAILED",
      "true",
    ]);
  });
});

describe("Spec, Authentication 3 to 8: the token endpoint's own document, GET {api_root}/oauth/openapi.json", () => {
  it("names the API root as its server, so generated clients call {api_root}/oauth/token; declares HTTP Basic client authentication", async () => {
    const { oauth } = await documents();
    expect(oauth.openapi).toBe("3.1.0");
    expect(oauth.servers).toEqual([
      { url: ORIGIN, description: "The API root: the token endpoint has no store prefix." },
    ]);
    expect(Object.keys(oauth.paths)).toEqual(["/oauth/token"]);
    const post = oauth.paths["/oauth/token"].post;
    expect(Object.keys(oauth.paths["/oauth/token"])).toEqual(["post"]);
    expect(post.operationId).toBe("createToken");
    expect(post.security).toEqual([{ clientBasic: [] }, {}]);
    expect(oauth.components.securitySchemes.clientBasic).toMatchObject({ type: "http", scheme: "basic" });
    expect(Object.keys(post.responses)).toEqual(["200", "400", "401", "429"]);
    expect(post.requestBody.content["application/x-www-form-urlencoded"].schema).toEqual({
      $ref: "#/components/schemas/TokenRequest",
    });
  });

  it("GET /oauth/token answers 405 invalid_request with the rate-limit headers (spec, Limits: every response carries them)", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/oauth/token", { auth: null });
    expect([reply.status, reply.json, reply.headers.get("allow")]).toEqual([
      405,
      { error: "invalid_request", error_description: "Use POST." },
      "POST",
    ]);
    expect(reply.headers.get("ratelimit-policy")).toBe('30;w=300;comment="token-failures"');
    expect(reply.headers.get("ratelimit")).toBe("limit=30, remaining=30, reset=300");
  });
});
