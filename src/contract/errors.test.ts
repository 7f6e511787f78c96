import { describe, expect, it } from "vitest";
import { ERROR_CODES, ERROR_STATUS } from "./errors.js";
import { grants, normalizeScopes, SCOPES } from "./scopes.js";

// Transcribed from the spec's Errors table, row by row, so a change to the catalog must match the spec.
const SPEC_ERRORS_TABLE: [string, number][] = [
  ["UNAUTHORIZED", 401],
  ["INSUFFICIENT_SCOPE", 403],
  ["PLAN_REQUIRED", 402],
  ["PLAN_USERS_EXCEEDED", 402],
  ["PRODUCT_LIMIT_REACHED", 402],
  ["RETAILER_PAUSED", 402],
  ["TRIAL_DECISION_REQUIRED", 402],
  ["RETAILER_CANCELLED", 403],
  ["RETAILER_SUSPENDED", 403],
  ["RETAILER_NOT_FOUND", 403],
  ["VALIDATION_FAILED", 400],
  ["NOT_FOUND", 404],
  ["CONFLICT", 409],
  ["STALE_VERSION", 409],
  ["IDEMPOTENCY_IN_PROGRESS", 409],
  ["IDEMPOTENCY_KEY_REUSED", 422],
  ["UNPROCESSABLE", 422],
  ["NOT_STOCK_TRACKED", 422],
  ["REASON_DIRECTION_MISMATCH", 422],
  ["INSUFFICIENT_STOCK", 422],
  ["REASON_NOT_ALLOWED", 422],
  ["OUTLET_DELETED", 422],
  ["IMAGE_FETCH_FAILED", 422],
  ["RATE_LIMITED", 429],
  ["INTERNAL", 500],
];

describe("Spec, Errors: the error catalog", () => {
  it.each(SPEC_ERRORS_TABLE)("%s answers %i", (code, status) => {
    expect(ERROR_STATUS[code as keyof typeof ERROR_STATUS]).toBe(status);
  });

  it("has exactly the spec's codes", () => {
    expect([...ERROR_CODES].sort()).toEqual(SPEC_ERRORS_TABLE.map(([c]) => c).sort());
  });
});

describe("Spec, Authentication: scopes", () => {
  it("has the seven scopes of the table and no sales:write", () => {
    expect([...SCOPES]).toEqual([
      "catalog:read",
      "catalog:write",
      "inventory:read",
      "inventory:write",
      "customers:read",
      "customers:write",
      "sales:read",
    ]);
  });

  it.each([
    ["catalog:read", "catalog:write"],
    ["inventory:read", "inventory:write"],
    ["customers:read", "customers:write"],
  ] as const)("Scopes: %s is satisfied by %s, never the other way round", (read, write) => {
    expect(grants([write], read)).toBe(true);
    expect(grants([read], write)).toBe(false);
    expect(grants([], read)).toBe(false);
  });

  it("Authentication 2: ticking a write scope also ticks its read scope", () => {
    expect(normalizeScopes(["customers:write", "catalog:write"])).toEqual([
      "catalog:read",
      "catalog:write",
      "customers:read",
      "customers:write",
    ]);
    expect(normalizeScopes(["sales:read"])).toEqual(["sales:read"]);
  });
});
