import { createRequire } from "node:module";
import type { TObject, TSchema } from "@sinclair/typebox";
import type { Ajv, ErrorObject, Options, ValidateFunction } from "ajv";
import { isUtcDateTime } from "../kernel/clock.js";
import { boundFields, DEFAULT_MAX_FIELD_ERRORS, leftOut, type FieldError } from "./errors.js";

// ajv validators compiled from the TypeBox schemas, once per schema and only when first used
// (compiling every schema at start-up would slow the first request of a cold start).

/**
 * ajv and ajv-formats, loaded by the first validator that compiles a schema rather than when this module
 * loads: evaluating their modules is about a quarter of a cold start's own work, and a first request
 * with nothing to validate (a read without a query string) never needs them. They are CommonJS packages,
 * read through Node's `require` (synchronously: validation is), so the command line's bundle leaves them
 * in node_modules too. docs/performance.md, Cold start.
 */
const nodeRequire = createRequire(import.meta.url);
let ajvModules: { Ajv: new (options: Options) => Ajv; addFormats: (ajv: Ajv) => Ajv } | undefined;
function loadAjv(): NonNullable<typeof ajvModules> {
  ajvModules ??= {
    Ajv: (nodeRequire("ajv") as { Ajv: new (options: Options) => Ajv }).Ajv,
    addFormats: (nodeRequire("ajv-formats") as { default: (ajv: Ajv) => Ajv }).default,
  };
  return ajvModules;
}

/**
 * Spec, InventoryLevel: quantities have up to 3 decimal places. `decimals: n` accepts a number that is
 * a whole count of 10^-n up to binary floating point (0.1 + 0.2 is 0.3; 123456.789 is fine), with a
 * tolerance relative to the value, so a 4th decimal is refused at any size. The OpenAPI document shows
 * it as the extension `x-decimals`.
 */
export function hasDecimals(value: number, places: number): boolean {
  const scaled = value * 10 ** places;
  return Math.abs(scaled - Math.round(scaled)) <= Math.max(1e-9, 16 * Number.EPSILON * Math.abs(scaled));
}
/**
 * `ajv` with the rules the contract's schemas use beyond the standard formats: the `decimals` keyword
 * (or its OpenAPI spelling `x-decimals`) and, spec, What the service does 5 and Sales list rules 1,
 * date-times in UTC ending in Z (an offset is refused).
 */
export function withContractRules<A extends Pick<Ajv, "addKeyword" | "addFormat">>(
  ajv: A,
  decimals: "decimals" | "x-decimals",
): A {
  ajv.addKeyword(decimalsKeyword(decimals));
  ajv.addFormat("utc-date-time", { type: "string", validate: isUtcDateTime });
  return ajv;
}

/** The `decimals` keyword (or its OpenAPI spelling `x-decimals`) for an ajv instance. */
export function decimalsKeyword(keyword: "decimals" | "x-decimals") {
  return {
    keyword,
    type: "number" as const,
    schemaType: "number" as const,
    errors: true,
    validate: function decimals(places: number, value: number) {
      const ok = hasDecimals(value, places);
      if (!ok)
        (decimals as unknown as { errors: unknown[] }).errors = [
          { keyword, message: `must have at most ${places} decimal places`, params: { decimals: places } },
        ];
      return ok;
    },
  };
}

/**
 * Field errors of a value: at most `max` of them (default DEFAULT_MAX_FIELD_ERRORS), then one more entry,
 * named by the root, saying how many were left out (docs/spec-choices.md, Requests).
 */
export type Validator = (value: unknown, max?: number) => FieldError[];

/**
 * Two ajv instances with the contract's keyword and formats, and the validators they compiled, by
 * schema: one stops at the first error (every request passes it), the other lists every error (only a
 * refused value meets it, pruned first: see `pruneUnknown`).
 */
export class SchemaValidators {
  // Made when the first schema is compiled, not when the module loads (a cold start answers its first
  // request without them when that request has nothing to validate).
  private firstAjv?: Ajv;
  private allAjv?: Ajv;
  private readonly compiled = new WeakMap<TSchema, { first: ValidateFunction; all?: ValidateFunction }>();

  private instance(allErrors: boolean): Ajv {
    const { Ajv, addFormats } = loadAjv();
    return withContractRules(addFormats(new Ajv({ allErrors, strict: false })), "decimals");
  }

  /** Field errors of `value` against `schema`; fields are dotted paths (`lines.2.set`), `root` names the whole value. */
  validatorFor(schema: TSchema, root = "body"): Validator {
    return (value, max = DEFAULT_MAX_FIELD_ERRORS) => {
      let validate = this.compiled.get(schema);
      if (!validate) {
        this.firstAjv ??= this.instance(false);
        validate = { first: this.firstAjv.compile(schema) };
        this.compiled.set(schema, validate);
      }
      if (validate.first(value)) return [];
      this.allAjv ??= this.instance(true);
      validate.all ??= this.allAjv.compile(schema);
      const pruned = { kept: 0, max, dropped: 0 };
      validate.all(pruneUnknown(schema as JsonSchema, value, pruned));
      const fields = toFieldErrors(validate.all.errors ?? [], root, max);
      return pruned.dropped === 0 ? fields : boundFields([...fields, leftOut(pruned.dropped, root)], max, root);
    };
  }
}

/** The keywords that cannot refuse an empty object in an object schema (`required` only when empty). */
const EMPTY_OBJECT_NEUTRAL = new Set([
  "type",
  "properties",
  "additionalProperties",
  "patternProperties",
  "required",
  "title",
  "description",
  "examples",
]);

/**
 * Whether `schema` surely accepts `{}`, read from its keywords without compiling it: an object schema
 * with no required property and no keyword that could refuse an empty object. Any other schema answers
 * false (the caller then asks the validator). Spares compiling a query schema for a request without a
 * query string.
 */
export function acceptsEmptyObject(schema: TSchema): boolean {
  if (schema.type !== "object") return false;
  for (const key of Object.keys(schema)) if (!EMPTY_OBJECT_NEUTRAL.has(key)) return false;
  const required = (schema as { required?: unknown }).required;
  return required === undefined || (Array.isArray(required) && required.length === 0);
}

/** Unknown properties kept so far (each is one field error) and how many were dropped past `max`. */
interface Pruning {
  kept: number;
  readonly max: number;
  dropped: number;
}

/**
 * The value with the unknown properties of its objects past the first `max` (counted in the whole value)
 * left out and counted: each one is exactly one field error ("is not a known property") of a field of
 * its own, so the count stays exact, and a body of 100,000 unknown properties costs one walk of its
 * keys, not 100,000 errors. Only objects reached through `properties` and `items` are looked at (a
 * union's branches are not known); only the objects that lose properties are copied.
 */
function pruneUnknown(schema: JsonSchema, value: unknown, pruning: Pruning): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const items = schema.type === "array" ? schema.items : undefined;
    if (items === undefined || isTuple(items)) return value;
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const next = pruneUnknown(items, item, pruning);
      if (next !== item) (copy ??= [...value])[i] = next;
    });
    return copy ?? value;
  }
  if (schema.type !== "object" || schema.properties === undefined) return value;
  const properties = schema.properties;
  const object = value as Record<string, unknown>;
  const closed = schema.additionalProperties === false;
  // One walk of the keys (a walk of 100,000 keys is what costs): the entries before the first one left
  // out are remembered (at most `max` unknown and the known ones) to start the copy with.
  const before: [string, unknown][] = [];
  let copy: Record<string, unknown> | undefined;
  for (const key in object) {
    const known = Object.hasOwn(properties, key);
    if (!known && closed) {
      if (pruning.kept >= pruning.max) {
        pruning.dropped += 1;
        // A null prototype: a `__proto__` key stays a property, as JSON.parse made it.
        copy ??= Object.assign(Object.create(null) as Record<string, unknown>, Object.fromEntries(before));
        continue;
      }
      pruning.kept += 1;
    }
    const entry: [string, unknown] = [
      key,
      known ? pruneUnknown(properties[key] as JsonSchema, object[key], pruning) : object[key],
    ];
    if (copy) copy[key] = entry[1];
    else before.push(entry);
  }
  if (copy) return copy;
  return before.every(([key, inner]) => inner === object[key]) ? value : Object.fromEntries(before);
}

const isTuple = (items: JsonSchema | readonly JsonSchema[]): items is readonly JsonSchema[] => Array.isArray(items);

/** What `pruneUnknown` reads of a JSON Schema. */
interface JsonSchema {
  readonly type?: unknown;
  readonly items?: JsonSchema | readonly JsonSchema[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly additionalProperties?: unknown;
}

/**
 * The validators every simulator shares: a compiled validator depends only on its schema, and the
 * schemas are the contract's constants, so one compilation serves every world and every request.
 */
const shared = new SchemaValidators();

/** `SchemaValidators.validatorFor` on the shared validators. */
export function validatorFor(schema: TSchema, root = "body"): Validator {
  return shared.validatorFor(schema, root);
}

/**
 * ajv's errors as field errors, one per field, at most `max` of them. Past `max`, an error is only
 * counted, by its JSON pointer (which ajv already built): a new field when its pointer is neither one
 * already listed nor the one before it (ajv reports the errors of one place together).
 */
function toFieldErrors(errors: readonly ErrorObject[], root: string, max: number): FieldError[] {
  const byField = new Map<string, string>();
  /** Pointers of the errors read into `byField`. */
  const listed = new Set<string>();
  let rest = 0;
  let previous: string | undefined;
  for (const e of errors) {
    // An if/then schema also reports that its `then` failed: the errors of `then` already say where.
    if (e.keyword === "if") continue;
    const param = namedProperty(e);
    const pointer = param === undefined ? e.instancePath : `${e.instancePath}/${param}`;
    if (byField.size >= max) {
      if (pointer !== previous && !listed.has(pointer)) rest += 1;
      previous = pointer;
      continue;
    }
    listed.add(pointer);
    const path = e.instancePath.split("/").slice(1).map(decodePointer);
    if (param !== undefined) path.push(param);
    const field = path.length > 0 ? path.join(".") : root;
    // One message per field: the first is the most specific (ajv reports a union's summary last).
    if (!byField.has(field)) byField.set(field, messageOf(e));
  }
  const fields = [...byField].map(([field, message]): FieldError => ({ field, message }));
  return rest === 0 ? fields : [...fields, leftOut(rest, root)];
}

/** The property an error names below its instance path (an unknown or a missing one). */
function namedProperty(e: ErrorObject): string | undefined {
  if (e.keyword === "additionalProperties") return String(e.params.additionalProperty);
  if (e.keyword === "required") return String(e.params.missingProperty);
  return undefined;
}

function messageOf(e: ErrorObject): string {
  if (e.keyword === "additionalProperties") return "is not a known property";
  if (e.keyword === "required") return "is required";
  if (e.keyword === "format" && e.params.format === "utc-date-time")
    return "must be an ISO 8601 date-time in UTC ending in Z";
  if (e.keyword === "enum") return `must be one of: ${(e.params.allowedValues as unknown[]).join(", ")}`;
  return e.message ?? "is invalid";
}

const decodePointer = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");

/**
 * Turns query text into typed values by the schema's property types, strictly: integers are plain
 * decimal digits, booleans `true` or `false`. A value that does not convert stays a string so the
 * validator reports it. A known parameter given twice is an error of its own.
 */
export function coerceQuery(
  schema: TObject,
  params: URLSearchParams,
): { value: Record<string, unknown>; errors: FieldError[] } {
  const value: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const [name, text] of params) {
    const prop = Object.hasOwn(schema.properties, name) ? (schema.properties[name] as { type?: unknown }) : undefined;
    if (Object.hasOwn(value, name)) {
      // A name the operation does not know is refused as unknown (by the validator), however often it comes.
      if (prop && !errors.some((e) => e.field === name)) errors.push({ field: name, message: "must be given once" });
      continue;
    }
    value[name] = convert(prop?.type, text);
  }
  return { value, errors };
}

function convert(type: unknown, text: string): unknown {
  if (type === "integer" && /^-?\d{1,15}$/.test(text)) return Number(text);
  if (type === "number" && /^-?\d{1,15}(\.\d{1,15})?$/.test(text)) return Number(text);
  if (type === "boolean" && (text === "true" || text === "false")) return text === "true";
  return text;
}
