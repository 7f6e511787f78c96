// Fuzzing support: Every field of every body schema, for the exhaustive wrong-type check.
// Part of src/test-support/fuzz.ts (which re-exports every part).
import fc from "fast-check";
import type { Operation } from "../../contract/operation.js";
import { type Schema, WRONG_TYPED, acceptedTypes, fieldPaths, valueArb } from "./body-values.js";
import { type FuzzContext, jsonText, withAt } from "./requests.js";

// Every field of every body schema, for the exhaustive wrong-type check.

/** A field path with every array position written as `0`, so paths of different samples compare. */
const normalPath = (path: readonly (string | number)[]) => path.map((p) => (typeof p === "number" ? 0 : p)).join(".");

/**
 * For each operation with a body: valid-shaped bodies (some with every property present, some drawn
 * at random, from a fixed seed) and, for every field path they reach (top-level properties, present
 * or not, nested properties and array items), a value of each JSON type the field's schema does not
 * accept (`every`: each of the fuzzer's wrong values, several per type).
 */
export function wrongTypeCases(
  op: Operation,
  ctx: FuzzContext,
  samples = 40,
  every = false,
): { text: string; field: string; wrong: string }[] {
  const schema = op.body as Schema;
  const out = new Map<string, { text: string; field: string; wrong: string }>();
  const values = [
    ...fc.sample(valueArb(schema, ctx, 0, "", true), { numRuns: 4, seed: 7 }),
    ...fc.sample(valueArb(schema, ctx), { numRuns: samples, seed: 7 }),
  ];
  for (const value of values) {
    for (const { path, schema: sub } of fieldPaths(schema, value)) {
      const accepted = acceptedTypes(sub);
      for (const w of WRONG_TYPED) {
        if (accepted.has(w.type)) continue;
        const id = `${normalPath(path)} ${every ? jsonText(w.value) : w.type}`;
        if (!out.has(id))
          out.set(id, {
            text: jsonText(withAt(value, path, w.value)),
            field: path.join("."),
            wrong: jsonText(w.value),
          });
      }
    }
  }
  return [...out.values()];
}

/** Every property path of a schema (array items as `0`): what `wrongTypeCases` should reach. */
export function schemaPaths(schema: Schema, path: string[] = []): string[] {
  if (schema.anyOf) return [...new Set(schema.anyOf.flatMap((s) => schemaPaths(s, path)))];
  if (schema.type === "object")
    return Object.entries(schema.properties ?? {}).flatMap(([k, sub]) => [
      [...path, k].join("."),
      ...schemaPaths(sub, [...path, k]),
    ]);
  if (schema.type === "array" && schema.items)
    return [[...path, "0"].join("."), ...schemaPaths(schema.items, [...path, "0"])];
  return [];
}
