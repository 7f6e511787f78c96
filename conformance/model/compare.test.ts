import { describe, expect, it } from "vitest";
import { PROJECTION, type OperationProjection } from "../../src/contract/projection.js";
import { comparePayload, type CompareContext } from "./compare.js";
import { Opaque, Rows } from "./memory.js";
import { translate } from "./translate.js";

// The projection at work on single answers: what the spec fixes is compared, what it leaves open is
// held or free, and opaque values go through their pairing (conformance/model/compare.ts).

const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";
const T = "33333333-3333-4333-8333-333333333333";

function context(
  projection: OperationProjection = { spec: { section: "s", quote: "q" } },
  extra: Partial<CompareContext> = {},
): CompareContext {
  return {
    projection,
    opaque: new Opaque(),
    rows: new Rows(),
    toleranceMs: 2000,
    roots: ["http://model.invalid", "https://api.example.com/stg"],
    isWalkIn: () => false,
    ...extra,
  };
}

const kinds = (ctx: CompareContext, m: unknown, t: unknown) =>
  comparePayload(ctx, m, t).map((d) => `${d.path} ${d.kind}`);

describe("Comparing a payload with the model's (spec, Resources and their fields)", () => {
  it("an id is paired with the model's the first time, and must stay that row's", () => {
    const ctx = context();
    expect(kinds(ctx, { id: A, name: "x" }, { id: T, name: "x" })).toEqual([]);
    expect(kinds(ctx, { id: A, brand_id: A }, { id: T, brand_id: T })).toEqual([]);
    // Another row of the target named by the id the model gave A: two rows, one id.
    expect(kinds(ctx, { id: B }, { id: T })).toEqual(["data.id id"]);
  });

  it("values the spec fixes are equal; a missing field is a difference, an extra one is not", () => {
    const ctx = context();
    expect(
      kinds(ctx, { id: A, retail_price: 500, active: true }, { id: A, retail_price: 500, active: true, x: 1 }),
    ).toEqual([]);
    expect(kinds(ctx, { id: A, retail_price: 500 }, { id: A, retail_price: 499 })).toEqual(["data.retail_price exact"]);
    expect(kinds(ctx, { id: A, description: null }, { id: A })).toEqual(["data.description missing"]);
  });

  it("a date-time is the same instant within the tolerance, whatever its precision", () => {
    const ctx = context();
    expect(kinds(ctx, { at: "2026-01-01T00:00:00.000Z" }, { at: "2026-01-01T00:00:01Z" })).toEqual([]);
    expect(kinds(ctx, { at: "2026-01-01T00:00:00.000Z" }, { at: "2026-01-01T05:00:00Z" })).toEqual(["data.at instant"]);
  });

  it("version: new exactly when the model's is new, never one the row had before; a write may renew it", () => {
    const ctx = context();
    const seen = (mv: string, tv: string, written?: string) =>
      kinds({ ...ctx, ...(written ? { written } : {}) }, { id: A, version: mv }, { id: T, version: tv });
    expect(seen("1", "v1")).toEqual([]);
    expect(seen("1", "v1")).toEqual([]);
    expect(seen("2", "v2")).toEqual([]);
    expect(seen("2", "v3")).toEqual(["data.version version"]);
    expect(seen("3", "v3")).toEqual(["data.version version"]);
    expect(seen("4", "v1")).toEqual(["data.version version"]);
    // A write that changes nothing may still give a new version (docs/spec-choices.md).
    expect(seen("4", "v9", T)).toEqual([]);
  });

  it("a choice the spec leaves open is learnt when first seen and then held", () => {
    const ctx = context(PROJECTION.listOutlets);
    expect(kinds(ctx, [{ id: A, status: "active" }], [{ id: T, status: "open" }])).toEqual([]);
    expect(kinds(ctx, [{ id: A, status: "active" }], [{ id: T, status: "open" }])).toEqual([]);
    expect(kinds(ctx, [{ id: A, status: "active" }], [{ id: T, status: "closed" }])).toEqual(["data[0].status choice"]);
  });

  it("collections are matched by identity, not by order (Product write rules 3)", () => {
    const ctx = context(PROJECTION.getProduct);
    const codes = [
      { id: A, type: "ean", code: "1" },
      { id: B, type: "upc", code: "2" },
    ];
    expect(kinds(ctx, { id: T, codes }, { id: T, codes: [...codes].reverse() })).toEqual([]);
    expect(kinds(ctx, { id: T, codes }, { id: T, codes: codes.slice(0, 1) })).toEqual([
      "data.codes count",
      "data.codes[1] missing",
    ]);
  });

  it("a batch line may leave replayed out when false, give null for changed, and echo a SKU in another case", () => {
    const ctx = context(PROJECTION.stockBatch);
    const line = {
      product_id: A,
      outlet_id: B,
      changed: true,
      previous: 0,
      on_hand: 2,
      delta: 2,
      replayed: false,
      sku: "Mug-1",
    };
    expect(kinds(ctx, [line], [{ ...line, replayed: undefined, changed: null, sku: "MUG-1" }])).toEqual([]);
    expect(kinds(ctx, [line], [{ ...line, replayed: true }])).toEqual(["data[0].replayed exact"]);
  });

  it("URLs the model writes under its own root are compared under the target's", () => {
    const ctx = context();
    expect(kinds(ctx, { u: "http://model.invalid/demo/v1" }, { u: "https://api.example.com/stg/demo/v1" })).toEqual([]);
  });
});

describe("A request as the model is sent it", () => {
  const root = "https://api.example.com/stg";
  it("the target's opaque values become the model's; bytes are kept where nothing is replaced", () => {
    const opaque = new Opaque();
    opaque.pair(A, T);
    const rows = new Rows();
    rows.version(T, "7", "v7", false);
    const raw = `{"name": "x",  "tags": [{"id": "${B}"}]}`;
    const kept = translate(
      { method: "POST", url: `${root}/demo/v1/products`, headers: {}, body: raw },
      root,
      opaque,
      rows,
    );
    expect(kept?.request.body).toBe(raw);
    const mapped = translate(
      {
        method: "PATCH",
        url: `${root}/demo/v1/products/${T}?x=${T}`,
        headers: { authorization: "Bearer tok" },
        body: `{"version":"v7","brand_id":"${T}"}`,
      },
      root,
      opaque,
      rows,
    );
    expect(mapped?.request.path).toBe(`/demo/v1/products/${A}`);
    expect(mapped?.request.query).toBe(`x=${A}`);
    expect(JSON.parse(mapped?.request.body ?? "")).toEqual({ version: "7", brand_id: A });
    expect(mapped?.ids).toEqual([T]);
  });

  it("fields the target adds to a row are left out of a read document sent back", () => {
    const body = JSON.stringify({ name: "x", tags: [{ id: A, version: "3" }], x_internal: 1 });
    const mapped = translate(
      { method: "PATCH", url: `${root}/demo/v1/products/${A}`, headers: {}, body },
      root,
      new Opaque(),
      new Rows(),
      new Set(["tags[].version", "x_internal"]),
    );
    expect(JSON.parse(mapped?.request.body ?? "")).toEqual({ name: "x", tags: [{ id: A }] });
  });
});
