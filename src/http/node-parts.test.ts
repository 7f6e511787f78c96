// The node:http adapter sends an answer assembled from cached rows (a list page, a product) as the rows'
// own bytes: the bytes on the wire are those of the same answer in process (`sim.fetch`), Content-Length
// is their length in bytes (UTF-8, non-ASCII names included), and they are what JSON.stringify writes for
// the document (docs/performance.md, Reads and pages).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../simulator.js";
import { call, makeSim } from "../test-support/sim.js";
import { RawJson } from "../kernel/raw-json.js";
import type { Listening } from "./node.js";
import { bodyParts, bodySource, jsonResponse } from "./respond.js";

let sim: Simulator;
let server: Listening;

beforeAll(async () => {
  sim = makeSim();
  // Enough products for a page well over the size below which an answer is one string rather than parts.
  for (let i = 0; i < 60; i++) {
    const made = await call(sim, "POST", "/demo/v1/products", {
      body: { name: `Café ☕ 雪 ${i} \u{1F600} “quoted”`, retail_price: 100 + i },
    });
    expect(made.status).toBe(201);
  }
  server = await sim.listen(0, "127.0.0.1");
});
afterAll(() => sim.close());

async function both(path: string): Promise<{ wire: Response; wireBytes: Buffer; local: Buffer }> {
  const headers = { authorization: `Bearer ${sim.token("demo", "full")}` };
  const wire = await fetch(`${server.url}${path}`, { headers });
  const wireBytes = Buffer.from(await wire.arrayBuffer());
  const local = Buffer.from(await (await sim.fetch(`${server.url}${path}`, { headers })).arrayBuffer());
  return { wire, wireBytes, local };
}

describe("node:http adapter: answers made of cached rows go out as the same bytes as in process", () => {
  it.each([
    ["a page of 100 products (large: sent part by part)", "/demo/v1/products?limit=100"],
    ["a page of 200 products with tombstones allowed", "/demo/v1/products?limit=200&include_deleted=true"],
    ["a page of 3 products (small: one string)", "/demo/v1/products?limit=3"],
    ["a page of sales", "/demo/v1/sales?limit=200"],
  ])("%s", async (_name, path) => {
    const { wire, wireBytes, local } = await both(path);
    expect(wire.status).toBe(200);
    expect(wire.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(wire.headers.get("transfer-encoding")).toBeNull();
    expect(Number(wire.headers.get("content-length"))).toBe(wireBytes.length);
    expect(wireBytes.equals(local)).toBe(true);
    const text = wireBytes.toString("utf8");
    expect(JSON.stringify(JSON.parse(text))).toBe(text);
  });

  it("a product read by id, and the page that holds it, carry the product's same bytes", async () => {
    const page = await both("/demo/v1/products?limit=100");
    const last = (JSON.parse(page.wireBytes.toString("utf8")) as { data: { id: string; name: string }[] }).data.at(-1);
    expect(last?.name).toBe("Café ☕ 雪 59 \u{1F600} “quoted”");
    const one = await both(`/demo/v1/products/${last?.id}`);
    expect(one.wireBytes.equals(one.local)).toBe(true);
    expect(Number(one.wire.headers.get("content-length"))).toBe(one.wireBytes.length);
    const doc = JSON.stringify(JSON.parse(one.wireBytes.toString("utf8")).data);
    expect(page.wireBytes.toString("utf8")).toContain(doc);
  });

  it("one kept-alive connection carries several large pages in a row, each whole", async () => {
    const first = await both("/demo/v1/products?limit=100");
    for (let i = 0; i < 5; i++) {
      const again = await both("/demo/v1/products?limit=100");
      expect(again.wireBytes.equals(first.wireBytes)).toBe(true);
    }
  });

  it("an answer's parts are its body's bytes; once its body is replaced, or it is copied, the body is what is sent", () => {
    const long = "é".repeat(20_000);
    const answer = jsonResponse(200, { data: [new RawJson(`{"id":"${long}"}`)], next_cursor: null, has_more: false });
    const text = `{"data":[{"id":"${long}"}],"next_cursor":null,"has_more":false}`;
    const held = bodyParts(answer);
    expect(Buffer.concat(held?.parts ?? []).toString("utf8")).toBe(text);
    expect(held?.length).toBe(Buffer.byteLength(text));
    expect(answer.body).toBe(text);
    expect(bodyParts({ ...answer })).toBeUndefined();
    expect({ ...answer }.body).toBe(text);
    answer.body = '{"error":{"code":"NOT_FOUND","message":"Not found."}}';
    expect(bodyParts(answer)).toBeUndefined();
    expect(answer.body).toBe('{"error":{"code":"NOT_FOUND","message":"Not found."}}');
    expect(bodyParts(jsonResponse(200, { data: { id: "x" } }))).toBeUndefined();
    // A small answer of cached rows (a product) is one string, sent in one write with the headers.
    const small = jsonResponse(200, { data: new RawJson('{"id":"é"}') });
    expect(bodyParts(small)).toBeUndefined();
    expect(small.body).toBe('{"data":{"id":"é"}}');
  });

  it("a small answer of cached rows is sent as one string, and still names the cached bytes it was joined from until it is copied or its body replaced", () => {
    const row = new RawJson('{"id":"é"}');
    const small = jsonResponse(200, { data: row });
    const source = bodySource(small);
    expect(Buffer.concat(source?.parts ?? []).toString("utf8")).toBe('{"data":{"id":"é"}}');
    expect(source?.length).toBe(Buffer.byteLength('{"data":{"id":"é"}}'));
    // The row's own bytes, not a copy.
    expect(source?.parts[1]?.buffer).toBe(row.listed.buffer);
    expect(bodySource({ ...small })).toBeUndefined();
    small.body = "{}";
    expect(bodySource(small)).toBeUndefined();
    // An answer made otherwise has none; a large one's are its parts.
    expect(bodySource(jsonResponse(200, { data: { id: "x" } }))).toBeUndefined();
    const large = jsonResponse(200, { data: [new RawJson(`{"id":"${"x".repeat(20_000)}"}`)] });
    expect(bodySource(large)).toBe(bodyParts(large));
  });
});
