import { describe, expect, it } from "vitest";
import { call, makeSim } from "../test-support/sim.js";

// Spec, Errors: `{"error": {code, message, fields?}}`. An answer lists at most the `fieldErrors` cap
// of field errors, then one entry `{field: <body or query>, message: "N more field errors were left
// out"}` (docs/spec-choices.md, Requests); the message names the listed fields only.

/** `n` unknown properties beside a valid product create, as raw JSON. */
function manyUnknown(n: number): string {
  const parts = ['"name":"x"', '"retail_price":100'];
  for (let i = 0; i < n; i++) parts.push(`"${i.toString(36).padStart(4, "0")}":1`);
  return `{${parts.join(",")}}`;
}

describe("Spec, Errors: a bounded error answer", () => {
  it("100,000 unknown properties (900 KB) answer 400 with 100 field errors and one counting the rest", async () => {
    const sim = makeSim();
    const raw = manyUnknown(100_000);
    expect(raw.length).toBeLessThan(1024 * 1024);
    const res = await call(sim, "POST", "/demo/v1/products", { raw, headers: { "idempotency-key": "huge-1" } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_FAILED");
    expect(res.json.error.fields).toHaveLength(101);
    expect(res.json.error.fields[0]).toEqual({ field: "1000", message: "is not a known property" });
    expect(res.json.error.fields[100]).toEqual({ field: "body", message: "99900 more field errors were left out" });
    expect(res.json.error.message.endsWith("; body 99900 more field errors were left out.")).toBe(true);
    // The answer, and the idempotency record that keeps it, are about 8 KB, not 8 MB.
    expect(res.text.length).toBeLessThan(12_000);
    const again = await call(sim, "POST", "/demo/v1/products", { raw, headers: { "idempotency-key": "huge-1" } });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(res.text);
  });

  it("the cap is configurable: fieldErrors 3 lists 3 and counts the rest", async () => {
    const sim = makeSim({ caps: { fieldErrors: 3 } });
    const res = await call(sim, "POST", "/demo/v1/products", { raw: manyUnknown(10) });
    expect(res.status).toBe(400);
    expect(res.json.error.fields).toEqual([
      { field: "0000", message: "is not a known property" },
      { field: "0001", message: "is not a known property" },
      { field: "0002", message: "is not a known property" },
      { field: "body", message: "7 more field errors were left out" },
    ]);
    expect(res.json.error.message).toBe(
      "Invalid request: 0000 is not a known property; 0001 is not a known property; 0002 is not a known property; body 7 more field errors were left out.",
    );
  });

  it("an answer within the cap lists every field error and no extra entry", async () => {
    const sim = makeSim({ caps: { fieldErrors: 3 } });
    const res = await call(sim, "POST", "/demo/v1/products", { raw: manyUnknown(3) });
    expect(res.json.error.fields).toHaveLength(3);
    expect(res.json.error.fields.map((f: { field: string }) => f.field)).toEqual(["0000", "0001", "0002"]);
  });

  it("a __proto__ key past the cap is counted, and pollutes nothing", async () => {
    const sim = makeSim({ caps: { fieldErrors: 1 } });
    const raw = '{"name":"x","retail_price":1,"a":1,"__proto__":{"polluted":true},"b":2}';
    const res = await call(sim, "POST", "/demo/v1/products", { raw });
    expect(res.status).toBe(400);
    expect(res.json.error.fields).toEqual([
      { field: "a", message: "is not a known property" },
      { field: "body", message: "2 more field errors were left out" },
    ]);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("query errors are bounded too: duplicated and unknown parameters together", async () => {
    const sim = makeSim({ caps: { fieldErrors: 4 } });
    const params = [
      "limit=1",
      "limit=2",
      ...Array.from({ length: 300 }, (_, i) => `p${i}=1`),
      "include_deleted=1",
      "include_deleted=2",
    ];
    const res = await call(sim, "GET", `/demo/v1/products?${params.join("&")}`);
    expect(res.status).toBe(400);
    expect(res.json.error.fields).toEqual([
      { field: "limit", message: "must be given once" },
      { field: "include_deleted", message: "must be given once" },
      { field: "p0", message: "is not a known property" },
      { field: "p1", message: "is not a known property" },
      // 298 more unknown parameters and include_deleted's first value, which is not a boolean.
      { field: "query", message: "299 more field errors were left out" },
    ]);
  });

  // docs/spec-choices.md, Requests (a query parameter given twice): `npm run fuzz` found include_deleted, which
  // GET /sales does not know, named twice (given twice, and unknown).
  it.each([
    ["/demo/v1/sales?include_deleted=false&include_deleted=false", "include_deleted", "is not a known property"],
    ["/demo/v1/products?colour=red&colour=blue&colour=x", "colour", "is not a known property"],
    ["/demo/v1/products?limit=abc&limit=1", "limit", "must be given once"],
    ["/demo/v1/sales?status=paid&status=open", "status", "must be given once"],
  ])("a repeated query parameter is named once: %s", async (path, field, message) => {
    const res = await call(makeSim(), "GET", path);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_FAILED");
    expect(res.json.error.fields).toEqual([{ field, message }]);
  });
});
