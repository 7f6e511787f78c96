import { createClock, realSleep, type Clock, type ClockMode, type Sleep } from "./kernel/clock.js";
import type { Result } from "./kernel/result.js";
import {
  CONTROL_OPERATIONS,
  type ControlFunction,
  type ControlOperations,
  type LooseControlInput,
} from "./contract/control-operations.js";
import type { ApiError } from "./contract/errors.js";
import type { FixtureSpec } from "./contract/schemas/fixture.js";
import type { FaultBody, KeyBody, StorePatchBody } from "./contract/schemas/control.js";
import type * as control from "./engine/control.js";
import { runControl, type ControlResult } from "./engine/control-handlers.js";
import { buildWorld } from "./engine/build-world.js";
import type { World } from "./engine/world.js";
import { createServer } from "./http/app.js";
import { toResponse, toSimRequest } from "./http/fetch.js";
import { listen, type Listening, type ServerLimits } from "./http/node.js";
import type { RequestHandler } from "./http/ports.js";
import { publicOrigin } from "./http/public-url.js";
import type { SimRequest, SimResponse } from "./http/types.js";
import { loadFixture } from "../scenarios/fixtures/index.js";

export interface SimulatorOptions {
  /** Every id, token and fixture value derives from it. Default 1. */
  seed?: number;
  /** `demo` (default), `empty`, a path to a JSON fixture, or a fixture document. */
  fixture?: string | FixtureSpec;
  /** `system` (default): wall clock plus a travel offset; `manual`: frozen until moved. */
  clock?: ClockMode;
  /** First reading of the clock (ISO 8601 or epoch ms). Manual default 2026-01-01T00:00:00Z; system default now. */
  now?: string | number;
  /** Serve the /_sim control plane. Default true. */
  control?: boolean;
  /** When set, every /_sim request must carry `Authorization: Bearer <controlToken>` (compared in constant time). */
  controlToken?: string;
  /**
   * The origin (`http(s)://host[:port]`, no path) every URL the simulator writes starts with: `{api_root}` in
   * credentials, `api_base_url`, image URLs and the OpenAPI document's servers. Default: the request's own origin
   * (its Host header, or the URL given to `fetch`). Fix it for byte-identical runs on any port.
   */
  publicUrl?: string;
  /** Where internal errors are reported. */
  log?: (line: string) => void;
  /** The real-time wait used by delay faults; tests pass a controlled one. */
  sleep?: Sleep;
  /** Rate limiting is on unless turned off here explicitly (benchmarks, load tests). Default true. */
  rateLimits?: boolean;
  /**
   * Called once per answered request, in process or over a socket, with the request and the response about to be
   * sent (tests judge every response against the OpenAPI document here). It should only read them.
   */
  onExchange?: (req: SimRequest, res: SimResponse) => void;
}

/** A control operation refused its input; `error` is the spec's error object. */
export class ControlError extends Error {
  constructor(readonly error: ApiError) {
    super(`${error.code}: ${error.message}`);
  }
}

/**
 * The control operations of the table (contract/control-operations.ts) as functions: typed input (path
 * parameters and body) and result; a refusal throws `ControlError`. They run exactly what the /_sim
 * routes run, without the JSON: `sim.control.createKey({ params: { prefix: "demo" }, body })`.
 */
export type ControlFunctions = {
  readonly [O in ControlOperations[number] as O["id"]]: ControlFunction<O, ControlResult<O["id"]>>;
};

type ControlRunner = (id: string, input: LooseControlInput) => Result<unknown, ApiError>;

function controlFunctions(run: ControlRunner): ControlFunctions {
  const entries = CONTROL_OPERATIONS.map((op) => {
    const call = (input: { params?: Readonly<Record<string, string>>; body?: unknown } = {}) => {
      // Like the /_sim route, a body left out is `{}`.
      const result = run(op.id, { params: input.params ?? {}, body: input.body ?? (op.body ? {} : undefined) });
      if (!result.ok) throw new ControlError(result.error);
      return result.value;
    };
    return [op.id, call] as const;
  });
  // Object.fromEntries forgets which function belongs to which id; each was made for its own operation.
  return Object.fromEntries(entries) as unknown as ControlFunctions;
}

const DEFAULT_API_ROOT = "http://127.0.0.1:4747";

/**
 * The simulator: the current World (replaced on reset) behind a fetch handler, a node:http server and
 * the control operations as functions. The http layer sees none of it but small ports: a getter of the
 * current world, the control settings and a runner of control operations.
 */
export class Simulator {
  readonly controlEnabled: boolean;
  readonly controlToken: string | undefined;
  /** The control operations of the /_sim table as typed functions against the current world. */
  readonly control: ControlFunctions;
  private current: World;
  private readonly server: RequestHandler;
  private readonly clockSource: Clock;
  private readonly sleep: Sleep;
  private readonly startSeed: number;
  private readonly startFixture: string | FixtureSpec;
  private readonly publicUrl: string | undefined;
  private listening?: Listening;

  constructor(readonly options: SimulatorOptions = {}) {
    const start = typeof options.now === "string" ? Date.parse(options.now) : options.now;
    if (start !== undefined && !Number.isFinite(start)) throw new Error(`now: "${options.now}" is not a date-time`);
    this.clockSource = createClock(options.clock ?? "system", start);
    this.sleep = options.sleep ?? realSleep;
    this.controlEnabled = options.control ?? true;
    this.controlToken = options.controlToken === "" ? undefined : options.controlToken;
    this.startSeed = options.seed ?? 1;
    this.startFixture = options.fixture ?? "demo";
    this.publicUrl = Simulator.checkedPublicUrl(options.publicUrl);
    this.current = this.build(this.startSeed, this.startFixture);
    this.server = createServer({
      world: () => this.current,
      control: {
        enabled: this.controlEnabled,
        token: this.controlToken,
        run: (id, input, apiRoot) => this.runControl(id, input, apiRoot),
      },
      log: options.log,
    });
    this.control = controlFunctions((id, input) => this.runControl(id, input, this.apiRoot));
  }

  /**
   * The current world (every store, key, limit and fault). `reset()` replaces it: read `sim.world` again
   * after a reset instead of keeping it; a world kept from before is the old one, which only requests
   * that were in flight at the reset still use.
   */
  get world(): World {
    return this.current;
  }

  /**
   * WHATWG fetch: `sim.fetch("http://sim/demo/v1/me", {headers})`, no socket needed. Bound to the simulator, so
   * it can be passed on as a client's custom fetch (`createClient({ fetch: sim.fetch })`).
   */
  fetch = async (input: string | URL | Request, init?: RequestInit & { remoteAddress?: string }): Promise<Response> => {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    return toResponse(await this.handle(await toSimRequest(request, init?.remoteAddress ?? "127.0.0.1")));
  };

  /**
   * The simulator's own request shape, for adapters and tests that need exact control. Bound like `fetch`;
   * a wrapper may replace it (`sim.handle = wrap(sim.handle)`), and `fetch` and `listen` then go through it.
   */
  handle = async (req: SimRequest): Promise<SimResponse> => {
    const res = await this.server(this.publicUrl === undefined ? req : { ...req, origin: this.publicUrl });
    this.options.onExchange?.(req, res);
    return res;
  };

  /** Serves on node:http; loopback unless another host is given. */
  async listen(port = 0, host = "127.0.0.1", limits?: Partial<ServerLimits>): Promise<Listening> {
    this.listening = await listen((req) => this.handle(req), port, host, limits);
    return this.listening;
  }

  get url(): string | undefined {
    return this.listening?.url;
  }

  /** Back to the state right after start: stores, keys, limits, idempotency records, faults and the clock. */
  reset(options: { seed?: number; fixture?: string | FixtureSpec } = {}): void {
    // Requests held by the old world's faults go on (against the old world) rather than hang.
    this.current.faults.clear();
    this.clockSource.reset();
    this.current = this.build(options.seed ?? this.startSeed, options.fixture ?? this.startFixture);
  }

  readonly clock = {
    now: (): string => this.control.getClock().now,
    advance: (seconds: number): string => this.control.moveClock({ body: { advance_seconds: seconds } }).now,
    set: (when: string): string => this.control.moveClock({ body: { set: when } }).now,
  };

  credentials(apiRoot = this.apiRoot): control.CredentialsView {
    return controlFunctions((id, input) => this.runControl(id, input, apiRoot)).credentials();
  }

  /** The token of a store's key by name: `sim.token("demo", "full")`. */
  token(prefix: string, keyName: string): string {
    const key = this.current.credentials.forStore(prefix).find((c) => c.name === keyName);
    if (!key) throw new ControlError({ code: "NOT_FOUND", message: `No key "${keyName}" in store "${prefix}".` });
    return this.current.issuedKeys.get(key.id) as string;
  }

  createKey(prefix: string, body: KeyBody): control.KeyView {
    return this.control.createKey({ params: { prefix }, body });
  }

  revokeKey(id: string): { id: string; state: "revoked" } {
    return this.control.revokeKey({ params: { id } });
  }

  patchStore(prefix: string, body: StorePatchBody) {
    return this.control.patchStore({ params: { prefix }, body });
  }

  addFault(body: FaultBody): control.FaultView {
    return this.control.addFault({ body });
  }

  clearFaults(): void {
    this.control.clearFaults();
  }

  /** Stops the server: no new connections; requests in flight finish (held ones are released first). */
  async close(): Promise<void> {
    this.current.faults.releaseHeld();
    await this.listening?.close();
    this.listening = undefined;
  }

  /** `{api_root}` of the library's calls: the public URL if one is set, else the server's URL once it listens. */
  private get apiRoot(): string {
    return this.publicUrl ?? this.url ?? DEFAULT_API_ROOT;
  }

  private static checkedPublicUrl(given: string | undefined): string | undefined {
    if (given === undefined) return undefined;
    const origin = publicOrigin(given);
    if (!origin.ok) throw new Error(`publicUrl: ${origin.error}`);
    return origin.value;
  }

  /** One control operation against the current world: what both the /_sim routes and `sim.control` run. */
  private runControl(id: string, input: LooseControlInput, apiRoot: string): Result<unknown, ApiError> {
    const reset = (options: { seed?: number; fixture?: string | FixtureSpec }) => {
      this.reset(options);
      return this.current;
    };
    return runControl(id, { world: this.current, apiRoot, reset }, input);
  }

  private build(seed: number, fixture: string | FixtureSpec): World {
    const time = { clock: this.clockSource, sleep: this.sleep };
    const world = buildWorld(loadFixture(fixture, seed), seed, time, { rateLimits: this.options.rateLimits ?? true });
    world.log = this.options.log;
    return world;
  }
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  return new Simulator(options);
}
