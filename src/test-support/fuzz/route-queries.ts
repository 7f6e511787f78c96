// Fuzzing support: Query strings, odd and malformed: list parameters with bad values, forged cursors
// and unknown parameters.
// Part of src/test-support/fuzz.ts (which re-exports every part).
import fc from "fast-check";
import type { Operation } from "../../contract/operation.js";
import { nested } from "./bodies.js";
import type { FuzzContext } from "./requests.js";

const isList = (op: Operation) => op.kind === "list";

/** One `name=value` of a query string, encoded or not. */
function queryEntryArb(ctx: FuzzContext, op: Operation): fc.Arbitrary<string> {
  const enc = (name: string, value: string) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
  const real = ctx.cursors[op.path] ?? Object.values(ctx.cursors)[0] ?? "x";
  const cursorValues = fc.oneof(
    fc.constant(real),
    fc.constantFrom(...Object.values(ctx.cursors), ...ctx.foreignCursors),
    fc.constantFrom(
      "garbage",
      "",
      "%zz",
      "a".repeat(5_000),
      `${real}x`,
      real.slice(0, -1),
      real.toUpperCase(),
      `${real}=`,
      "null",
      "0",
      "-1",
    ),
    fc.constantFrom(
      Buffer.from(JSON.stringify({ l: `demo${op.path}`, s: -1 })).toString("base64url"),
      Buffer.from(JSON.stringify({ l: `demo${op.path}`, s: 1.5 })).toString("base64url"),
      Buffer.from(JSON.stringify({ l: `demo${op.path}`, s: 1e300 })).toString("base64url"),
      Buffer.from(JSON.stringify({ l: `demo${op.path}`, s: 999_999 })).toString("base64url"),
      Buffer.from('{"__proto__":{"polluted":true},"l":"demo/products","s":1}').toString("base64url"),
      Buffer.from(JSON.stringify({ l: `demo${op.path}`, s: "1" })).toString("base64url"),
      Buffer.from(nested(5_000, "[", "]")).toString("base64url"),
    ),
    fc.string({ maxLength: 40 }),
  );
  const known = fc.oneof(
    fc
      .constantFrom(
        "1",
        "50",
        "200",
        "0",
        "201",
        "-1",
        "1e309",
        "1e3",
        "1.5",
        "abc",
        "",
        "9007199254740993",
        "99999999999999999999",
        "0x10",
        " 1",
        "+1",
        "1 ",
        "０",
      )
      .map((v) => enc("limit", v)),
    cursorValues.map((v) => enc("cursor", v)),
    fc.constantFrom("asc", "desc", "ASC", "", "sideways", "asc,desc").map((v) => enc("order", v)),
    fc.constantFrom("true", "false", "maybe", "1", "0", "", "TRUE", "yes").map((v) => enc("include_deleted", v)),
    fc
      .oneof(fc.constantFrom(...ctx.skus), fc.constantFrom("", "%", "__proto__"), fc.string({ maxLength: 20 }))
      .map((v) => enc("sku", v)),
    fc
      .constantFrom(
        "2026-01-01T00:00:00Z",
        "2026-01-01T00:00:00+02:00",
        "2026-13-45T99:99:99Z",
        "yesterday",
        "",
        "1e309",
      )
      .chain((v) => fc.constantFrom("completed_from", "completed_to").map((n) => enc(n, v))),
    fc
      .constantFrom("completed", "partially_refunded", "refunded", "voided", "open", "", "COMPLETED")
      .map((v) => enc("status", v)),
    fc
      .oneof(fc.constantFrom(...Object.values(ctx.ids).flat()), fc.constantFrom("x", "", "__proto__"))
      .chain((v) => fc.constantFrom("outlet_id", "customer_id", "parent_sale_id").map((n) => enc(n, v))),
  );
  const unknown = fc.oneof(
    fc.constantFrom(
      "foo=bar",
      "__proto__=1",
      "__proto__[polluted]=1",
      "constructor=x",
      "constructor.prototype.polluted=1",
      "hasOwnProperty=1",
      "toString=",
      "limit",
      "=",
      "&",
      "a=%zz",
      "%=%",
      "a[]=1",
      "a[b]=c",
      "=x",
      "%E0%A4%A=1",
    ),
    fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ maxLength: 12 })).map(([n, v]) => enc(n, v)),
    fc.string({ maxLength: 20 }),
  );
  return isList(op)
    ? fc.oneof({ weight: 5, arbitrary: known }, { weight: 1, arbitrary: unknown })
    : fc.oneof(known, unknown);
}

export function queryArb(ctx: FuzzContext, op: Operation, mode: "any" | "valid"): fc.Arbitrary<string> {
  if (mode === "valid") {
    if (!isList(op)) return fc.constant("");
    return fc.oneof(
      fc.constant(""),
      fc.integer({ min: 1, max: 200 }).map((n) => `limit=${n}`),
      fc.constant(`cursor=${ctx.cursors[op.path] ?? ""}`),
      fc.constant("order=desc"),
    );
  }
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant("") },
    {
      weight: 4,
      arbitrary: fc
        .array(queryEntryArb(ctx, op), { minLength: 1, maxLength: 4 })
        .chain((entries) =>
          fc.boolean().map((repeat) => (repeat ? [...entries, entries[0] as string] : entries).join("&")),
        ),
    },
  );
}
