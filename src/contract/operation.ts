import type { Static, TObject, TSchema } from "@sinclair/typebox";
import type { ErrorCode } from "./errors.js";
import type { PathParams } from "./path.js";
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

/**
 * A write that is saved even though it answers an error, which carries the saved document in `data`
 * beside it (spec, Product write rules 7: a failed image download still saves the product).
 */
export interface SavedDespite {
  readonly code: ErrorCode;
  readonly message: string;
}

/**
 * An operation is a declaration, not a handler: routing, validation, the OpenAPI document and the
 * handlers' types read it. The type parameters keep each schema's static type, so a handler of the
 * operation gets typed input and owes a typed result (see `HandlerInput` and `HandlerOutput`).
 */
export interface Operation<
  Id extends string = string,
  Path extends string = string,
  Query extends TObject = TObject,
  Body extends TSchema | undefined = TSchema | undefined,
  Response extends TSchema | undefined = TSchema | undefined,
  Kind extends ResponseKind = ResponseKind,
> {
  readonly id: Id;
  readonly method: Method;
  /** Relative to `{base_url}`; `{name}` segments are UUID path parameters. */
  readonly path: Path;
  readonly summary: string;
  readonly tag: string;
  /** `null`: any valid credential, no particular scope. */
  readonly scope: Scope | null;
  readonly idempotency: IdempotencyPolicy;
  readonly rateClasses: readonly RateClass[];
  readonly query: Query;
  /** The JSON body's schema; undefined when the operation takes none. */
  readonly body: Body;
  readonly kind: Kind;
  /** Schema of one item (list, items) or of the single payload. */
  readonly response: Response;
  readonly successStatus: number;
  /** Codes this operation can answer beyond the ones every operation can. */
  readonly errors: readonly ErrorCode[];
  /** Spec, Pagination and polling rules 4: with include_deleted, deleted rows are tombstones `{id, deleted_at, version}`. */
  readonly tombstones?: boolean;
  /** Spec, Inventory rules 3: on a replay, every item of `data` carries `replayed: true`. */
  readonly replayMarksItems?: boolean;
  /**
   * Spec, Customers: erasure. The success answer's `data` is this kind of record, with its personal
   * details: a stored replay of it follows the record's erasure (docs/spec-choices.md, Idempotency).
   */
  readonly answerShows?: "customer";
  /** The error a saved write may answer with its document in `data` (the pipeline wraps it). */
  readonly savedDespite?: SavedDespite;
  /**
   * The OpenAPI `description`, required so that no operation is declared without one: what the
   * operation does and the spec rules that govern it, quoted (“...”, found verbatim in the spec; a test
   * checks) and cited by section and rule ("Spec, Inventory rules 3: ..."), plus what an SDK author
   * needs (idempotency, pagination, scope, what the errors mean). Where the spec is silent it names the
   * simulator's choice (docs/spec-choices.md).
   */
  readonly description: string;
}

type Defaulted = "idempotency" | "rateClasses" | "query" | "successStatus" | "errors" | "body" | "response";

type OperationInput<
  Id extends string,
  Path extends string,
  Query extends TObject,
  Body extends TSchema | undefined,
  Response extends TSchema | undefined,
  Kind extends ResponseKind,
> = Omit<Operation<Id, Path, Query, Body, Response, Kind>, Defaulted> &
  Partial<Pick<Operation<Id, Path, Query, Body, Response, Kind>, Defaulted>>;

/** Declares an operation, keeping the static types of its path, query, body and response schemas. */
export function op<
  const Id extends string,
  const Path extends string,
  Kind extends ResponseKind,
  Query extends TObject = typeof NoQuery,
  Body extends TSchema | undefined = undefined,
  Response extends TSchema | undefined = undefined,
>(input: OperationInput<Id, Path, Query, Body, Response, Kind>): Operation<Id, Path, Query, Body, Response, Kind> {
  return {
    idempotency: "none",
    rateClasses: [],
    query: NoQuery as TObject as Query,
    successStatus: input.kind === "empty" ? 204 : 200,
    errors: [],
    body: undefined as Body,
    response: undefined as Response,
    ...input,
  };
}

/** The input of an operation whose types are unknown (the wide `Operation`): test tables and plumbing. */
interface LooseInput {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, unknown>>;
  readonly body: unknown;
}

/** The input of a declared operation: each part typed by its schema. */
interface DeclaredInput<O extends Operation> {
  /** Path parameters, already checked to be UUIDs: exactly the `{name}` segments of the path. */
  readonly params: PathParams<O["path"]>;
  /** Query values, coerced and validated against the operation's query schema. */
  readonly query: Static<O["query"]>;
  /** The body, validated against the operation's body schema (undefined when it takes none). */
  readonly body: O["body"] extends TSchema ? Static<O["body"]> : undefined;
}

/** What the pipeline hands a handler of `O`, validated against `O`'s declaration. */
export type HandlerInput<O extends Operation> = string extends O["id"] ? LooseInput : DeclaredInput<O>;

export { pathParams } from "./path.js";
