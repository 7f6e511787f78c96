import { createClock, realSleep, type Clock, type ClockMode, type Sleep } from "./kernel/clock.js";
import type { ApiError } from "./contract/errors.js";
import type { FixtureSpec } from "./contract/schemas/fixture.js";
import type { ClockBody, FaultBody, KeyBody, StorePatchBody } from "./contract/schemas/control.js";
import * as control from "./engine/control.js";
import { World } from "./engine/world.js";
import { handle } from "./http/app.js";
import { toResponse, toSimRequest } from "./http/fetch.js";
import { listen, type Listening, type ServerLimits } from "./http/node.js";
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

function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: ApiError }): T {
  if (!result.ok) throw new ControlError(result.error);
  return result.value;
}

/** The simulator: one World (replaced on reset) behind a fetch handler, a node:http server and control functions. */
export class Simulator {
  world: World;
  readonly controlEnabled: boolean;
  readonly controlToken: string | undefined;
  private readonly clockSource: Clock;
  private readonly sleep: Sleep;
  private readonly startSeed: number;
  private readonly startFixture: string | FixtureSpec;
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
    this.world = this.build(this.startSeed, this.startFixture);
  }

  /** WHATWG fetch: `sim.fetch("http://sim/demo/v1/me", {headers})`, no socket needed. */
  async fetch(input: string | URL | Request, init?: RequestInit & { remoteAddress?: string }): Promise<Response> {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    return toResponse(await this.handle(await toSimRequest(request, init?.remoteAddress ?? "127.0.0.1")));
  }

  /** The simulator's own request shape, for adapters and tests that need exact control. */
  async handle(req: SimRequest): Promise<SimResponse> {
    const res = await handle(this, req);
    this.options.onExchange?.(req, res);
    return res;
  }

  /** Serves on node:http; loopback unless another host is given. */
  async listen(port = 0, host = "127.0.0.1", limits?: Partial<ServerLimits>): Promise<Listening> {
    this.listening = await listen(this, port, host, limits);
    return this.listening;
  }

  get url(): string | undefined {
    return this.listening?.url;
  }

  /** Back to the state right after start: stores, keys, limits, idempotency records, faults and the clock. */
  reset(options: { seed?: number; fixture?: string | FixtureSpec } = {}): void {
    // Requests held by the old world's faults go on (against the old world) rather than hang.
    this.world.faults.clear();
    this.clockSource.reset();
    this.world = this.build(options.seed ?? this.startSeed, options.fixture ?? this.startFixture);
  }

  readonly clock = {
    now: (): string => control.clockView(this.world).now,
    advance: (seconds: number): string => unwrap(control.moveClock(this.world, { advance_seconds: seconds })).now,
    set: (when: string): string => unwrap(control.moveClock(this.world, { set: when } as ClockBody)).now,
  };

  credentials(apiRoot = this.url ?? "http://127.0.0.1:4747"): control.CredentialsView {
    return control.credentialsView(this.world, apiRoot);
  }

  /** The token of a store's key by name: `sim.token("demo", "full")`. */
  token(prefix: string, keyName: string): string {
    const key = this.world.credentials.forStore(prefix).find((c) => c.name === keyName);
    if (!key) throw new ControlError({ code: "NOT_FOUND", message: `No key "${keyName}" in store "${prefix}".` });
    return this.world.issuedKeys.get(key.id) as string;
  }

  createKey(prefix: string, body: KeyBody): control.KeyView {
    return unwrap(control.createKey(this.world, prefix, body));
  }

  revokeKey(id: string): { id: string; state: "revoked" } {
    return unwrap(control.revokeKey(this.world, id));
  }

  patchStore(prefix: string, body: StorePatchBody) {
    return unwrap(control.patchStore(this.world, prefix, body));
  }

  addFault(body: FaultBody): control.FaultView {
    return unwrap(control.addFault(this.world, body));
  }

  clearFaults(): void {
    this.world.faults.clear();
  }

  /** Stops the server: no new connections; requests in flight finish (held ones are released first). */
  async close(): Promise<void> {
    this.world.faults.releaseHeld();
    await this.listening?.close();
    this.listening = undefined;
  }

  private build(seed: number, fixture: string | FixtureSpec): World {
    const world = new World(this.clockSource, this.sleep, seed, loadFixture(fixture, seed), {
      rateLimits: this.options.rateLimits ?? true,
    });
    world.log = this.options.log;
    return world;
  }
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  return new Simulator(options);
}
