import { Type, type TUnsafe } from "@sinclair/typebox";

/** A string enum as JSON Schema `enum` (clearer errors and OpenAPI than a union of literals). */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: { description?: string; default?: T[number] } = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}
