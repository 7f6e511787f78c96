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
   * While the server listens on loopback, the names besides loopback addresses and `localhost` a /_sim request's
   * Host may carry (the public URL's host, `allowHosts`); undefined when any may (http/control.ts, controlRefusal).
   */
  hostNames(): ReadonlySet<string> | undefined;
  /** Field errors listed at most in one refusal of a control body (the `field-errors` cap). */
  readonly maxFieldErrors: number;
  /**
   * Runs a control operation of the table by id against the current world, with the input its
   * declaration asks for (the router's parameters, a validated body); `apiRoot` is the request's origin.
   */
  run(id: string, input: LooseControlInput, apiRoot: string, sandbox?: string): Result<unknown, ApiError>;
}

/**
 * Which world a request belongs to. Each sandbox is a world of its own; a request names its sandbox by
 * the store prefix of its path, the OAuth client it comes from, or the sandbox's control plane path.
 */
export interface WorldPort {
  /** The simulator's own (default) world: the control plane's root and every path nothing else claims. */
  main(): World;
  /** The world that has a store with this prefix (the main one when none has). */
  forStore(prefix: string): World;
  /** The world that registered this OAuth client (the main one when none did). */
  forClient(clientId: string): World;
  /** The world of a sandbox by id, or undefined when there is none. */
  forSandbox(id: string): World | undefined;
  /** Every world: an image stored by any of them is served. */
  all(): Iterable<World>;
}

export interface ServerPorts {
  /** The worlds. A request finds its own once, when it arrives, and finishes in that world. */
  readonly worlds: WorldPort;
  readonly control: ControlPort;
  /** Where internal errors are reported. */
  readonly log?: (line: string) => void;
  /** The request journal of a world's sandbox (none: nothing is journaled). */
  readonly journalOf?: (world: World) => ExchangeJournal | undefined;
}

/** Where the server writes down each API and OAuth exchange it answered (http/journal.ts). */
export interface ExchangeJournal {
  /** `startedAt`: on the world's clock (epoch ms); `ms`: real time spent answering. */
  record(req: SimRequest, response: SimResponse, operation: string | null, startedAt: number, ms: number): void;
}
