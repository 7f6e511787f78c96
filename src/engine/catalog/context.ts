import type { ApiError } from "../../contract/errors.js";
import type { StoreState } from "../store.js";
import type { World } from "../world.js";

/** What a catalog operation needs: the store, the world (ids, images) and the time of the request. */
export interface CatalogContext {
  readonly world: World;
  readonly store: StoreState;
  readonly now: number;
  /** Counts one product write that imports an image; the refusal when the limit is reached. */
  readonly countImageWrite: () => ApiError | undefined;
}
