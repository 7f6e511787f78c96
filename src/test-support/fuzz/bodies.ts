// Fuzzing support: Bodies of every kind for an operation, valid or malformed, built on the values of
// its schema (body-values.ts).
// Part of src/test-support/fuzz.ts (which re-exports every part).
import fc from "fast-check";
import type { Operation } from "../../contract/operation.js";
import { MAX_BODY_BYTES } from "../../http/types.js";
import { NASTY_STRINGS, type Schema, WRONG_TYPED, acceptedTypes, fieldPaths, valueArb } from "./body-values.js";
import { type FuzzContext, PROTO_KEYS, RawJson, jsonText, setOwn, utf8, withAt } from "./requests.js";

export interface WrongTypeBody {
  readonly text: string;
  /** The field the spec's `fields` must name: dots between path parts. */
  readonly field: string;
}

/** A valid-shaped body with one field replaced by a value of a type its schema does not accept. */
export function wrongTypeBodyArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<WrongTypeBody> {
  const schema = op.body as Schema;
  return valueArb(schema, ctx).chain((value) => {
    const paths = fieldPaths(schema, value);
    const targets = paths
      .map(({ path, schema: sub }) => ({ path, wrong: WRONG_TYPED.filter((w) => !acceptedTypes(sub).has(w.type)) }))
      .filter((t) => t.wrong.length > 0);
    return fc
      .constantFrom(...targets)
      .chain(({ path, wrong }) =>
        fc.constantFrom(...wrong).map((w) => ({ text: jsonText(withAt(value, path, w.value)), field: path.join(".") })),
      );
  });
}

const POISON = (): Record<string, unknown> => {
  const o: Record<string, unknown> = {};
  setOwn(o, "polluted", true);
  setOwn(o, "isAdmin", true);
  const proto: Record<string, unknown> = {};
  setOwn(proto, "polluted", true);
  setOwn(o, "prototype", proto);
  return o;
};

export interface ProtoKeyBody {
  readonly text: string;
  /** Where the key was put (dots between path parts), key included. */
  readonly field: string;
}

/** A valid-shaped body with `__proto__`, `constructor` or `prototype` as an own key of the body or of a nested object. */
export function protoKeyBodyArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<ProtoKeyBody> {
  const schema = op.body as Schema;
  return valueArb(schema, ctx).chain((value) => {
    const objects = [
      { path: [] as (string | number)[] },
      ...fieldPaths(schema, value).filter(({ path }) => {
        let v: unknown = value;
        for (const p of path) v = (v as Record<string | number, unknown>)?.[p];
        return v !== null && typeof v === "object" && !Array.isArray(v);
      }),
    ];
    return fc.tuple(fc.constantFrom(...objects), fc.constantFrom(...PROTO_KEYS)).map(([{ path }, key]) => {
      let target: unknown = value;
      for (const p of path) target = (target as Record<string | number, unknown>)[p];
      const poisoned: Record<string, unknown> = {};
      for (const k of Object.keys(target as object)) setOwn(poisoned, k, (target as Record<string, unknown>)[k]);
      setOwn(poisoned, key, POISON());
      return { text: jsonText(withAt(value, path, poisoned)), field: [...path, key].join(".") };
    });
  });
}

export type BodyKind =
  | "valid"
  | "wrong-type"
  | "extra-property"
  | "proto-key"
  | "deep-nesting"
  | "number-literal"
  | "invalid-utf8"
  | "truncated"
  | "empty"
  | "absent"
  | "not-json"
  | "at-size-cap"
  | "over-size-cap";

export interface FuzzBody {
  readonly kind: BodyKind;
  readonly bytes: Uint8Array | null;
  readonly tooLarge: boolean;
  /** For body-level refusals: the field the 400 names. */
  readonly field?: string;
}

export const INVALID_UTF8: readonly number[][] = [
  [0xff],
  [0xc3, 0x28],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xe2, 0x82],
  [0x80],
  [0xfe, 0xfe, 0xff, 0xff],
];

/** Bytes of a valid JSON body with a malformed UTF-8 sequence inside its first string. */
export function withInvalidUtf8(text: string, bad: readonly number[]): Uint8Array {
  const bytes = Buffer.from(text, "utf8");
  const at = bytes.indexOf(0x22) + 1;
  return new Uint8Array(Buffer.concat([bytes.subarray(0, at), Buffer.from(bad), bytes.subarray(at)]));
}

export const NOT_JSON = [
  "hello",
  "<product><name>x</name></product>",
  "name=x&retail_price=1",
  "NaN",
  "undefined",
  "{'name':'x'}",
  '{"name":"x"}{"name":"y"}',
  "[",
  "{",
  '{"name":"x",}',
  "\u0000",
  '{"name":"x"}\u0000',
] as const;

/** Depths of nesting: the 10,000 levels, and deeper (JSON.parse may overflow its stack on those). */
export const NESTING_DEPTHS = [10_000, 100_000] as const;

export function nested(depth: number, open: string, close: string, inner = ""): string {
  return `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
}

/** Huge, tiny and precise number literals put where the body has a number (or anywhere). */
export const NUMBER_LITERALS = [
  "1e400",
  "-1e400",
  "-0",
  "9007199254740993",
  "1e-400",
  "123456789012345678901234567890",
  "0.1e1",
  "1E2",
  "-9007199254740993.5",
  "4.9e-324",
] as const;

/** Pads a JSON text with spaces to exactly `size` bytes. */
export function padded(text: string, size: number): Uint8Array {
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(Buffer.from(text, "utf8"), 0);
  return bytes;
}

/** A body of any kind for `op` (any operation: a GET may be sent a body too). */
export function bodyArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<FuzzBody> {
  const schema = (op.body ?? { type: "object", properties: { name: { type: "string" } } }) as Schema;
  const valid = valueArb(schema, ctx).map((v) => jsonText(v));
  const json =
    (kind: BodyKind) =>
    (text: string): FuzzBody => ({ kind, bytes: utf8(text), tooLarge: false });
  const wrong = op.body
    ? wrongTypeBodyArb(op, ctx).map((w) => ({ ...json("wrong-type")(w.text), field: w.field }))
    : valid.map(json("wrong-type"));
  const proto = op.body
    ? protoKeyBodyArb(op, ctx).map((p) => ({ ...json("proto-key")(p.text), field: p.field }))
    : fc.constant(json("proto-key")('{"__proto__":{"polluted":true}}'));
  const numberLiteral = fc.tuple(valueArb(schema, ctx), fc.constantFrom(...NUMBER_LITERALS)).map(([value, literal]) => {
    const paths = fieldPaths(schema, value).filter(({ schema: s }) => acceptedTypes(s).has("number"));
    const target = paths[0]?.path ?? ["number"];
    return json("number-literal")(jsonText(withAt(value, target, new RawJson(literal))));
  });
  const deep = fc
    .tuple(
      fc.constantFrom(...NESTING_DEPTHS),
      fc.constantFrom("root", "field", "extra"),
      fc.constantFrom(["[", "]"], ['{"a":', "}"]),
    )
    .map(([depth, where, [open, close]]) => {
      const deepValue = nested(depth, open as string, close as string, open === "[" ? "" : "1");
      const text =
        where === "root"
          ? deepValue
          : where === "field"
            ? `{"${Object.keys(schema.properties ?? { name: 0 })[0]}":${deepValue}}`
            : `{"nested":${deepValue}}`;
      return json("deep-nesting")(text);
    });
  return fc.oneof(
    { weight: 8, arbitrary: valid.map(json("valid")) },
    { weight: 4, arbitrary: wrong },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valueArb(schema, ctx), fc.constantFrom("extra", "id ", "NAME", "", "lines.0", ...NASTY_STRINGS))
        .map(([v, k]) => json("extra-property")(jsonText(withAt(v, [k], 1)))),
    },
    { weight: 3, arbitrary: proto },
    { weight: 1, arbitrary: deep },
    { weight: 2, arbitrary: numberLiteral },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.constantFrom(...INVALID_UTF8)).map(([text, bad]) => ({
        kind: "invalid-utf8" as const,
        bytes: withInvalidUtf8(text, bad),
        tooLarge: false,
        field: "body",
      })),
    },
    {
      weight: 2,
      arbitrary: valid.chain((text) =>
        fc
          .integer({ min: 1, max: Math.max(1, text.length - 1) })
          .map((n) => ({ ...json("truncated")(text.slice(0, n)), field: "body" })),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constant<FuzzBody>({ kind: "empty", bytes: new Uint8Array(0), tooLarge: false, field: "body" }),
    },
    { weight: 1, arbitrary: fc.constant<FuzzBody>({ kind: "absent", bytes: null, tooLarge: false, field: "body" }) },
    { weight: 1, arbitrary: fc.constantFrom(...NOT_JSON).map((t) => ({ ...json("not-json")(t), field: "body" })) },
    {
      weight: 1,
      arbitrary: valid.map((text) => ({
        kind: "at-size-cap" as const,
        bytes: padded(text, MAX_BODY_BYTES),
        tooLarge: false,
      })),
    },
    // What both adapters hand over for a body past the cap: not read, flagged.
    {
      weight: 1,
      arbitrary: fc.constant<FuzzBody>({ kind: "over-size-cap", bytes: null, tooLarge: true, field: "body" }),
    },
  );
}

/** Kinds of body that are invalid whatever the operation: the 400 names `field`. */
export function invalidBodyArb(op: Operation, ctx: FuzzContext): fc.Arbitrary<FuzzBody & { field: string }> {
  return bodyArb(op, ctx).filter((b): b is FuzzBody & { field: string } => b.field !== undefined);
}
