import type { Result } from "../kernel/result.js";
import type { ApiError } from "../contract/errors.js";
import type { LooseControlInput } from "../contract/control-operations.js";
import type { World } from "../engine/world.js";
import type { SimRequest, SimResponse } from "./types.js";

// What the http layer needs from the one who composes it (the Simulator), as small interfaces: it never
// sees the composer itself.

/** The whole server as one function. */
export type RequestHandler = (req: SimRequest) => Promise<SimResponse>;

/** The /_sim control plane: whether it is served, its token, and how its operations run. */
export interface ControlPort {
  readonly enabled: boolean;
  /** When set, every /_sim request must carry `Authorization: Bearer <token>`. */
  readonly token: string | undefined;
  /**
   * Runs a control operation of the table by id against the current world, with the input its
   * declaration asks for (the router's parameters, a validated body); `apiRoot` is the request's origin.
   */
  run(id: string, input: LooseControlInput, apiRoot: string): Result<unknown, ApiError>;
}

export interface ServerPorts {
  /** The current world. A request reads it once, when it arrives, and finishes in that world. */
  readonly world: () => World;
  readonly control: ControlPort;
  /** Where internal errors are reported. */
  readonly log?: (line: string) => void;
}
