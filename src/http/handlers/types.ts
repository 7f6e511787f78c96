import type { Static, TSchema } from "@sinclair/typebox";
import type { RawJson } from "../../kernel/raw-json.js";
import type { Result } from "../../kernel/result.js";
import type { ApiError } from "../../contract/errors.js";
import type { HandlerInput, Operation } from "../../contract/operation.js";
import type { Policy } from "../../engine/limits.js";
import type { Listing } from "../../engine/listing.js";
import type { Credential } from "../../engine/auth/credentials.js";
import type { StoreState } from "../../engine/store.js";
import type { World } from "../../engine/world.js";

/** What every handler gets beside its operation's typed input. */
export interface RequestContext {
  readonly world: World;
  readonly store: StoreState;
  readonly credential: Credential;
  readonly now: number;
  /** `{api_root}` of this request. */
  readonly apiRoot: string;
  /** Counts this request under a body-dependent limit; the 429 refusal when it is exhausted. */
  limit(policy: Policy): ApiError | undefined;
}

export type HandlerContext<O extends Operation = Operation> = RequestContext & HandlerInput<O>;

/** A document of a response schema: the value, or its JSON already serialized (a cached row). */
export type Doc<R> = R extends TSchema ? Static<R> | RawJson<Static<R>> : never;

/**
 * A write that was saved although it answers an error: the pipeline answers the operation's
 * `savedDespite` error with the document in `data` (spec, Product write rules 7).
 */
export class SavedDespite<T> {
  constructor(readonly document: T) {}
}

/**
 * What a handler of `O` returns, by the operation's response kind: a document (single, or a document
 * saved despite an error), a listing the pipeline pages (list: cursors, tombstones), the items (items),
 * nothing (empty), any JSON (document).
 */
export type HandlerOutput<O extends Operation> = string extends O["id"]
  ? unknown
  : O["kind"] extends "single"
    ? Doc<O["response"]> | SavedDespite<Doc<O["response"]>>
    : O["kind"] extends "list"
      ? Listing<Doc<O["response"]>>
      : O["kind"] extends "items"
        ? readonly Doc<O["response"]>[]
        : O["kind"] extends "empty"
          ? unknown
          : unknown;

/**
 * A handler translates one operation to the engine: typed input from the operation's declaration
 * in, the payload its `kind` wraps out; failures are values.
 */
export type Handler<O extends Operation = Operation> = (
  ctx: HandlerContext<O>,
) => Result<HandlerOutput<O>, ApiError> | Promise<Result<HandlerOutput<O>, ApiError>>;

/** One handler per operation of a table, each checked against its own operation. */
export type HandlerMap<Ops extends readonly Operation[]> = {
  readonly [O in Ops[number] as O["id"]]: Handler<O>;
};

/**
 * The pipeline's view of a handler of any operation (test tables included). It calls each handler
 * only with the input its own operation's declaration validated; a method signature lets every
 * typed handler stand here.
 */
export type AnyHandler = {
  run(ctx: HandlerContext): Result<unknown, ApiError> | Promise<Result<unknown, ApiError>>;
}["run"];
