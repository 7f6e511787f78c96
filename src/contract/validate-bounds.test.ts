import { describe, expect, it } from "vitest";
import { boundFields, DEFAULT_MAX_FIELD_ERRORS, type FieldError, leftOut } from "./errors.js";
import { ProductCreate } from "./schemas/catalog.js";
import { BatchBody } from "./schemas/inventory.js";
import { validatorFor } from "./validate.js";

// Spec, Errors: `fields` lists field-specific problems. An answer lists at most a fixed number of them
// (the `fieldErrors` cap), then one entry in the same shape saying how many more were left out
// (docs/spec-choices.md, Requests).

/** A product body with `n` unknown properties (four-character keys, as a hostile client sends them). */
function unknownKeys(n: number): Record<string, unknown> {
  const body: Record<string, unknown> = { name: "x", retail_price: 100 };
  for (let i = 0; i < n; i++) body[`u${i.toString(36).padStart(4, "0")}`] = 1;
  return body;
}

/** How many field errors a bounded list stands for: the listed ones and the count of the last entry. */
function total(fields: readonly FieldError[]): number {
  const last = fields.at(-1);
  const more = last === undefined ? undefined : /^(\d+) more field errors? (?:was|were) left out$/.exec(last.message);
  return more ? fields.length - 1 + Number(more[1]) : fields.length;
}

describe("Spec, Errors: a bounded list of field errors", () => {
  it("100,000 unknown properties answer 100 field errors, then one entry counting the 99,900 left out", () => {
    const fields = validatorFor(ProductCreate)(unknownKeys(100_000));
    expect(DEFAULT_MAX_FIELD_ERRORS).toBe(100);
    expect(fields).toHaveLength(101);
    expect(fields[0]).toEqual({ field: "u0000", message: "is not a known property" });
    expect(fields[99]).toEqual({ field: "u002r", message: "is not a known property" });
    expect(fields[100]).toEqual({ field: "body", message: "99900 more field errors were left out" });
    // The entry is plain JSON in the envelope's shape: nothing else is serialized.
    expect(JSON.parse(JSON.stringify(fields[100]))).toEqual({
      field: "body",
      message: "99900 more field errors were left out",
    });
  });

  it("a list within the bound is complete and has no extra entry", () => {
    const fields = validatorFor(ProductCreate)(unknownKeys(3), 3);
    expect(fields).toEqual([
      { field: "u0000", message: "is not a known property" },
      { field: "u0001", message: "is not a known property" },
      { field: "u0002", message: "is not a known property" },
    ]);
  });

  it("one over the bound: the entry says 1 more field error", () => {
    const fields = validatorFor(ProductCreate)(unknownKeys(4), 3);
    expect(fields).toHaveLength(4);
    expect(fields[3]).toEqual({ field: "body", message: "1 more field error was left out" });
  });

  // Values with problems of every kind at several depths: the bounded list names fields of the full list
  // and counts exactly the ones it leaves out, whatever the bound.
  const mixed: [string, typeof ProductCreate | typeof BatchBody, unknown][] = [
    ["unknown keys and wrong types", ProductCreate, { ...unknownKeys(40), retail_price: "x", tags: [1, 2, { z: 1 }] }],
    ["a missing name and nested unknown keys", ProductCreate, { retail_price: 1, codes: [{ a: 1, b: 2 }, {}] }],
    [
      "batch lines with unknown keys in each line",
      BatchBody,
      { lines: Array.from({ length: 30 }, (_, i) => ({ [`x${i}`]: 1, [`y${i}`]: 2, outlet_id: 5 })) },
    ],
    ["too many lines of the wrong type", BatchBody, { lines: Array.from({ length: 150 }, () => 1) }],
    ["a line list of the wrong type beside unknown keys", BatchBody, { lines: "x", extra: 1, more: 2 }],
  ];
  it.each(mixed)("%s: every bound lists fields of the full list and counts the rest exactly", (_, schema, value) => {
    const validate = validatorFor(schema);
    const full = validate(value, 1_000_000);
    expect(full.length).toBeGreaterThan(2);
    for (const max of [1, 2, 5, 17, full.length - 1, full.length, full.length + 1]) {
      const bounded = validate(value, max);
      expect(bounded.length).toBe(Math.min(max, full.length) + (full.length > max ? 1 : 0));
      expect(total(bounded)).toBe(full.length);
      for (const f of bounded.slice(0, Math.min(max, full.length))) expect(full).toContainEqual(f);
    }
  });

  it("boundFields merges entries that already count left-out errors into one at the end", () => {
    const a = { field: "a", message: "must be given once" };
    const b = { field: "b", message: "is not a known property" };
    expect(boundFields([a, leftOut(7, "query"), b], 1, "query")).toEqual([
      a,
      { field: "query", message: "8 more field errors were left out" },
    ]);
    expect(boundFields([a, b], 2, "query")).toEqual([a, b]);
  });
});
