// docs/sdk-authors.md, Examples: every operation of the OpenAPI documents carries examples drawn from the demo
// fixture, they validate against their own schemas, the simulator answers each example request as documented on
// a fresh demo store, and the committed examples are exactly what the generator makes afresh.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  documentedExample,
  documentOperations,
  exampleProblems,
  missingExamples,
} from "../test-support/openapi-example-checks.js";
import {
  EXAMPLE_OPERATIONS,
  EXAMPLE_ORIGIN,
  EXAMPLE_SERVER,
  EXAMPLES_FILE,
  exampleSimulator,
  generateExamples,
  prepareExample,
  sendExample,
  serializeExamples,
} from "../test-support/openapi-examples.js";
import { withResponseCheck } from "../test-support/response-validation.js";
import { OPENAPI_EXAMPLES } from "./openapi-examples.js";
import { OAUTH_DOCUMENT_PATH } from "./openapi.js";
import { OPERATIONS_BY_ID } from "./operations/index.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The documents as the simulator serves them: the store's, and the OAuth token endpoint's. */
async function servedDocuments(): Promise<any[]> {
  const sim = exampleSimulator();
  const auth = { authorization: `Bearer ${sim.token("demo", "full")}` };
  const docs = [];
  for (const url of [`${EXAMPLE_SERVER}/openapi.json`, `${EXAMPLE_ORIGIN}${OAUTH_DOCUMENT_PATH}`]) {
    const res = await sim.fetch(url, { headers: auth });
    expect(res.status, url).toBe(200);
    docs.push(await res.json());
  }
  return docs;
}

const DOCS = await servedDocuments();
const OPERATIONS = DOCS.flatMap((doc) => documentOperations(doc).map((o) => ({ doc, ...o })));
const byId = (id: string) => OPERATIONS.find((o) => o.operation.operationId === id)!;

describe("docs/sdk-authors.md, Examples: every operation carries examples", () => {
  it("the documents describe exactly the operations that have examples", () => {
    expect(OPERATIONS.map((o) => o.operation.operationId).sort()).toEqual(EXAMPLE_OPERATIONS.map((o) => o.id).sort());
  });

  for (const op of EXAMPLE_OPERATIONS) {
    it(`${op.id}: every path parameter, the Idempotency-Key, the request body, the success answer and an error`, () => {
      const { doc, operation } = byId(op.id);
      const declared = OPERATIONS_BY_ID.get(op.id);
      const successBody = declared === undefined || (declared.kind !== "empty" && declared.kind !== "document");
      expect(missingExamples(doc, operation, { successBody })).toEqual([]);
    });
  }

  it("the check names what an operation lacks", () => {
    const doc = structuredClone(DOCS[0]);
    const operation = doc.paths["/products/{id}"].patch;
    operation.parameters = operation.parameters.map(({ example: _gone, ...p }: any) => p);
    delete operation.requestBody.content["application/json"].examples;
    for (const response of Object.values(operation.responses) as any[])
      for (const media of Object.values(response.content ?? {}) as any[]) delete media.examples;
    expect(missingExamples(doc, operation, { successBody: true })).toEqual([
      "parameter id",
      "request body",
      "success response",
      "error response",
    ]);
  });
});

describe("docs/sdk-authors.md, Examples: each example validates against its schema", () => {
  it("every parameter, request body and response example of the served documents matches its schema", () => {
    for (const doc of DOCS) expect(exampleProblems(doc)).toEqual([]);
  });

  it("the check refuses a wrong example, naming where it is", () => {
    const doc = structuredClone(DOCS[0]);
    const get = doc.paths["/products/{id}"].get;
    get.parameters[0].example = "TOTE-CANVAS";
    const success = get.responses["200"].content["application/json"].examples;
    const name = Object.keys(success)[0] as string;
    success[name].value = { data: { ...success[name].value.data, retail_price: "34.00" } };
    const problems = exampleProblems(doc);
    expect(problems).toEqual([
      expect.stringMatching(/^GET \/products\/\{id\} parameter id example: \(value\) must match format "uuid"/),
      expect.stringMatching(
        new RegExp(
          `^GET /products/\\{id\\} response 200 application/json examples\\.${name}: /data/retail_price must be integer`,
        ),
      ),
    ]);
  });
});

describe("docs/sdk-authors.md, Examples: the simulator answers each example request as documented", () => {
  for (const op of EXAMPLE_OPERATIONS) {
    it(`${op.id}: on a fresh demo store, ${op.method} ${op.path} from the document's examples answers ${op.successStatus} and the documented body`, async () => {
      const { doc, operation } = byId(op.id);
      const documented = documentedExample(doc, operation);
      expect(documented.status).toBe(op.successStatus);
      const sim = exampleSimulator(withResponseCheck());
      prepareExample(sim, op.id);
      const got = await sendExample(sim, op, documented.request);
      expect(got.status, JSON.stringify(got.body)).toBe(documented.status);
      if (documented.body !== undefined) expect(got.body).toEqual(documented.body);
    });
  }

  it("the example requests also succeed one after another on one demo store, in the documents' order (as a contract tool runs them)", async () => {
    const sim = exampleSimulator(withResponseCheck());
    const answered: string[] = [];
    for (const { doc, path, method, operation } of OPERATIONS) {
      const documented = documentedExample(doc, operation);
      prepareExample(sim, operation.operationId);
      const got = await sendExample(sim, { method: method.toUpperCase(), path }, documented.request);
      answered.push(`${operation.operationId} ${got.status}`);
    }
    expect(answered).toEqual(
      OPERATIONS.map((o) => `${o.operation.operationId} ${documentedExample(o.doc, o.operation).status}`),
    );
  });

  it("an example request that no longer fits the demo store is caught: an update at an outdated version answers 409", async () => {
    const { doc, operation } = byId("updateProduct");
    const documented = documentedExample(doc, operation);
    const stale = { ...documented.request, body: { ...(documented.request.body as object), version: "1" } };
    const got = await sendExample(exampleSimulator(withResponseCheck()), OPERATIONS_BY_ID.get("updateProduct")!, stale);
    expect(got.status).toBe(409);
    expect(got.status).not.toBe(documented.status);
  });
});

describe("docs/sdk-authors.md, Examples: a sandbox's demo store serves examples that work on it", () => {
  it("every example request of demo-sb1's own document answers its documented status on a fresh sandbox (its cursors name demo-sb1's lists)", async () => {
    const sim = exampleSimulator();
    const sb = sim.sandbox();
    const prefix = `demo-${sb.id}`;
    const auth = { authorization: `Bearer ${sb.token(prefix, "full")}` };
    const doc = await (await sim.fetch(`${EXAMPLE_ORIGIN}/${prefix}/v1/openapi.json`, { headers: auth })).json();
    const answered: string[] = [];
    const expected: string[] = [];
    for (const { path, method, operation } of documentOperations(doc)) {
      const { request, status } = documentedExample(doc, operation);
      sb.reset();
      const filled = path.replace(/\{(\w+)\}/g, (_whole, name: string) => String(request.path?.[name]));
      const query = new URLSearchParams(
        Object.entries(request.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
      );
      const url = `${EXAMPLE_ORIGIN}/${prefix}/v1${filled}${query.size > 0 ? `?${query}` : ""}`;
      const headers = { ...auth, ...request.header, "content-type": "application/json" };
      const body = request.body === undefined ? undefined : JSON.stringify(request.body);
      const res = await sim.fetch(url, { method: method.toUpperCase(), headers, body });
      answered.push(`${operation.operationId} ${res.status}`);
      expected.push(`${operation.operationId} ${status}`);
    }
    expect(answered).toEqual(expected);
    expect(answered).toHaveLength(46);
  });
});

describe("docs/interfaces.md, --public-url: the examples name the API root of the document that shows them", () => {
  it("served at another origin, image URLs and the token's api_base_url name that origin, never the one they were generated on", async () => {
    const sim = exampleSimulator({ publicUrl: "https://retail.example" });
    const auth = { authorization: `Bearer ${sim.token("demo", "full")}` };
    const main = await (await sim.fetch("http://sim.test/demo/v1/openapi.json", { headers: auth })).text();
    const oauth = await (await sim.fetch(`http://sim.test${OAUTH_DOCUMENT_PATH}`)).text();
    expect(main).toMatch(/"image_url":"https:\/\/retail\.example\/images\/[0-9a-f-]{36}\/original\.png"/);
    expect(oauth).toContain('"api_base_url":"https://retail.example/demo/v1"');
    expect(`${main}${oauth}`).not.toContain(EXAMPLE_ORIGIN);
    expect(exampleProblems(JSON.parse(main))).toEqual([]);
  });
});

describe("docs/sdk-authors.md, Examples: the committed examples are generated, not edited (npm run openapi:examples)", () => {
  it(`${EXAMPLES_FILE} equals a fresh generation from the demo fixture, byte for byte`, async () => {
    const committed = readFileSync(join(ROOT, EXAMPLES_FILE), "utf8");
    expect(committed).toBe(serializeExamples(await generateExamples()));
  }, 60_000);

  it("they cover every operation and the token endpoint, on the default API root's demo store", () => {
    expect(Object.keys(OPENAPI_EXAMPLES.operations).sort()).toEqual(EXAMPLE_OPERATIONS.map((o) => o.id).sort());
    expect(OPENAPI_EXAMPLES.server).toBe(`${EXAMPLE_ORIGIN}/demo/v1`);
    expect(DOCS[0].servers[0].url).toBe(OPENAPI_EXAMPLES.server);
  });
});
