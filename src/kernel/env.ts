import type { Clock, Sleep } from "./clock.js";
import type { Rng } from "./random.js";

/** Everything with an effect that the engine may use: it sees time, ids and waiting only through this. */
export interface Env {
  readonly clock: Clock;
  readonly ids: Rng;
  readonly sleep: Sleep;
}
