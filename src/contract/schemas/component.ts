import type { TSchema } from "@sinclair/typebox";

// Names and document-only rules carried by the TypeBox schemas for the OpenAPI document. Both are symbol
// keys: JSON, validation and static types never see them. Copies TypeBox makes (Type.Optional, a union
// member) keep them, so a named schema is the same component wherever it is used.

const COMPONENT = Symbol.for("retail-sim.component");
const EXACTLY_ONE = Symbol.for("retail-sim.exactly-one");

type Marked = { [COMPONENT]?: string; [EXACTLY_ONE]?: readonly (readonly string[])[] };

/** `schema`, named: the OpenAPI document shows it as `#/components/schemas/{name}` wherever it is used. */
export function component<T extends TSchema>(name: string, schema: T): T {
  return { ...schema, [COMPONENT]: name } as T;
}

/** The component name `component` gave the schema, if any. */
export function componentName(schema: object): string | undefined {
  return (schema as Marked)[COMPONENT];
}

/**
 * `schema` with rules "exactly one of these properties" that the server checks in code (with the spec's
 * messages) and the OpenAPI document states as `oneOf` of `required`, so validators and typed clients
 * know them too.
 */
export function exactlyOne<T extends TSchema>(schema: T, ...groups: readonly (readonly string[])[]): T {
  return { ...schema, [EXACTLY_ONE]: groups } as T;
}

/** The groups `exactlyOne` gave the schema, if any. */
export function exactlyOneGroups(schema: object): readonly (readonly string[])[] | undefined {
  return (schema as Marked)[EXACTLY_ONE];
}
