// Fuzzing support: Headers, odd and malformed: Authorization, Content-Type, Idempotency-Key and others.
// Part of src/test-support/fuzz.ts (which re-exports every part).
import fc from "fast-check";
import type { Operation } from "../../contract/operation.js";
import { type FuzzContext, setOwn } from "./requests.js";

export const ODD_CONTENT_TYPES = [
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/vnd.api+json",
  "application/json;",
  "application/json ; charset=latin1",
  "text/plain",
  "application/jsonx",
  "",
  "multipart/form-data; boundary=x",
  "application/x-www-form-urlencoded",
  "application/problem+json",
  "*/*",
  "json",
  "application/json\u0000",
] as const;

export const ODD_IDEMPOTENCY_KEYS = [
  "",
  " ",
  "a b",
  "x".repeat(256),
  "x".repeat(300),
  "ключ",
  "k\u0000",
  "\t",
  "é",
  "key\r\n",
  "\u00a0",
] as const;

/** Authorization values that are no credential: missing scheme, wrong scheme, wrong token, junk around it. */
export function badAuthorizationArb(ctx: FuzzContext): fc.Arbitrary<string | undefined> {
  const t = ctx.tokens.full;
  return fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(
      "",
      "Bearer",
      "Bearer ",
      "Bearer  ",
      `Basic ${Buffer.from(`x:${t}`).toString("base64")}`,
      `Bearer ${t} extra`,
      `Bearer ${t},Bearer ${t}`,
      t,
      `Bearer\t${t}`,
      `Bearer ${"x".repeat(600)}`,
      `Bearer é${t}`,
      "Bearer __proto__",
      "Bearer constructor",
      `Bearer ${t.toUpperCase()}`,
      `Bearer ${t.slice(0, -1)}`,
      `Token ${t}`,
      `Bearer ${t}\u0000`,
      `Bearer "${t}"`,
    ),
    fc
      .string({ maxLength: 60 })
      .map((s) => `Bearer ${s}`)
      .filter((v) => v !== `Bearer ${t}`),
  );
}

export function authArb(ctx: FuzzContext, mode: "any" | "valid"): fc.Arbitrary<string | undefined> {
  const full = fc.constant(`Bearer ${ctx.tokens.full}`);
  if (mode === "valid") return full;
  return fc.oneof(
    { weight: 14, arbitrary: full },
    { weight: 1, arbitrary: fc.constantFrom(`bearer ${ctx.tokens.full}`, `BEARER   ${ctx.tokens.full}`) },
    { weight: 2, arbitrary: fc.constantFrom(...ctx.tokens.scoped).map((k) => `Bearer ${k}`) },
    { weight: 1, arbitrary: fc.constantFrom(ctx.tokens.other, ctx.tokens.lite).map((k) => `Bearer ${k}`) },
    { weight: 3, arbitrary: badAuthorizationArb(ctx) },
  );
}

export function headersArb(
  ctx: FuzzContext,
  op: Operation,
  mode: "any" | "valid",
): fc.Arbitrary<Record<string, string>> {
  const contentType =
    mode === "valid"
      ? fc.constant<string | undefined>("application/json")
      : fc.oneof(
          { weight: 10, arbitrary: fc.constant<string | undefined>("application/json") },
          { weight: 2, arbitrary: fc.constant(undefined) },
          { weight: 3, arbitrary: fc.constantFrom(...ODD_CONTENT_TYPES) },
        );
  const validKey = fc.stringMatching(/^[\x21-\x7E]{1,40}$/);
  const key =
    mode === "valid"
      ? op.idempotency === "required"
        ? validKey.map((k): string | undefined => k)
        : fc.constant(undefined)
      : fc.oneof(
          {
            weight: 6,
            arbitrary:
              op.idempotency === "required" ? validKey.map((k): string | undefined => k) : fc.constant(undefined),
          },
          { weight: 3, arbitrary: validKey },
          { weight: 1, arbitrary: fc.constantFrom("x".repeat(255), "__proto__", "constructor", "toString") },
          { weight: 2, arbitrary: fc.constantFrom(...ODD_IDEMPOTENCY_KEYS) },
        );
  const extras =
    mode === "valid"
      ? fc.constant<[string, string][]>([])
      : fc.array(
          fc.tuple(
            fc.constantFrom(
              "x-fuzz",
              "__proto__",
              "constructor",
              "accept",
              "content-length",
              "transfer-encoding",
              "x-forwarded-for",
              "host",
            ),
            fc.string({ maxLength: 30 }),
          ),
          { maxLength: 2 },
        );
  return fc.tuple(authArb(ctx, mode), contentType, key, extras).map(([auth, type, idem, more]) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of more) setOwn(headers, name, value);
    if (auth !== undefined) headers.authorization = auth;
    if (type !== undefined) headers["content-type"] = type;
    if (idem !== undefined) headers["idempotency-key"] = idem;
    return headers;
  });
}
