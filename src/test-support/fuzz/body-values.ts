// Fuzzing support: Values generated from each operation's body schema (TypeBox, i.e. JSON Schema), and
// the field paths and JSON types of those values.
// Part of src/test-support/fuzz.ts (which re-exports every part).
import fc from "fast-check";
import { type FuzzContext, type IdKind, RawJson } from "./requests.js";

/** The JSON Schema keywords the operation table's body schemas use (TypeBox output). */
export interface Schema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly anyOf?: readonly Schema[];
  readonly items?: Schema;
  readonly enum?: readonly unknown[];
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly decimals?: number;
}

/** Strings that have tripped servers: prototype names, markup, quotes, control and astral characters. */
export const NASTY_STRINGS = [
  "__proto__",
  "constructor",
  "prototype",
  "hasOwnProperty",
  "toString",
  "valueOf",
  "polluted",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "Ω≈ç√∫˜µ≤≥÷",
  "𝕿𝖍𝖊 🐈‍⬛",
  "\u202eevil",
  "a\u0000b",
  "\ud800",
  "${7*7}",
  "%s%n",
  "..",
  "null",
] as const;

function stringArb(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, 40);
  const base = fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: Math.max(min, max) }) },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    {
      weight: 1,
      arbitrary: fc.string({ unit: "grapheme", minLength: min, maxLength: Math.max(min, Math.min(max, 12)) }),
    },
  );
  // The schema's pattern as ajv reads it (unicode mode: `.` matches no line terminator such as U+2028).
  const pattern = s.pattern === undefined ? undefined : new RegExp(s.pattern, "u");
  return base.map((text) => {
    if (s.pattern === "^[0-9]+$") return String(text.length);
    const chars = [...text];
    let out = s.maxLength !== undefined && chars.length > s.maxLength ? chars.slice(0, s.maxLength).join("") : text;
    if (pattern !== undefined) {
      out = out.replace(/^\s+|\s+$/g, "");
      if (!pattern.test(out)) out = "";
    }
    return [...out].length >= min ? out : "X".repeat(Math.max(1, min));
  });
}

function numberArb(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const scale = integer ? 1 : 10 ** (s.decimals ?? 3);
  // Bounds in units of the smallest step (1, or 10^-decimals); exclusive bounds one step inside.
  const lo = Math.max(
    s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 / scale : -1_000_000),
    -1_000_000,
  );
  const hi = Math.min(
    s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 / scale : 1_000_000),
    1_000_000,
  );
  const bounds = [s.minimum, s.maximum].filter((n): n is number => n !== undefined);
  if (integer)
    return bounds.length === 0
      ? fc.integer({ min: lo, max: hi })
      : fc.oneof(
          { weight: 4, arbitrary: fc.integer({ min: lo, max: hi }) },
          { weight: 1, arbitrary: fc.constantFrom(...bounds) },
        );
  return fc.integer({ min: Math.round(lo * scale), max: Math.round(hi * scale) }).map((n) => n / scale);
}

/** The kind of id a property names (`reason_id`, or the `id` of an item of `tags`). */
const ID_HINTS: Readonly<Record<string, IdKind>> = {
  reason_id: "adjustment-reasons",
  outlet_id: "outlets",
  product_id: "products",
  variant_parent_id: "products",
  brand_id: "brands",
  category_id: "categories",
  parent_id: "categories",
  supplier_id: "suppliers",
  suppliers: "suppliers",
  tags: "tags",
  customer_group_id: "customer-groups",
};

/**
 * A value of `schema`, mostly valid in shape. Ids are usually of the kind the property names, sometimes
 * of another kind, another store or none, so references are often right and sometimes wrong. `hint` is
 * the name of the property the value is for.
 */
export function valueArb(schema: Schema, ctx: FuzzContext, depth = 0, hint = "", full = false): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => valueArb(s, ctx, depth, hint, full)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case "string":
      if (schema.format === "uuid") return uuidArb(ctx, ID_HINTS[hint]);
      if (hint === "sku" && schema.minLength !== undefined)
        return fc.oneof(
          fc.constantFrom(...ctx.skus),
          fc.constantFrom(...ctx.skus).map((s) => s.toLowerCase()),
          stringArb(schema),
        );
      if (schema.format === "date-time") return fc.constantFrom("2026-01-01T00:00:00Z", "2025-12-31T23:59:59.999Z");
      if (schema.format === "date") return fc.constantFrom("1990-02-03", "2000-02-29");
      if (schema.format === "email") return fc.constantFrom("fuzz@example.com", "a.b+c@example.org");
      return stringArb(schema);
    case "integer":
      return numberArb(schema, true);
    case "number":
      return numberArb(schema, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const min = schema.minItems ?? 0;
      const max = Math.min(schema.maxItems ?? 3, Math.max(min, depth > 1 ? 1 : 3));
      // `full`: every property present and every array holding an item, so that every field path is reached.
      return schema.items
        ? fc.array(valueArb(schema.items, ctx, depth + 1, hint, full), {
            minLength: full ? Math.max(1, min) : min,
            maxLength: Math.max(max, full ? 1 : 0),
          })
        : fc.constant([]);
    }
    case "object": {
      const props = schema.properties ?? {};
      const required = schema.required ?? [];
      const optional = Object.keys(props).filter((k) => !required.includes(k));
      return (full ? fc.constant(optional) : fc.subarray(optional, { maxLength: Math.min(3, optional.length) })).chain(
        (chosen) => {
          const keys = [...required, ...chosen];
          const model: Record<string, fc.Arbitrary<unknown>> = {};
          for (const k of keys) model[k] = valueArb(props[k] as Schema, ctx, depth + 1, k === "id" ? hint : k, full);
          return fc.record(model);
        },
      );
    }
    default:
      return fc.constant(null);
  }
}

function uuidArb(ctx: FuzzContext, kind: IdKind | undefined): fc.Arbitrary<string> {
  const all = fc.constantFrom(...Object.values(ctx.ids).flat());
  const others = [
    { weight: 3, arbitrary: all },
    { weight: 1, arbitrary: fc.constantFrom(...ctx.foreignIds) },
    { weight: 1, arbitrary: fc.uuid() },
  ];
  return kind ? fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...ctx.ids[kind]) }, ...others) : fc.oneof(...others);
}

/** The JSON types `schema` accepts ("integer" counts as a number that is whole). */
export function acceptedTypes(schema: Schema): Set<string> {
  if (schema.anyOf) return new Set(schema.anyOf.flatMap((s) => [...acceptedTypes(s)]));
  if (schema.enum) return new Set(schema.enum.map((v) => (v === null ? "null" : typeof v)));
  return new Set(
    schema.type
      ? [schema.type === "integer" ? "number" : schema.type]
      : ["string", "number", "boolean", "null", "array", "object"],
  );
}

/** Values of every JSON type, each with the type a validator sees (1e400 parses to Infinity, a number). */
export const WRONG_TYPED: readonly { readonly type: string; readonly value: unknown }[] = [
  { type: "string", value: "1" },
  { type: "string", value: "" },
  { type: "string", value: "true" },
  { type: "number", value: 1.5 },
  { type: "number", value: new RawJson("-0") },
  { type: "number", value: new RawJson("1e400") },
  { type: "number", value: new RawJson("9007199254740993") },
  { type: "boolean", value: true },
  { type: "boolean", value: false },
  { type: "null", value: null },
  { type: "array", value: [] },
  { type: "array", value: ["1"] },
  { type: "object", value: {} },
  { type: "object", value: { value: 1 } },
];

/** Every (path, schema) of a value generated from `schema`: present properties and array items, and absent top-level properties. */
export function fieldPaths(
  schema: Schema,
  value: unknown,
  path: (string | number)[] = [],
): { path: (string | number)[]; schema: Schema }[] {
  const out: { path: (string | number)[]; schema: Schema }[] = [];
  if (schema.type === "object" && value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, sub] of Object.entries(schema.properties ?? {})) {
      const present = Object.hasOwn(value, k);
      if (present || path.length === 0) out.push({ path: [...path, k], schema: sub });
      if (present) out.push(...fieldPaths(sub, (value as Record<string, unknown>)[k], [...path, k]));
    }
  } else if (schema.type === "array" && Array.isArray(value) && schema.items) {
    value.forEach((item, i) => {
      out.push({ path: [...path, i], schema: schema.items as Schema });
      out.push(...fieldPaths(schema.items as Schema, item, [...path, i]));
    });
  }
  return out;
}
