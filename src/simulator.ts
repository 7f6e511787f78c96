import { LAST_INSTANT, PAST_LAST_INSTANT, realSleep, type ClockMode, type Sleep } from "./kernel/clock.js";
import { fail, type Result } from "./kernel/result.js";
import {
  CONTROL_OPERATIONS,
  type ControlFunction,
  type ControlOperations,
  type LooseControlInput,
} from "./contract/control-operations.js";
import { apiError, type ApiError } from "./contract/errors.js";
import type { CoverageReport, JournalFilter, JournalPage, JournalView } from "./contract/journal.js";
import type { Snapshot } from "./contract/schemas/snapshot.js";
import type { FaultBody, KeyBody, SandboxBody, StorePatchBody } from "./contract/schemas/control.js";
import { capsOrThrow, ProcessBounds, type Caps } from "./engine/caps.js";
import type * as control from "./engine/control.js";
import { runControl, type ControlResult, type SandboxView } from "./engine/control-handlers.js";
import type { World } from "./engine/world.js";
import { createServer } from "./http/app.js";
import { JournalLedger } from "./http/journal.js";
import { toResponse, toSimRequest } from "./http/fetch.js";
import { type CloseOptions, type CloseReport, listen, type Listening, type ServerLimits } from "./http/node.js";
import type { RequestHandler, WorldPort } from "./http/ports.js";
import { allowedHost, bindAddress, ExposedControlError, isLoopback } from "./http/exposure.js";
import { publicOrigin } from "./http/public-url.js";
import type { SimRequest, SimResponse } from "./http/types.js";
import {
  DEFAULT_SANDBOX_LIMITS,
  journalOf,
  noSandbox,
  refusingBadFixtures,
  Sandboxes,
  type FixtureInput,
  type Sandbox,
} from "./sandboxes.js";

export interface SimulatorOptions {
  /** Every id, token and fixture value derives from it. Default 1. */
  seed?: number;
  /** `demo` (default), `empty`, `large`, a path to a JSON fixture or snapshot, a fixture document or a snapshot. */
  fixture?: FixtureInput;
  /** `system` (default): wall clock plus a travel offset; `manual`: frozen until moved. */
  clock?: ClockMode;
  /** First reading of the clock (ISO 8601 or epoch ms). Manual default 2026-01-01T00:00:00Z; system default now. */
  now?: string | number;
  /** Serve the /_sim control plane. Default true. */
  control?: boolean;
  /** When set, every /_sim request must carry `Authorization: Bearer <controlToken>` (compared in constant time). */
  controlToken?: string;
  /** Let `listen` serve /_sim without a token on a non-loopback address (else `ExposedControlError`). Default false. */
  insecureControl?: boolean;
  /**
   * The origin (`http(s)://host[:port]`, no path) every URL the simulator writes starts with: `{api_root}` in
   * credentials, `api_base_url`, image URLs and the OpenAPI document's servers. Default: the request's own origin
   * (its Host header, or the URL given to `fetch`). Fix it for byte-identical runs on any port.
   */
  publicUrl?: string;
  /**
   * Names a /_sim request's Host may carry, besides loopback addresses, `localhost` and the public URL's host,
   * while `listen` serves on loopback (docs/interfaces.md, Control plane). An invalid one throws an `Error`.
   */
  allowHosts?: readonly string[];
  /** Where internal errors are reported. */
  log?: (line: string) => void;
  /** The real-time wait used by delay faults; tests pass a controlled one. */
  sleep?: Sleep;
  /** Rate limiting is on unless turned off here explicitly (benchmarks, load tests). Default true. */
  rateLimits?: boolean;
  /** Called with each answered request and its response, in process or over a socket; it should only read them. */
  onExchange?: (req: SimRequest, res: SimResponse) => void;
  /** Live sandboxes at most, besides the default one (docs/interfaces.md, Sandboxes). Default 1000. */
  maxSandboxes?: number;
  /** A sandbox unused for this long is removed. Default 1800 (30 minutes). */
  sandboxIdleSeconds?: number;
  /** Bounds of the simulator's stores of state (idempotency records, rate-limit windows, ...): engine/caps.ts. */
  caps?: Partial<Caps>;
  /** The request journal and coverage of every sandbox (docs/interfaces.md, Journal and coverage). Default true. */
  journal?: boolean;
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
 * One sandbox seen from the library: its credentials and keys, its clock, and every control operation
 * scoped to it. The simulator is itself the handle of its default sandbox.
 */
export class SandboxHandle {
  /** The control operations of the /_sim table as typed functions against this sandbox. */
  readonly control: ControlFunctions;

  constructor(
    private readonly own: Sandbox,
    private readonly runner: (id: string, input: LooseControlInput, apiRoot: string) => Result<unknown, ApiError>,
    private readonly root: () => string,
    private readonly resetter: (options: { seed?: number; fixture?: FixtureInput }) => Result<World, ApiError>,
  ) {
    this.control = controlFunctions((id, input) => this.runner(id, input, this.root()));
  }

  get id(): string {
    return this.own.id;
  }

  /**
   * The sandbox's current world (every store, key, limit and fault). A reset replaces it: read it again
   * after a reset instead of keeping it; a world kept from before is the old one, which only requests
   * that were in flight at the reset still use.
   */
  get world(): World {
    return this.own.world;
  }

  readonly clock = {
    now: (): string => this.control.getClock().now,
    advance: (seconds: number): string => this.control.moveClock({ body: { advance_seconds: seconds } }).now,
    set: (when: string): string => this.control.moveClock({ body: { set: when } }).now,
  };

  credentials(apiRoot = this.root()): control.CredentialsView {
    return controlFunctions((id, input) => this.runner(id, input, apiRoot)).credentials();
  }

  /** The token of a store's key by name: `sim.token("demo", "full")`. */
  token(prefix: string, keyName: string): string {
    const world = this.own.world;
    const key = world.credentials.forStore(prefix).find((c) => c.name === keyName);
    if (!key) throw new ControlError({ code: "NOT_FOUND", message: `No key "${keyName}" in store "${prefix}".` });
    return world.issuedKeys.get(key.id) as string;
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

  /**
   * Back to the state right after it was made: stores, keys, limits, idempotency records, faults and the
   * clock; or to another seed, fixture or snapshot. A fixture that cannot be used throws a ControlError.
   */
  reset(options: { seed?: number; fixture?: FixtureInput } = {}): void {
    const reset = this.resetter(options);
    if (!reset.ok) throw new ControlError(reset.error);
  }

  /** The sandbox's journal: its newest exchanges, filtered (docs/interfaces.md, Journal and coverage). */
  journal(filter: JournalFilter = {}): JournalPage {
    return this.journalView().page(filter);
  }

  /** Which operations, statuses, error codes and rule branches this sandbox's exchanges met. */
  coverage(): CoverageReport {
    return this.journalView().coverage();
  }

  private journalView(): JournalView {
    if (!this.own.journal) throw new ControlError(apiError("NOT_FOUND", "The request journal is off."));
    return this.own.journal;
  }

  /** The whole state as `GET /_sim/snapshot` answers it (docs/interfaces.md, Snapshots); read it, do not change it. */
  snapshot(): Snapshot {
    return this.control.snapshot();
  }
}

/**
 * The simulator: its sandboxes (the default one is the simulator's own world, replaced on reset) behind a
 * fetch handler, a node:http server and the control operations as functions. The http layer sees none of
 * it but small ports: which world a request belongs to, the control settings and a runner of control
 * operations.
 */
export class Simulator extends SandboxHandle {
  readonly controlEnabled: boolean;
  readonly controlToken: string | undefined;
  private readonly sandboxes: Sandboxes;
  private readonly server: RequestHandler;
  private readonly publicUrl: string | undefined;
  private listening?: Listening;

  constructor(readonly options: SimulatorOptions = {}) {
    const start = typeof options.now === "string" ? Date.parse(options.now) : options.now;
    if (start !== undefined && !Number.isFinite(start)) throw new Error(`now: "${options.now}" is not a date-time`);
    if (start !== undefined && start > LAST_INSTANT) throw new Error(`now: "${options.now}" ${PAST_LAST_INSTANT}`);
    const bounds = new ProcessBounds(capsOrThrow(options.caps));
    const sandboxes = new Sandboxes(
      { seed: options.seed ?? 1, fixture: options.fixture ?? "demo", clock: options.clock ?? "system", now: start },
      {
        sleep: options.sleep ?? realSleep,
        rateLimits: options.rateLimits ?? true,
        bounds,
        log: options.log,
        journals: options.journal === false ? undefined : new JournalLedger(bounds.caps.journalBytes, options.log),
      },
      {
        max: options.maxSandboxes ?? DEFAULT_SANDBOX_LIMITS.max,
        idleMs:
          options.sandboxIdleSeconds === undefined ? DEFAULT_SANDBOX_LIMITS.idleMs : options.sandboxIdleSeconds * 1000,
      },
      (apiRoot, id) => `${apiRoot}/_sim/sandboxes/${id}`,
    );
    super(
      sandboxes.main,
      (id, input, apiRoot) => (this as Simulator).runControl(id, input, apiRoot),
      () => (this as Simulator).apiRoot,
      (reset) => (this as Simulator).resetSandbox(sandboxes.main, reset),
    );
    this.sandboxes = sandboxes;
    this.controlEnabled = options.control ?? true;
    this.controlToken = options.controlToken === "" ? undefined : options.controlToken;
    this.publicUrl = Simulator.checkedPublicUrl(options.publicUrl);
    const hostNames = new Set(this.publicUrl === undefined ? [] : [new URL(this.publicUrl).hostname]);
    for (const name of options.allowHosts ?? []) {
      const allowed = allowedHost(name);
      if (!allowed.ok) throw new Error(`allowHosts: ${allowed.error}`);
      hostNames.add(allowed.value);
    }
    this.server = createServer({
      worlds: this.worldPort(),
      control: {
        enabled: this.controlEnabled,
        token: this.controlToken,
        hostNames: () => (this.listening && isLoopback(this.listening.host) ? hostNames : undefined),
        maxFieldErrors: sandboxes.main.world.caps.fieldErrors,
        run: (id, input, apiRoot, sandbox) => this.runControl(id, input, apiRoot, sandbox),
      },
      log: options.log,
      journalOf,
    });
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

  /**
   * Serves on node:http; loopback unless another host is given. On an address other machines can reach, the
   * control plane must have a token, be off, or be opened with `insecureControl`: else an `ExposedControlError`.
   */
  async listen(port = 0, host = "127.0.0.1", limits?: Partial<ServerLimits>): Promise<Listening> {
    const address = await bindAddress(host);
    if (this.controlOpen && !isLoopback(address) && this.options.insecureControl !== true)
      throw new ExposedControlError(host, address);
    this.listening = await listen((req) => this.handle(req), port, address, limits);
    return this.listening;
  }

  /** True when the control plane is served without a token. */
  get controlOpen(): boolean {
    return this.controlEnabled && this.controlToken === undefined;
  }

  get url(): string | undefined {
    return this.listening?.url;
  }

  /**
   * A new sandbox: its own stores (their prefixes carry its id), keys, OAuth clients, clock, limits,
   * idempotency records and faults, built from the seed and fixture given (the simulator's by default).
   * Requests reach it through this simulator's `fetch` or server at its stores' base URLs.
   */
  sandbox(body: SandboxBody = {}): SandboxHandle & { readonly view: SandboxView; remove(): void } {
    const made = this.sandboxes.make(body);
    if (!made.ok) throw new ControlError(made.error);
    const sandbox = made.value;
    const handle = new SandboxHandle(
      sandbox,
      (id, input, apiRoot) => this.runControl(id, input, apiRoot, sandbox.id),
      () => this.apiRoot,
      (reset) => this.resetSandbox(sandbox, reset),
    );
    const sandboxes = this.sandboxes;
    const root = () => this.apiRoot;
    return Object.assign(handle, {
      get view() {
        return sandboxes.viewOf(sandbox, root());
      },
      remove: () => {
        const removed = sandboxes.remove(sandbox.id);
        if (!removed.ok) throw new ControlError(removed.error);
      },
    });
  }

  /**
   * Stops the server: no new connections, idle ones closed, every later answer with `Connection: close`.
   * Requests in flight (held ones are released first) have `graceSeconds` (default 5) to be answered; the
   * report counts those the grace cut off.
   */
  async close(options?: CloseOptions): Promise<CloseReport> {
    for (const world of this.sandboxes.worlds()) world.faults.releaseHeld();
    const report = (await this.listening?.close(options)) ?? { cutOff: 0 };
    this.listening = undefined;
    return report;
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

  private worldPort(): WorldPort {
    const sandboxes = this.sandboxes;
    const used = (sandbox: Sandbox): World => {
      sandboxes.touch(sandbox);
      return sandbox.world;
    };
    return {
      main: () => sandboxes.main.world,
      forStore: (prefix) => used(sandboxes.forStorePrefix(prefix)),
      forClient: (clientId) => used(sandboxes.forClientId(clientId)),
      forSandbox: (id) => {
        const sandbox = sandboxes.get(id);
        return sandbox && used(sandbox);
      },
      all: () => sandboxes.worlds(),
    };
  }

  /** One control operation against a sandbox's current world: what both the /_sim routes and the library run. */
  private runControl(
    id: string,
    input: LooseControlInput,
    apiRoot: string,
    sandboxId?: string,
  ): Result<unknown, ApiError> {
    const sandboxes = this.sandboxes;
    const sandbox = sandboxId === undefined ? sandboxes.main : sandboxes.get(sandboxId);
    if (!sandbox) return fail(noSandbox(sandboxId ?? ""));
    sandboxes.touch(sandbox);
    const reset = (options: { seed?: number; fixture?: FixtureInput }) => this.resetSandbox(sandbox, options);
    const ctx = { world: sandbox.world, sandbox: sandbox.id, apiRoot, reset, sandboxes, journal: sandbox.journal };
    return runControl(id, ctx, input);
  }

  private resetSandbox(sandbox: Sandbox, options: { seed?: number; fixture?: FixtureInput }): Result<World, ApiError> {
    const world = refusingBadFixtures(() => sandbox.reset(options));
    if (world.ok) this.sandboxes.reindex(sandbox);
    return world;
  }
}

export function createSimulator(options: SimulatorOptions = {}): Simulator {
  return new Simulator(options);
}
