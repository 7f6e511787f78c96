import { Mismatch } from "./outcomes.js";

// The spec's resources and envelopes as the spec states them (Resources and their fields, Endpoints,
// Errors, Authentication), written from conformance/spec/retail-api-v1.md and never from the
// simulator's contract: the judge reads answers by what the spec promises.
//
// The readers below check only the envelope (`{data: {...}}`, `{data: [...]}`, `{error: {...}}`). The
// fields inside are the ambient schema check's to judge (ambient/contract.ts): every API answer a
// rule sees has passed it while ambient checks are on, so a rule reads a field typed as the spec types
// it. Where ambient checks pause (injected faults, the run's own housekeeping) a rule reads defensively.

/** A JSON object of unknown fields. */
export type Json = { readonly [key: string]: unknown };

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Spec, Resources: Product sub-records. */
export interface ProductCode {
  readonly id: string;
  readonly type: "upc" | "isbn" | "itf" | "ean" | "jan" | "custom";
  readonly code: string;
}
export interface ProductTag {
  readonly id: string;
  readonly name: string;
}
export interface ProductSupplier {
  readonly supplier_id: string;
  readonly is_primary: boolean;
  readonly supplier_code: string | null;
  readonly supplier_name?: string;
}
export interface ProductAttribute {
  readonly id: string;
  readonly name: string;
  readonly position: number;
}
export interface ProductVariantOption {
  readonly attribute_id: string;
  readonly value: string;
}
export interface ProductComponent {
  readonly product_id: string;
  readonly quantity: number;
}

/** Spec, Resources: Product. */
export interface Product {
  readonly id: string;
  readonly sku: string;
  readonly name: string;
  readonly description: string | null;
  readonly active: boolean;
  readonly is_gift_card: boolean;
  readonly has_inventory: boolean;
  readonly has_variants: boolean;
  readonly variant_parent_id: string | null;
  readonly is_composite: boolean;
  readonly brand_id: string | null;
  readonly category_id: string;
  readonly retail_price: number;
  readonly loyalty_amount: number | null;
  readonly sales_account_code: string | null;
  readonly purchase_account_code: string | null;
  readonly weight: number | null;
  readonly length: number | null;
  readonly width: number | null;
  readonly height: number | null;
  readonly weight_unit: string | null;
  readonly dimension_unit: string | null;
  readonly image_url: string | null;
  readonly image_thumb_url: string | null;
  readonly codes: readonly ProductCode[];
  readonly tags: readonly ProductTag[];
  readonly suppliers: readonly ProductSupplier[];
  readonly variant_options: readonly ProductVariantOption[];
  readonly variant_attributes: readonly ProductAttribute[];
  readonly components: readonly ProductComponent[];
  readonly created_at: string;
  readonly updated_at: string;
  readonly version: string;
}

/** Spec, Resources: Brand. */
export interface Brand {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly version: string;
}

/** Spec, Resources: Category. */
export interface Category {
  readonly id: string;
  readonly name: string;
  readonly parent_id: string | null;
  readonly depth: number;
  readonly version: string;
}

/** Spec, Resources: Tag and Supplier (standalone: "not shown beyond their ids and names"). */
export interface Named {
  readonly id: string;
  readonly name: string;
  readonly version?: string;
}

/** Spec, Resources: Customer. */
export interface Customer {
  readonly id: string;
  readonly customer_group_id: string;
  readonly customer_code: string;
  readonly first_name: string;
  readonly last_name: string | null;
  readonly email: string | null;
  readonly on_account_limit: number;
  readonly enable_loyalty: boolean;
  readonly dont_email: boolean;
  readonly dont_sms: boolean;
  readonly do_not_sell_share: boolean;
  readonly is_walk_in: boolean;
  readonly created_at: string;
  readonly updated_at: string;
  readonly version: string;
  /** The other nullable strings of the table (company_name, phone, ..., custom_field_4). */
  readonly [field: string]: unknown;
}

/** Spec, Resources: Outlet. */
export interface Outlet {
  readonly id: string;
  readonly name: string;
  readonly timezone: string;
  readonly status: string;
  readonly default_tax_id: string;
  readonly version: string;
}

/** Spec, Resources: AdjustmentReason. */
export interface Reason {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly is_system: boolean;
  readonly version: string;
}

/** Spec, Resources: InventoryLevel. */
export interface InventoryLevel {
  readonly outlet_id: string;
  readonly on_hand: number;
  readonly reorder_method: string;
  readonly reorder_point: number | null;
  readonly reorder_amount: number | null;
  readonly reorder_target: number | null;
  readonly version: string;
}

/** Spec, Resources: Stock write result (single set). */
export interface StockWrite {
  readonly changed: boolean;
  readonly previous: number;
  readonly on_hand: number;
  readonly delta: number;
  readonly adjustment_id: string | null;
  readonly movement_id: string | null;
}

/** Spec, Resources: InventoryBatchLineResult. */
export interface BatchLine {
  readonly product_id: string;
  readonly outlet_id: string;
  readonly changed: boolean | null;
  readonly previous: number | null;
  readonly on_hand: number | null;
  readonly delta: number | null;
  readonly sku?: string;
  readonly replayed?: boolean;
}

/** Spec, Resources: Identity (`GET /me`). */
export interface Identity {
  readonly store_name: string;
  readonly domain_prefix: string;
  readonly scopes: readonly string[];
  readonly key: { readonly id: string; readonly name: string };
}

/** Spec, Resources: Sale, its known fields ("Fields of the sale document beyond those named: not shown"). */
export interface Sale {
  readonly id: string;
  readonly status: string;
  readonly completed_at: string | null;
  readonly outlet_id: string;
  readonly customer_id: string | null;
  readonly parent_sale_id: string | null;
  readonly version: string;
  readonly total: number;
  readonly tax_total: number;
  readonly paid_total: number;
}

/** Spec, Resources: Tombstone. */
export interface Tombstone {
  readonly id: string;
  readonly deleted_at: string;
  readonly version: string;
}

/** A row of the product (or customer) feed: the document, or with `include_deleted=true` a tombstone. */
export type FeedRow = Pick<Tombstone, "id" | "version"> & Partial<Product> & Partial<Tombstone>;

/** Spec, Endpoints: "Response: `{data: [...], next_cursor: string or null, has_more: boolean}`". */
export interface Page<T> {
  readonly data: readonly T[];
  readonly next_cursor?: unknown;
  readonly has_more?: unknown;
}

/** Spec, Errors: `{"error": {"code": string, "message": string, "fields"?: [{field, message}]}}`. */
export interface ErrorBody {
  readonly code?: unknown;
  readonly message?: unknown;
  readonly fields?: unknown;
}

/** Spec, Authentication 6 and 8: the token endpoint's answer, a token or the OAuth error shape. */
export interface TokenAnswer {
  readonly access_token?: unknown;
  readonly refresh_token?: unknown;
  readonly token_type?: unknown;
  readonly expires_in?: unknown;
  readonly scope?: unknown;
  readonly store_name?: unknown;
  readonly api_base_url?: unknown;
  readonly error?: unknown;
  readonly error_description?: unknown;
}

/** What the readers read: a reply's parsed body (a Reply of context.ts, or an answer the model keeps). */
export interface Parsed {
  readonly json: unknown;
}
/** A reply with its text, for the readers that name what came instead. */
interface Reply extends Parsed {
  readonly text: string;
}

/** Spec, Authentication 8: the token endpoint's OAuth error code (`{error, error_description}`) when it is a string. */
export function oauthCode(reply: Parsed): string | undefined {
  const error = bodyOf(reply)?.error;
  return typeof error === "string" ? error : undefined;
}

/** Spec, Authentication 6 and 8: the token endpoint's answer, its fields unchecked (none when the body is not a JSON object). */
export const tokenAnswerOf = (reply: Parsed): TokenAnswer => bodyOf(reply) ?? {};

/** The token answer's access_token when it is a string. */
export function accessTokenOf(reply: Parsed): string | undefined {
  const t = tokenAnswerOf(reply).access_token;
  return typeof t === "string" ? t : undefined;
}

/** The token answer's refresh_token when it is a string. */
export function refreshTokenOf(reply: Parsed): string | undefined {
  const t = tokenAnswerOf(reply).refresh_token;
  return typeof t === "string" ? t : undefined;
}

// Readers: each checks the envelope and answers undefined (or throws a Mismatch, the expect* ones)
// when it is not there, so a broken server fails a rule and never crashes the judge.

/** The body as a JSON object, or undefined (empty, not JSON, an array or a scalar). */
export const bodyOf = (reply: Parsed): Json | undefined => (isObject(reply.json) ? reply.json : undefined);

/** `data` of `{data: {...}}`, or undefined. */
export function dataOf<T>(reply: Parsed): T | undefined {
  const data = bodyOf(reply)?.data;
  return isObject(data) ? (data as T) : undefined;
}

/** `data` of `{data: [...]}`, or undefined. */
export function rowsOf<T>(reply: Parsed): readonly T[] | undefined {
  const data = bodyOf(reply)?.data;
  return Array.isArray(data) ? (data as T[]) : undefined;
}

/** The list page `{data: [...], next_cursor, has_more}`, or undefined when data is not an array. */
export function pageOf<T>(reply: Parsed): Page<T> | undefined {
  const body = bodyOf(reply);
  const data = body?.data;
  return Array.isArray(data) ? { data, next_cursor: body?.next_cursor, has_more: body?.has_more } : undefined;
}

/** The page's next cursor when it says there is more (`has_more: true` and a string cursor). */
export function moreAfter(page: Page<unknown>): string | undefined {
  return page.has_more === true && typeof page.next_cursor === "string" ? page.next_cursor : undefined;
}

/** The error object of the spec's envelope, or undefined. */
export function errorOf(reply: Parsed): ErrorBody | undefined {
  const error = bodyOf(reply)?.error;
  return isObject(error) ? error : undefined;
}

/** `data.id` of `{data: {id, ...}}` when it is a string (a created or read resource's id), or undefined. */
export function idOf(reply: Parsed): string | undefined {
  const id = dataOf<{ id?: unknown }>(reply)?.id;
  return typeof id === "string" ? id : undefined;
}

/** The error envelope's code when it is a string. */
export function errorCode(reply: Parsed): string | undefined {
  const code = errorOf(reply)?.code;
  return typeof code === "string" ? code : undefined;
}

/** `data` of `{data: {...}}`, or a Mismatch naming what was expected and the body that came. */
export function expectData<T>(reply: Reply, expected: string): T {
  const data = dataOf<T>(reply);
  if (data === undefined) throw new Mismatch(expected, reply.text.slice(0, 300));
  return data;
}

/** `data` of `{data: [...]}`, or a Mismatch naming what was expected and the body that came. */
export function expectRows<T>(reply: Reply, expected: string): readonly T[] {
  const rows = rowsOf<T>(reply);
  if (rows === undefined) throw new Mismatch(expected, reply.text.slice(0, 300));
  return rows;
}

/** The list page `{data: [...], next_cursor, has_more}`, or a Mismatch naming what was expected and the body that came. */
export function expectPage<T>(reply: Reply, expected: string): Page<T> {
  const page = pageOf<T>(reply);
  if (page === undefined) throw new Mismatch(expected, reply.text.slice(0, 300));
  return page;
}

/** The names in the error envelope's `fields` (Spec, Errors: `[{field, message}]`), none when it has none. */
export function errorFields(reply: Parsed): string[] {
  const fields = errorOf(reply)?.fields;
  return Array.isArray(fields) ? fields.map((f: unknown) => String(isObject(f) ? f.field : undefined)) : [];
}

/** Exactly this status and code, naming exactly this one field (a strict choice's refusal). */
export const exactError = (reply: Parsed & { readonly status: number }, status: number, code: string, field: string) =>
  reply.status === status &&
  errorCode(reply) === code &&
  JSON.stringify(errorFields(reply)) === JSON.stringify([field]);

/** A control plane answer's document, under `data` or bare (docs/interfaces.md, Control plane). */
export function controlDocOf(reply: Parsed): Json | undefined {
  const body = bodyOf(reply);
  const data = body?.data;
  return isObject(data) ? data : body;
}

// The control plane's documents the rules read (docs/interfaces.md, Control plane): not the spec's, and
// not judged by the ambient checks, so each is read field by field with the types checked where used.

/** `GET {control}/credentials`: the stores and their keys. */
export interface ControlStore {
  readonly prefix?: unknown;
  readonly base_url?: unknown;
  readonly plan?: unknown;
  readonly status?: unknown;
  readonly keys?: readonly ControlKey[];
}
export interface ControlKey {
  readonly token?: unknown;
  readonly name?: unknown;
  readonly state?: unknown;
  readonly scopes?: readonly unknown[];
}

/** The objects of a control document's list, none when it is not a list. */
export const listOf = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** The strings of a control document's list, none when it is not a list. */
export const stringsOf = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

/** The stores of `GET {control}/credentials` (its parsed body), none when it lists none. */
export const controlStores = (credentials: unknown): readonly ControlStore[] =>
  listOf(isObject(credentials) ? credentials.stores : undefined);
