import type { RuleContext } from "../../context.js";
import { isUtc, isUuid, sameId, show } from "./catalog.js";
import { Mismatch } from "../../outcomes.js";
import { isObject, type Json, type Product, type ProductCode, type Tombstone } from "../../shapes.js";

// The Product document of the catalog rules: its fields and types, the tombstone, and barcodes of every
// code type with valid check digits.

// The Product document (spec, Resources: Product and its sub-records)

const CODE_TYPES = ["upc", "isbn", "itf", "ean", "jan", "custom"];
const str = (v: unknown) => typeof v === "string";
const strOrNull = (v: unknown) => v === null || typeof v === "string";
const bool = (v: unknown) => typeof v === "boolean";
const int = (v: unknown): v is number => Number.isInteger(v);
const intOrNull = (v: unknown) => v === null || Number.isInteger(v);
const num = (v: unknown) => typeof v === "number" && Number.isFinite(v);
const numOrNull = (v: unknown) => v === null || num(v);
const uuidOrNull = (v: unknown) => v === null || isUuid(v);

type Check = readonly [string, (v: unknown) => boolean, string];
const arrayOf = (max: number, item: readonly Check[]) => (v: unknown) =>
  Array.isArray(v) && v.length <= max && v.every((x) => isObject(x) && item.every(([k, ok]) => k in x && ok(x[k])));

const CODE: Check[] = [
  ["id", isUuid, ""],
  ["type", (v) => typeof v === "string" && CODE_TYPES.includes(v), ""],
  ["code", str, ""],
];
const TAG: Check[] = [
  ["id", isUuid, ""],
  ["name", str, ""],
];
const SUPPLIER: Check[] = [
  ["supplier_id", isUuid, ""],
  ["is_primary", bool, ""],
  ["supplier_code", strOrNull, ""],
  ["supplier_name", str, ""],
];
const OPTION: Check[] = [
  ["attribute_id", isUuid, ""],
  ["value", str, ""],
];
const ATTRIBUTE: Check[] = [
  ["id", isUuid, ""],
  ["name", str, ""],
  ["position", (v) => int(v) && v >= 1 && v <= 3, ""],
];
const COMPONENT: Check[] = [
  ["product_id", isUuid, ""],
  ["quantity", num, ""],
];

export const PRODUCT_FIELDS: readonly Check[] = [
  ["id", isUuid, "a UUID string"],
  ["sku", str, "a string"],
  ["name", str, "a string"],
  ["description", strOrNull, "a string or null"],
  ["active", bool, "a boolean"],
  ["is_gift_card", bool, "a boolean"],
  ["has_inventory", bool, "a boolean"],
  ["has_variants", bool, "a boolean"],
  ["variant_parent_id", uuidOrNull, "a UUID or null"],
  ["is_composite", bool, "a boolean"],
  ["brand_id", uuidOrNull, "a UUID or null"],
  ["category_id", isUuid, "a UUID"],
  ["retail_price", int, "an integer (cents)"],
  ["loyalty_amount", intOrNull, "an integer (cents) or null"],
  ["sales_account_code", strOrNull, "a string or null"],
  ["purchase_account_code", strOrNull, "a string or null"],
  ["weight", numOrNull, "a number or null"],
  ["length", numOrNull, "a number or null"],
  ["width", numOrNull, "a number or null"],
  ["height", numOrNull, "a number or null"],
  ["weight_unit", strOrNull, "a string or null"],
  ["dimension_unit", strOrNull, "a string or null"],
  ["image_url", strOrNull, "a string or null"],
  ["image_thumb_url", strOrNull, "a string or null"],
  ["codes", arrayOf(10, CODE), "at most 10 ProductCode {id: uuid, type: upc|isbn|itf|ean|jan|custom, code: string}"],
  ["tags", arrayOf(20, TAG), "at most 20 ProductTag {id: uuid, name: string}"],
  [
    "suppliers",
    (v) => arrayOf(10, SUPPLIER)(v) && (v as Json[]).every((s) => !("supply_price" in s)),
    "at most 10 ProductSupplier {supplier_id, is_primary, supplier_code, supplier_name}, never a supply price",
  ],
  ["variant_options", arrayOf(3, OPTION), "ProductVariantOption {attribute_id: uuid, value: string}"],
  ["variant_attributes", arrayOf(3, ATTRIBUTE), "at most 3 ProductAttribute {id: uuid, name, position 1 to 3}"],
  ["components", arrayOf(50, COMPONENT), "at most 50 ProductComponent {product_id: uuid, quantity: number}"],
  ["created_at", isUtc, "a UTC date-time ending in Z"],
  ["updated_at", isUtc, "a UTC date-time ending in Z"],
  ["version", str, "a string"],
];

/** Every field of the Product table present with its type. */
export function expectProductShape(ctx: RuleContext, p: unknown, where: string): Product {
  if (!isObject(p)) throw new Mismatch(`${where}: a product document`, show(p));
  for (const [key, ok, type] of PRODUCT_FIELDS) {
    ctx.check(key in p, `${where}: field ${key} present`, `keys ${show(Object.keys(p))}`);
    ctx.check(ok(p[key]), `${where}: ${key} ${type}`, `${key} = ${show(p[key])}`);
  }
  return p as unknown as Product; // every field checked above
}

/** Spec, Resources: Tombstone {id, deleted_at, version}. */
export function expectTombstone(ctx: RuleContext, row: unknown, id: string, where: string): Tombstone {
  ctx.check(
    isObject(row) && sameId(row.id, id) && isUtc(row.deleted_at) && typeof row.version === "string",
    `${where}: a tombstone {id: ${id}, deleted_at: UTC date-time, version: string}`,
    show(row),
  );
  return row as Tombstone;
}

// Barcodes: valid check digits, so a server that validates them accepts ours. Values are unique per run.

function checkDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return String((10 - (sum % 10)) % 10);
}

function digits(text: string, n: number): string {
  let h = 0xcbf29ce484222325n;
  for (const ch of text) h = BigInt.asUintN(64, (h ^ BigInt(ch.charCodeAt(0))) * 0x100000001b3n);
  return (h % 10n ** BigInt(n)).toString().padStart(n, "0");
}

export type CodeType = ProductCode["type"];
export const CODE_TYPE_LIST: readonly CodeType[] = ["upc", "isbn", "itf", "ean", "jan", "custom"];

/** A valid code of this type that no other product of the run has. */
export function codeValue(ctx: RuleContext, type: CodeType): string {
  const d = digits(ctx.name("code"), 12);
  switch (type) {
    case "upc": {
      const body = `2${d.slice(0, 10)}`; // 11 digits, number system 2 (in-store)
      return body + checkDigit(body);
    }
    case "ean": {
      const body = `20${d.slice(0, 10)}`; // 12 digits, in-store prefix 20
      return body + checkDigit(body);
    }
    case "jan": {
      const body = `45${d.slice(0, 10)}`;
      return body + checkDigit(body);
    }
    case "isbn": {
      const body = `979${d.slice(0, 9)}`;
      return body + checkDigit(body);
    }
    case "itf": {
      const body = `1${d}`; // indicator + 12 digits = 13
      return body + checkDigit(body);
    }
    case "custom":
      return `RSC-${d}`;
  }
}
