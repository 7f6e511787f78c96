import type { Rng } from "../kernel/random.js";
import type { StoreState } from "./store.js";

/**
 * What an area operation (catalog, inventory, customers, sales) needs: its store, the stream new ids
 * draw from and the time of the request. Nothing of the rest of the world: an area never reaches
 * another store, a credential or a limit.
 */
export interface AreaContext {
  readonly store: StoreState;
  readonly ids: Rng;
  readonly now: number;
}
