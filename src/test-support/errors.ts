// The one assertion on the spec's error envelope (spec, Errors: every failure other than the token endpoint
// answers `{"error": {"code", "message", "fields"?: [{field, message}]}}`), shared by every test.
import { expect } from "vitest";

/** An answer with a parsed JSON body: the `Reply` of `call`, or any test helper's reply. */
export interface JsonAnswer {
  status: number;
  json: any;
  text?: string;
}

export interface ApiErrorBody {
  code: string;
  message: string;
  fields?: { field: string; message: string }[];
}

/** Asserts nothing itself: returns the error object of an envelope for exact comparisons. */
export const errorOf = (reply: JsonAnswer) => reply.json?.error as ApiErrorBody;

/**
 * What the envelope's `fields` must be:
 * - omitted: no `fields` (a refusal that concerns no field: a path id, the store, the scope);
 * - a field name: exactly one entry, naming that field;
 * - `{ includes }`: present, and one of its entries names that field;
 * - `"any"`: absent, or any list of `{field, message}` (a conflict about a name may name it, or not).
 */
export type FieldsRule = string | { includes: string } | "any";

/** The spec's error envelope, exactly: the status, the code, a non-empty message, and `fields` by the rule. */
export function expectError(reply: JsonAnswer, status: number, code: string, fields?: FieldsRule): void {
  const context = reply.text ?? JSON.stringify(reply.json);
  expect({ status: reply.status, code: reply.json?.error?.code }, context).toStrictEqual({ status, code });
  expect(Object.keys(reply.json), context).toEqual(["error"]);
  const { fields: actual, ...rest } = errorOf(reply);
  expect(rest, context).toStrictEqual({ code, message: expect.any(String) });
  expect(rest.message.length, context).toBeGreaterThan(0);
  const entry = { field: expect.any(String), message: expect.any(String) };
  if (fields === undefined) expect(actual, context).toBeUndefined();
  else if (typeof fields === "object") {
    expect(actual, context).toStrictEqual(actual?.map(() => entry));
    expect(
      actual?.map((f) => f.field),
      context,
    ).toContain(fields.includes);
  } else if (fields === "any") {
    if (actual !== undefined) expect(actual, context).toStrictEqual(actual.map(() => entry));
  } else expect(actual, context).toStrictEqual([{ field: fields, message: expect.any(String) }]);
}
