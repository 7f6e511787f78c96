import type { TSchema } from "@sinclair/typebox";
import { componentName, exactlyOneGroups } from "./schemas/component.js";

// TypeBox schemas as the plain JSON Schema of the OpenAPI document, with every named schema
// (schemas/component.ts) in `components/schemas` once and referenced wherever it is used.

/** Spec, Sales list rules 1: a UTC date-time ending in Z (an offset is refused), as a pattern tools check. */
export const UTC_DATE_TIME_PATTERN = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$";

const DECIMALS_TEXT = (places: number) =>
  `At most ${places} decimal places (\`x-decimals: ${places}\`, a server-side rule: a JSON Schema multiple-of ` +
  "check runs in binary floating point in common validators and would refuse valid values such as 0.043).";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The named schemas met while converting, by name, each with one definition. */
export class Components {
  private readonly definitions = new Map<string, Json>();
  private readonly seen = new WeakMap<object, string>();

  /** `schema` as JSON Schema: a reference when it is named, else its converted body. */
  schema(schema: TSchema | Record<string, unknown>): Json {
    return this.convert(schema, false);
  }

  /** Defines `name` as `schema` (named or not) and answers the reference to it. */
  define(name: string, schema: TSchema | Record<string, unknown>): Json {
    this.add(name, schema);
    return ref(name);
  }

  /** Whether `name` is defined. */
  has(name: string): boolean {
    return this.definitions.has(name);
  }

  /** Every definition, by name in alphabetical order. */
  all(): Record<string, Json> {
    return Object.fromEntries([...this.definitions].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  private add(name: string, schema: object): void {
    if (this.seen.get(schema) === name) return;
    const body = this.convert(schema, true);
    const known = this.definitions.get(name);
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(body))
      throw new Error(`Two different schemas are named ${name}: name the derived one with component()`);
    this.definitions.set(name, body);
    this.seen.set(schema, name);
  }

  private convert(value: unknown, root: boolean): Json {
    if (Array.isArray(value)) return value.map((item) => this.convert(item, false));
    if (value === null || typeof value !== "object") return value as Json;
    const name = componentName(value);
    if (name !== undefined && !root) {
      this.add(name, value);
      return ref(name);
    }
    const out: Record<string, Json> = {};
    for (const [key, child] of Object.entries(value)) out[key] = this.convert(child, false);
    return expressed(value, out);
  }
}

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** The rules the server checks beyond plain JSON Schema, in keywords tools know (or describe). */
function expressed(source: object, out: Record<string, Json>): Json {
  if (typeof out.decimals === "number") {
    const { decimals, ...rest } = out;
    const text = DECIMALS_TEXT(decimals);
    return { ...rest, description: rest.description ? `${rest.description} ${text}` : text, "x-decimals": decimals };
  }
  if (out.format === "utc-date-time") return { ...out, format: "date-time", pattern: UTC_DATE_TIME_PATTERN };
  const groups = exactlyOneGroups(source);
  if (groups) {
    const rules = groups.map((names) => ({ oneOf: names.map((n) => ({ required: [n] })) }));
    return { ...out, ...(rules.length === 1 ? rules[0] : { allOf: rules }) };
  }
  return out;
}
