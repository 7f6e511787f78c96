import { describe, expect, it } from "vitest";
import { checkResponse, ResponseChecker } from "./response-check.js";

// The response check behind the test harness hook (SimulatorOptions.onExchange,
// src/test-support/response-validation.ts): it must fail what the document does not describe.

const json = "application/json; charset=utf-8";

describe("docs/architecture.md, The response checker: responses are judged against the served OpenAPI document", () => {
  it("accepts a described response", () => {
    const body = JSON.stringify({ data: [], next_cursor: null, has_more: false });
    expect(checkResponse({ method: "GET", path: "/demo/v1/outlets", status: 200, contentType: json, body })).toEqual(
      [],
    );
  });

  it("refuses a status the document does not give for the operation", () => {
    expect(
      checkResponse({ method: "GET", path: "/demo/v1/outlets", status: 418, contentType: json, body: "{}" }),
    ).toEqual(["GET /outlets answered 418, a status the document does not give for this operation"]);
  });

  it("refuses a body that breaks the schema: a missing field, and an error code the operation cannot answer", () => {
    const missing = JSON.stringify({ data: [] });
    expect(
      checkResponse({ method: "GET", path: "/demo/v1/outlets", status: 200, contentType: json, body: missing })[0],
    ).toMatch(/^GET \/outlets answered 200: \(body\) must have required property 'next_cursor'/);
    const wrongCode = JSON.stringify({ error: { code: "STALE_VERSION", message: "x" } });
    expect(
      checkResponse({ method: "GET", path: "/demo/v1/outlets", status: 409, contentType: json, body: wrongCode }),
    ).toEqual(["GET /outlets answered 409, a status the document does not give for this operation"]);
    const notThisCode = JSON.stringify({ error: { code: "CONFLICT", message: "x" } });
    expect(
      checkResponse({
        method: "PATCH",
        path: "/demo/v1/products/00000000-0000-4000-8000-000000000000",
        status: 409,
        contentType: json,
        body: notThisCode,
      }),
    ).toEqual([]);
    const staleOnDelete = JSON.stringify({ error: { code: "STALE_VERSION", message: "x" } });
    expect(
      checkResponse({
        method: "DELETE",
        path: "/demo/v1/products/00000000-0000-4000-8000-000000000000",
        status: 409,
        contentType: json,
        body: staleOnDelete,
      }),
    ).toEqual(["DELETE /products/{id} answered 409 with code STALE_VERSION, not one of CONFLICT"]);
  });

  it("judges the token endpoint in the OAuth shape, and leaves unknown paths alone", () => {
    expect(
      checkResponse({
        method: "POST",
        path: "/oauth/token",
        status: 400,
        contentType: json,
        body: JSON.stringify({ error: "invalid_grant", error_description: "x" }),
      }),
    ).toEqual([]);
    expect(
      checkResponse({
        method: "POST",
        path: "/oauth/token",
        status: 400,
        contentType: json,
        body: JSON.stringify({ error: { code: "VALIDATION_FAILED", message: "x" } }),
      }).length,
    ).toBeGreaterThan(0);
    expect(checkResponse({ method: "GET", path: "/demo/v1/nope", status: 404, contentType: json, body: "{}" })).toEqual(
      [],
    );
  });

  it("a checker owns its document and validators; each finds the operation by the contract's route lookup", () => {
    const checker = new ResponseChecker();
    const wrong = { method: "GET", path: "/de%6Do/v1/outlets", status: 418, contentType: json, body: "{}" };
    expect(checker.check(wrong)).toEqual(checkResponse(wrong));
    expect(checker.check(wrong)).toEqual([
      "GET /outlets answered 418, a status the document does not give for this operation",
    ]);
    expect(checker.check({ ...wrong, path: "/_sim/health" })).toEqual([]);
  });
});
