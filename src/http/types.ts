// The simulator's own request and response shapes. Both adapters (WHATWG fetch and node:http)
// convert to and from these; nothing below the adapters knows either library.

export interface SimRequest {
  readonly method: string;
  /** The path as sent, percent-encoded, without the query. */
  readonly path: string;
  /** The query string without `?`. */
  readonly query: string;
  /** Header names in lower case; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Uint8Array | null;
  /** True when the body was longer than MAX_BODY_BYTES and was not read whole. */
  readonly bodyTooLarge?: boolean;
  readonly remoteAddress: string;
  /** `http://host:port` the request was addressed to: the API root for links and the OpenAPI server URL. */
  readonly origin: string;
}

/** The key of the rule branches an answer's maker named (contract/coverage-branches.ts, `marked`). Never sent. */
export const BRANCHES: unique symbol = Symbol("branches");

/** The key of an answer's body parts (`bodyParts` in respond.ts). */
export const BODY_PARTS: unique symbol = Symbol("body parts");

/**
 * The key of the cached parts a short answer's body text was joined from (`bodySource` in respond.ts):
 * the journal keeps those bytes, which live in the row cache anyway, instead of the text made for one
 * request.
 */
export const JOINED_FROM: unique symbol = Symbol("joined from");

/** The parts an answer's `text` was joined from, valid while it is the body of the answer `of`. */
export interface JoinedParts {
  readonly of: SimResponse;
  readonly text: string;
  readonly parts: readonly Uint8Array[];
  readonly length: number;
}

/** An answer's body as parts, valid for the answer `of` only (a copy made by spreading it is not `of`). */
export interface BodyParts {
  readonly of: SimResponse;
  readonly parts: readonly Uint8Array[];
  /** The parts' total length in bytes (the answer's Content-Length). */
  readonly length: number;
}

export interface SimResponse {
  status: number;
  headers: Record<string, string>;
  /**
   * An answer assembled from cached rows joins this text from its parts only when it is read; the node
   * adapter sends the parts themselves (`bodyParts` in respond.ts), the same bytes.
   */
  body: string | Uint8Array | null;
  /** The body's parts, set by `jsonResponse` for an answer assembled from cached rows; read with `bodyParts`. */
  [BODY_PARTS]?: BodyParts | undefined;
  /** The parts a short body was joined from; read with `bodySource`. */
  [JOINED_FROM]?: JoinedParts | undefined;
  /** Rule branches named by the code that made the answer (`ApiError.branch`). */
  [BRANCHES]?: readonly string[] | undefined;
  /** Set on answers of injected faults, which no document describes. Never sent. */
  injected?: true;
}

/** A sane request body limit: far above the largest valid document (a 100-line batch, a full product). */
export const MAX_BODY_BYTES = 1024 * 1024;
