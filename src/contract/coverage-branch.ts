// The shape of a rule branch of the coverage catalogue (coverage-branches.ts) and what its entries share:
// the spec's section names they cite and the tests they read an exchange with.

/** What the catalogue reads of one exchange. Texts are the start of each body (the journal's body cap). */
export interface BranchExchange {
  /** The operation id (`updateProduct`), `createToken`, `authorize`; null when no route matched. */
  readonly operation: string | null;
  readonly status: number;
  /** The error code (an envelope's `code`, an OAuth `error`), or null. */
  readonly code: string | null;
  /** True on an idempotent replay (the `Idempotent-Replayed: true` header). */
  readonly replayed: boolean;
  /** A query parameter as sent, decoded; undefined when absent. */
  param(name: string): string | undefined;
  /** A request header (lower-case name). */
  header(name: string): string | undefined;
  /** A response header (lower-case name). */
  answerHeader(name: string): string | undefined;
  /** A form field of the request body (the token endpoint's). */
  form(name: string): string | undefined;
  readonly responseText: string;
}

export interface CoverageBranch {
  /** A conformance rule id. */
  readonly id: string;
  /** Operations it can happen on; every one when absent. */
  readonly operations?: readonly string[];
  readonly status?: number;
  readonly code?: string;
  /** What else the exchange must show. */
  readonly when?: (x: BranchExchange) => boolean;
  /**
   * Necessary conditions of `when`, tested before it without reading the exchange: a text the query
   * string must contain, the answer replayed (Idempotent-Replayed: true), the error code one of these.
   */
  readonly queryHas?: string;
  readonly replayed?: true;
  readonly codeIn?: readonly string[];
  /** True when the pipeline names it itself (`ApiError.branch`): no exchange test. */
  readonly marked?: true;
  readonly spec: { readonly section: string; readonly quote: string };
  readonly provoke: string;
}

export const EMPTY_PAGE = /^\{"data":\[\]/;
export const fieldNamed = (x: BranchExchange, field: string) => x.responseText.includes(`"field":"${field}"`);

export const E = "Endpoints";
export const PW = "Endpoints: Product write rules";
export const DR = "Endpoints: Delete rules";
export const IR = "Endpoints: Inventory rules";
export const SR = "Endpoints: Sales list rules";
export const PG = "Endpoints: Pagination and polling rules";
export const ID = "Limits: Idempotency";
export const A = "Authentication";
export const L = "Limits";
export const ER = "Errors";
