import type { Result } from "../../kernel/result.js";
import type { ApiError } from "../../contract/errors.js";
import type { Policy } from "../../engine/limits.js";
import type { Credential } from "../../engine/auth/credentials.js";
import type { StoreState } from "../../engine/store.js";
import type { World } from "../../engine/world.js";

export interface HandlerContext {
  readonly world: World;
  readonly store: StoreState;
  readonly credential: Credential;
  /** Path parameters, already checked to be UUIDs. */
  readonly params: Readonly<Record<string, string>>;
  /** Query values, validated against the operation's query schema. */
  readonly query: Readonly<Record<string, unknown>>;
  /** The body, validated against the operation's body schema (undefined when it takes none). */
  readonly body: unknown;
  readonly now: number;
  /** `{api_root}` of this request. */
  readonly apiRoot: string;
  /** Counts this request under a body-dependent limit; the 429 refusal when it is exhausted. */
  limit(policy: Policy): ApiError | undefined;
}

/**
 * A handler translates one operation to the engine. Its value is the payload the operation's
 * `kind` wraps: a document (single), a ListPage (list), an array (items), nothing (empty).
 */
export type Handler = (ctx: HandlerContext) => Result<unknown, ApiError> | Promise<Result<unknown, ApiError>>;
