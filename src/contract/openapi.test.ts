// Tests of GET /openapi.json (spec, rule 6 of "What the service does"; Versioning 2) and of the
// live responses against the schemas the document itself publishes.
import { describe, expect, it } from "vitest";
import Ajv2020Module from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Simulator } from "../simulator.js";
import { call, makeSim, ORIGIN, type Reply } from "../test-support/sim.js";
import { OPERATIONS } from "./operations/index.js";

type AjvInstance = {
  addSchema(schema: unknown, key: string): AjvInstance;
  compile(schema: unknown): ((data: unknown) => boolean) & { errors?: unknown };
};
type AjvClass = new (options: Record<string, unknown>) => AjvInstance;
// ajv ships CommonJS; under NodeNext the default import may be the module object.
const Ajv2020 = ((Ajv2020Module as unknown as { default?: AjvClass }).default ??
  (Ajv2020Module as unknown as AjvClass)) as AjvClass;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: AjvInstance,
) => AjvInstance;

const DOC_PATH = "/demo/v1/openapi.json";
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

async function fetchDoc(sim: Simulator): Promise<any> {
  const reply = await call(sim, "GET", DOC_PATH);
  expect(reply.status).toBe(200);
  return reply.json;
}

/** An ajv (JSON Schema 2020-12, formats on) holding the document, so `$ref`s inside it resolve. */
function validatorFor(doc: unknown, pointer: string) {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema(doc, "openapi.json");
  return ajv.compile({ $ref: `openapi.json#${pointer}` });
}

const pointerSegment = (segment: string): string => segment.replace(/~/g, "~0").replace(/\//g, "~1");
const responsePointer = (path: string, method: string, status: string): string =>
  `/paths/${pointerSegment(path)}/${method}/responses/${status}/content/${pointerSegment("application/json")}/schema`;

function expectValid(doc: unknown, pointer: string, reply: Reply, what: string): void {
  const validate = validatorFor(doc, pointer);
  const ok = validate(reply.json);
  expect(ok, `${what}: ${JSON.stringify(validate.errors)}\n${reply.text}`).toBe(true);
}

describe("Spec, What the service does 6: GET /openapi.json under the store prefix", () => {
  it("serves an OpenAPI 3.1 document whose server URL carries the store prefix", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", DOC_PATH);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
    const doc = reply.json;
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.servers[0].url).toBe(`${ORIGIN}/demo/v1`);
  });

  it("Spec, Versioning 2: info.version is 1.0.0", async () => {
    const sim = makeSim();
    const doc = await fetchDoc(sim);
    expect(doc.info.version).toBe("1.0.0");
    expect(typeof doc.info.title).toBe("string");
  });

  it("another store's document names that store's prefix in its server URL", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/other/v1/openapi.json");
    expect(reply.status).toBe(200);
    expect(reply.json.servers[0].url).toBe(`${ORIGIN}/other/v1`);
  });

  it("needs no particular scope", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", DOC_PATH, { key: "none" });
    expect(reply.status).toBe(200);
    expect(reply.json.openapi).toMatch(/^3\.1\.\d+$/);
  });
});

describe("Spec, Endpoints and Scopes: the document describes every operation of the operations table, under its path and method, with its scope", () => {
  for (const op of OPERATIONS) {
    it(`${op.method} ${op.path} appears as operationId ${op.id} with security [${op.scope ?? ""}]`, async () => {
      const sim = makeSim();
      const doc = await fetchDoc(sim);
      const operation = doc.paths?.[op.path]?.[op.method.toLowerCase()];
      expect(operation, `${op.method} ${op.path}`).toBeDefined();
      expect(operation.operationId).toBe(op.id);
      const expected = op.scope === null ? [] : [op.scope];
      expect(Array.isArray(operation.security)).toBe(true);
      expect(operation.security.length).toBeGreaterThan(0);
      for (const requirement of operation.security as Record<string, string[]>[]) {
        const schemes = Object.keys(requirement);
        expect(schemes.length).toBeGreaterThan(0);
        for (const scheme of schemes) {
          expect(doc.components.securitySchemes).toHaveProperty(scheme);
          expect(requirement[scheme]).toEqual(expected);
        }
      }
      expect(operation.responses).toHaveProperty(String(op.successStatus));
    });
  }

  it("describes no operation that the table lacks (besides the token endpoint outside the store prefix), and every operationId is unique", async () => {
    const sim = makeSim();
    const doc = await fetchDoc(sim);
    const found: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const method of Object.keys(item).filter((m) => METHODS.includes(m)))
        found.push(`${method.toUpperCase()} ${path} ${item[method].operationId}`);
    }
    expect(found.sort()).toEqual(OPERATIONS.map((o) => `${o.method} ${o.path} ${o.id}`).sort());
    // Spec, Authentication 3: the token endpoint lives at {api_root}/oauth/token, without the store prefix:
    // it has its own document (generators ignore a path's own servers), which this one names.
    expect(doc.paths["/oauth/token"]).toBeUndefined();
    expect(doc.info.description).toContain("http://sim.test/oauth/openapi.json");
    expect(new Set(OPERATIONS.map((o) => o.id)).size).toBe(OPERATIONS.length);
  });

  it("the scopes named by operations are declared by the oauth2 scheme", async () => {
    const sim = makeSim();
    const doc = await fetchDoc(sim);
    const schemes = doc.components.securitySchemes as Record<string, any>;
    const oauth = Object.values(schemes).find((s) => s.type === "oauth2");
    expect(oauth).toBeDefined();
    const declared = Object.keys(oauth.flows.authorizationCode.scopes);
    for (const op of OPERATIONS) if (op.scope !== null) expect(declared).toContain(op.scope);
  });
});

describe("Spec, Sales list rules 3 and Pagination rules 4: include_deleted is declared only where it is accepted", () => {
  it("GET /sales declares no include_deleted; GET /products and GET /customers do", async () => {
    const doc = await fetchDoc(makeSim());
    const names = (path: string) =>
      ((doc.paths?.[path]?.get?.parameters ?? []) as { name: string; in: string }[])
        .filter((p) => p.in === "query")
        .map((p) => p.name);
    expect(names("/sales")).not.toContain("include_deleted");
    expect(names("/sales")).toEqual(expect.arrayContaining(["limit", "cursor", "order", "customer_id"]));
    expect(names("/products")).toContain("include_deleted");
    expect(names("/customers")).toContain("include_deleted");
  });
});

describe("Spec, Resources and Endpoints: live 200 bodies validate against the document's schemas", () => {
  const READS: { path: string; setup?: (sim: Simulator) => void; queries: string[] }[] = [
    { path: "/me", queries: [""] },
    { path: "/store", queries: [""] },
    { path: "/outlets", queries: ["", "limit=1", "order=desc", "include_deleted=true"] },
    { path: "/payment-types", queries: ["", "limit=1", "order=desc", "include_deleted=true"] },
    { path: "/taxes", queries: ["", "limit=1", "order=desc", "include_deleted=true"] },
    { path: "/inventory/adjustment-reasons", queries: [""] },
  ];

  for (const read of READS) {
    it(`GET ${read.path}: every 200 body matches paths["${read.path}"].get.responses["200"]`, async () => {
      const sim = makeSim();
      const doc = await fetchDoc(sim);
      expect(doc.paths[read.path]?.get?.responses?.["200"]?.content?.["application/json"]?.schema).toBeDefined();
      for (const query of read.queries) {
        const reply = await call(sim, "GET", `/demo/v1${read.path}${query ? `?${query}` : ""}`);
        expect(reply.status).toBe(200);
        expectValid(doc, responsePointer(read.path, "get", "200"), reply, `GET ${read.path}?${query}`);
      }
    });
  }

  it("a list with deleted rows (include_deleted=true) and an empty poll page still validate", async () => {
    const sim = makeSim();
    const doc = await fetchDoc(sim);
    const store = sim.world.stores.get("demo")!;
    const feeds = { "/outlets": store.outlets, "/payment-types": store.paymentTypes, "/taxes": store.taxes };
    for (const [path, feed] of Object.entries(feeds)) {
      const first = [...feed.all()][0]!;
      feed.markDeleted(first.id, sim.world.env.clock.now());
      const withDeleted = await call(sim, "GET", `/demo/v1${path}?include_deleted=true`);
      expect(withDeleted.status).toBe(200);
      expect((withDeleted.json.data as { id: string }[]).map((r) => r.id)).toContain(first.id);
      expectValid(doc, responsePointer(path, "get", "200"), withDeleted, `GET ${path}?include_deleted=true`);
      const empty = await call(
        sim,
        "GET",
        `/demo/v1${path}?cursor=${encodeURIComponent(withDeleted.json.next_cursor)}`,
      );
      expect(empty.json).toStrictEqual({ data: [], next_cursor: null, has_more: false });
      expectValid(doc, responsePointer(path, "get", "200"), empty, `GET ${path} empty poll`);
    }
  });

  it("the schemas are strict: a body with an extra field or a wrong type does not validate", async () => {
    const sim = makeSim();
    const doc = await fetchDoc(sim);
    const me = await call(sim, "GET", "/demo/v1/me");
    const validate = validatorFor(doc, responsePointer("/me", "get", "200"));
    expect(validate(me.json)).toBe(true);
    expect(validate({ data: { ...me.json.data, extra: 1 } })).toBe(false);
    const outlets = await call(sim, "GET", "/demo/v1/outlets");
    const validateList = validatorFor(doc, responsePointer("/outlets", "get", "200"));
    expect(validateList(outlets.json)).toBe(true);
    expect(validateList({ ...outlets.json, data: [{ ...outlets.json.data[0], version: 7 }] })).toBe(false);
    expect(validateList({ ...outlets.json, data: [{ ...outlets.json.data[0], id: "not-a-uuid" }] })).toBe(false);
  });
});

describe("Spec, InventoryLevel (3 decimals): the document states quantities so that standard validators accept every valid one", () => {
  it("quantities carry x-decimals: 3 and no multipleOf; a plain ajv accepts 0.043, 0.051 and 0.059 wherever a quantity is", async () => {
    const sim = makeSim();
    const doc = await fetchDoc(sim);
    const text = JSON.stringify(doc);
    expect(text).not.toContain("multipleOf");
    expect(text).toContain('"x-decimals":3');
    // Found by the fuzzer: `multipleOf: 0.001` made standard validators refuse 652 of the values 0.001 to 5.000.
    const quantities: object[] = [];
    JSON.parse(text, (_key, value) => {
      if (value && typeof value === "object" && "x-decimals" in value) quantities.push(value);
      return value;
    });
    // ProductComponent.quantity, AdjustmentCreate.quantity, StockBatchAdjust.quantity, StockSet and StockBatchSet on_hand.
    expect(quantities.length).toBe(5);
    const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    for (const schema of quantities) {
      const validate = ajv.compile(schema);
      for (const quantity of [0.043, 0.051, 0.059, 0.5]) expect(validate(quantity)).toBe(true);
    }
  });
});

describe("Spec, Errors: error bodies validate against components.schemas.ErrorEnvelope", () => {
  const CASES: { what: string; method: string; path: string; status: number; options?: Parameters<typeof call>[3] }[] =
    [
      { what: "400 with fields (limit=0)", method: "GET", path: "/demo/v1/outlets?limit=0", status: 400 },
      { what: "400 unreadable cursor", method: "GET", path: "/demo/v1/taxes?cursor=garbage", status: 400 },
      { what: "404 unknown path", method: "GET", path: "/demo/v1/nope", status: 404 },
      { what: "404 wrong method", method: "POST", path: "/demo/v1/me", status: 404 },
      { what: "401 no credential", method: "GET", path: "/demo/v1/me", status: 401, options: { auth: null } },
    ];

  for (const c of CASES) {
    it(`${c.what}`, async () => {
      const sim = makeSim();
      const doc = await fetchDoc(sim);
      expect(doc.components?.schemas?.ErrorEnvelope).toBeDefined();
      const reply = await call(sim, c.method, c.path, c.options);
      expect(reply.status).toBe(c.status);
      expectValid(doc, "/components/schemas/ErrorEnvelope", reply, c.what);
    });
  }

  it("the document's 400 response of each list is the ErrorEnvelope, with VALIDATION_FAILED its only code", async () => {
    const sim = makeSim();
    const doc = await fetchDoc(sim);
    for (const path of ["/outlets", "/payment-types", "/taxes"]) {
      const response = doc.paths[path].get.responses["400"];
      expect(response.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/ErrorEnvelope" });
      expect(response["x-error-codes"]).toEqual(["VALIDATION_FAILED"]);
    }
  });
});
