import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { OPERATIONS } from "./operations/index.js";
import { acceptsEmptyObject, validatorFor } from "./validate.js";

// Spec, Errors: a request's query is validated against its operation's schema (400 VALIDATION_FAILED).
// A request without a query string is checked without compiling the schema when its keywords show that
// `{}` passes; these tests hold that reading to what the compiled validator answers.

describe("acceptsEmptyObject: an empty query read from the schema's keywords", () => {
  it("agrees with the compiled validator on `{}` for every operation's query schema", () => {
    const schemas = OPERATIONS.map((op) => op.query);
    let shortcut = 0;
    for (const schema of schemas) {
      const errors = validatorFor(schema, "query")(Object.create(null));
      if (acceptsEmptyObject(schema)) {
        shortcut += 1;
        expect(errors).toEqual([]);
      }
    }
    // GET /me and every list page: most operations take it.
    expect(shortcut).toBeGreaterThan(schemas.length / 2);
  });

  it("answers false for a schema whose keywords could refuse `{}`, and the validator then does refuse it", () => {
    const refusing = [
      Type.Object({ limit: Type.Integer() }),
      Type.Object({}, { minProperties: 1 }),
      Type.Union([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]),
      Type.Object({ a: Type.Optional(Type.String()) }, { not: Type.Object({}) }),
    ];
    for (const schema of refusing) {
      expect(acceptsEmptyObject(schema)).toBe(false);
      expect(validatorFor(schema, "query")({}).length).toBeGreaterThan(0);
    }
  });

  it("answers false for anything but an object schema, even one that accepts `{}`", () => {
    expect(acceptsEmptyObject(Type.Any())).toBe(false);
    expect(acceptsEmptyObject(Type.Unknown())).toBe(false);
  });
});
