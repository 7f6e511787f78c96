import type { TObject, TSchema } from "@sinclair/typebox";
import type { ErrorCode } from "./errors.js";
import type { Scope } from "./scopes.js";
import { NoQuery } from "./schemas/common.js";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Spec, Limits, Idempotency paragraph: which routes take an `Idempotency-Key`. */
export type IdempotencyPolicy = "none" | "optional" | "required";

/** Limits beyond the general 120 per minute per credential. */
export type RateClass = "customers";

/**
 * How the payload is wrapped (spec, rule 7 of "What the service does"):
 * single `{data: {...}}`, list `{data, next_cursor, has_more}`, items `{data: [...]}` (not paginated),
 * empty 204, document the raw OpenAPI JSON.
 */
export type ResponseKind = "single" | "list" | "items" | "empty" | "document";

/** An operation is a declaration, not a handler: routing, validation and the OpenAPI document read it. */
export interface Operation<Id extends string = string> {
  readonly id: Id;
  readonly method: Method;
  /** Relative to `{base_url}`; `{name}` segments are UUID path parameters. */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  /** `null`: any valid credential, no particular scope. */
  readonly scope: Scope | null;
  readonly idempotency: IdempotencyPolicy;
  readonly rateClasses: readonly RateClass[];
  readonly query: TObject;
  readonly body?: TSchema;
  readonly kind: ResponseKind;
  /** Schema of one item (list, items) or of the single payload. */
  readonly response?: TSchema;
  readonly successStatus: number;
  /** Codes this operation can answer beyond the ones every operation can. */
  readonly errors: readonly ErrorCode[];
  /** Spec, Pagination and polling rules 4: with include_deleted, deleted rows are tombstones `{id, deleted_at, version}`. */
  readonly tombstones?: boolean;
  /** Spec, Inventory rules 3: on a replay, every item of `data` carries `replayed: true`. */
  readonly replayMarksItems?: boolean;
  /** Spec sentence or choice the operation rests on, shown in the OpenAPI description. */
  readonly note?: string;
}

type OperationInput<Id extends string> = Omit<
  Operation<Id>,
  "idempotency" | "rateClasses" | "query" | "successStatus" | "errors"
> &
  Partial<Pick<Operation<Id>, "idempotency" | "rateClasses" | "query" | "successStatus" | "errors">>;

export function op<const Id extends string>(input: OperationInput<Id>): Operation<Id> {
  return {
    idempotency: "none",
    rateClasses: [],
    query: NoQuery,
    successStatus: input.kind === "empty" ? 204 : 200,
    errors: [],
    ...input,
  };
}

export { pathParams } from "./path.js";
