import type { TObject, TSchema } from "@sinclair/typebox";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { isUtcDateTime } from "../kernel/clock.js";
import type { FieldError } from "./errors.js";

// ajv validators compiled from the TypeBox schemas, once per schema and only when first used
// (compiling every schema at start-up would slow the first request of a cold start).

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

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

export type Validator = (value: unknown) => FieldError[];

/** An ajv instance with the contract's keyword and formats, and the validators it compiled, by schema. */
export class SchemaValidators {
  private readonly ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
  private readonly compiled = new WeakMap<TSchema, ValidateFunction>();

  constructor() {
    this.ajv.addKeyword(decimalsKeyword("decimals"));
    // Spec, What the service does 5 and Sales list rules 1: date-times in UTC ending in Z (an offset is refused).
    this.ajv.addFormat("utc-date-time", { type: "string", validate: isUtcDateTime });
  }

  /** Field errors of `value` against `schema`; fields are dotted paths (`lines.2.set`), `root` names the whole value. */
  validatorFor(schema: TSchema, root = "body"): Validator {
    return (value) => {
      let validate = this.compiled.get(schema);
      if (!validate) {
        validate = this.ajv.compile(schema);
        this.compiled.set(schema, validate);
      }
      return validate(value) ? [] : toFieldErrors(validate.errors ?? [], root);
    };
  }
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

function toFieldErrors(errors: readonly ErrorObject[], root: string): FieldError[] {
  const byField = new Map<string, string>();
  for (const e of errors) {
    // An if/then schema also reports that its `then` failed: the errors of `then` already say where.
    if (e.keyword === "if") continue;
    const path = e.instancePath.split("/").slice(1).map(decodePointer);
    let message = e.message ?? "is invalid";
    if (e.keyword === "additionalProperties") {
      path.push(String(e.params.additionalProperty));
      message = "is not a known property";
    } else if (e.keyword === "required") {
      path.push(String(e.params.missingProperty));
      message = "is required";
    } else if (e.keyword === "format" && e.params.format === "utc-date-time") {
      message = "must be an ISO 8601 date-time in UTC ending in Z";
    } else if (e.keyword === "enum") {
      message = `must be one of: ${(e.params.allowedValues as unknown[]).join(", ")}`;
    }
    const field = path.length > 0 ? path.join(".") : root;
    // One message per field: the first is the most specific (ajv reports a union's summary last).
    if (!byField.has(field)) byField.set(field, message);
  }
  return [...byField].map(([field, message]) => ({ field, message }));
}

const decodePointer = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");

/**
 * Turns query text into typed values by the schema's property types, strictly: integers are plain
 * decimal digits, booleans `true` or `false`. A value that does not convert stays a string so the
 * validator reports it. A parameter given twice is an error of its own.
 */
export function coerceQuery(
  schema: TObject,
  params: URLSearchParams,
): { value: Record<string, unknown>; errors: FieldError[] } {
  const value: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const [name, text] of params) {
    if (Object.hasOwn(value, name)) {
      if (!errors.some((e) => e.field === name)) errors.push({ field: name, message: "must be given once" });
      continue;
    }
    const prop = Object.hasOwn(schema.properties, name) ? (schema.properties[name] as { type?: unknown }) : undefined;
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
