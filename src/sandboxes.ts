import {
  createClock,
  iso,
  LAST_INSTANT,
  PAST_LAST_INSTANT,
  systemClock,
  type Clock,
  type ClockMode,
  type Sleep,
} from "./kernel/clock.js";
import { fail, ok, type Result } from "./kernel/result.js";
import { apiError, invalid, type ApiError } from "./contract/errors.js";
import type { FixtureSpec } from "./contract/schemas/fixture.js";
import { DEFAULT_RUN, type SandboxBody } from "./contract/schemas/control.js";
import type { Snapshot } from "./contract/schemas/snapshot.js";
import { buildWorld } from "./engine/build-world.js";
import type { ProcessBounds } from "./engine/caps.js";
import { credentialsView } from "./engine/control.js";
import { journalOff, type SandboxDirectory, type SandboxView } from "./engine/control-handlers.js";
import { restoreWorld } from "./engine/snapshot/restore.js";
import { DEFAULT_SANDBOX_ID, retarget, streamOf } from "./engine/snapshot/retarget.js";
import type { World } from "./engine/world.js";
import type { CoverageReport, RunView } from "./contract/journal.js";
import { Journal, type JournalLedger } from "./http/journal.js";
import { FixtureError, isSnapshot, loadFixture, type WorldSource } from "../scenarios/fixtures/index.js";

// Sandboxes: complete simulated services side by side in one process, each with its own stores, keys,
// OAuth clients, clock, limits, idempotency records, faults and images (docs/interfaces.md, Sandboxes).
// The default sandbox is the simulator's own world; the others are made and removed through the
// control plane or the library. A sandbox's store prefixes carry its id, so the API reaches it exactly
// as the spec says, `{api_root}/{store_prefix}/v1`, and its keys come from a secrets stream of its own.

/** The simulator's own sandbox: its world is built from the fixture as given, its prefixes carry no suffix. */
export const DEFAULT_SANDBOX = DEFAULT_SANDBOX_ID;

/** A built-in fixture's name or a file's path, a fixture document or a snapshot. */
export type FixtureInput = string | FixtureSpec | Snapshot;

export interface SandboxSettings {
  readonly seed: number;
  readonly fixture: FixtureInput;
  readonly clock: ClockMode;
  /** The clock's first reading (epoch ms); undefined: the mode's default. */
  readonly now: number | undefined;
}

export interface Shared {
  readonly sleep: Sleep;
  readonly rateLimits: boolean;
  readonly bounds: ProcessBounds;
  readonly log: ((line: string) => void) | undefined;
  /** Every sandbox's request journal against one byte budget; undefined: the journal is off. */
  readonly journals: JournalLedger | undefined;
}

/**
 * One simulated service: its world (replaced on reset) and the clock that world reads: the settings'
 * clock, or a snapshot's, which starts at the snapshot's `now` in its mode.
 */
/** The journal of each world's sandbox, for the server's ports (a world is replaced on reset, its sandbox's journal stays). */
const JOURNALS = new WeakMap<World, Journal>();

/** The request journal of the sandbox a world belongs to (undefined when the journal is off). */
export const journalOf = (world: World): Journal | undefined => JOURNALS.get(world);

export class Sandbox {
  private current: World;
  /** Its request journal and coverage: they outlive resets (DELETE {control_url}/requests clears them). */
  readonly journal: Journal | undefined;
  private readonly ownClock: Clock;
  private clock: Clock;
  /** When a request or control call last used it, on the wall clock (idle expiry). */
  lastUsed = 0;
  /** Bytes its world is charged against the process's `worldBytes` cap (`worldCost`). */
  private charged = 0;

  /** Throws a FixtureError when the fixture cannot be read or used. */
  constructor(
    readonly id: string,
    readonly settings: SandboxSettings,
    private readonly shared: Shared,
    /** The test run whose coverage its exchanges count toward (docs/interfaces.md, Journal and coverage). */
    readonly run: string = DEFAULT_RUN,
  ) {
    this.ownClock = this.clock = createClock(settings.clock, settings.now);
    const source = loadFixture(settings.fixture, settings.seed, shared.bounds.caps);
    const cost = this.afford(settings.fixture, source);
    this.current = this.build(settings.seed, source);
    this.charge(cost);
    // Made once the fixture is known to be good, so a refused sandbox counts toward no run.
    const caps = shared.bounds.caps;
    this.journal =
      shared.journals &&
      new Journal(id, { entries: caps.journalEntries, bodyBytes: caps.journalBodyBytes }, shared.journals, run);
    if (this.journal) JOURNALS.set(this.current, this.journal);
  }

  get world(): World {
    return this.current;
  }

  get clockMode(): ClockMode {
    return this.clock.mode;
  }

  /**
   * Back to the state right after it was made (the clock included), or to another seed and fixture. A
   * fixture that cannot be used, or that the budget for worlds cannot take, throws a FixtureError and
   * changes nothing.
   */
  reset(options: { seed?: number; fixture?: FixtureInput } = {}): World {
    const seed = options.seed ?? this.settings.seed;
    const fixture = options.fixture ?? this.settings.fixture;
    const source = loadFixture(fixture, seed, this.shared.bounds.caps);
    const cost = this.afford(fixture, source);
    // Requests held by the old world's faults go on (against the old world) rather than hang; what it
    // held against the process's caps is given back.
    this.current.faults.clear();
    this.current.discard();
    this.ownClock.reset();
    this.current = this.build(seed, source);
    this.charge(cost);
    return this.current;
  }

  /** Its world's cost from `source`, when the process's budget can take it in place of the present one's (409 otherwise). */
  private afford(fixture: FixtureInput, source: WorldSource): number {
    const cost = worldCost(fixture, source);
    const { caps, worldBytesHeld } = this.shared.bounds;
    if (worldBytesHeld - this.charged + cost <= caps.worldBytes) return cost;
    const mb = (bytes: number) => `${Math.ceil(bytes / 2 ** 20)} MB`;
    throw new FixtureError(
      `A world from this fixture takes about ${mb(cost)}, and the simulator's worlds already hold ${mb(worldBytesHeld - this.charged)} of their ${mb(caps.worldBytes)} budget: DELETE the sandboxes you are done with, or start it with a higher --cap world-bytes.`,
      [],
      "CONFLICT",
    );
  }

  /** Charges the world's cost to the process (0: gives it back, the sandbox is removed). */
  charge(cost: number): void {
    this.shared.bounds.worldBytesHeld += cost - this.charged;
    this.charged = cost;
  }

  private build(seed: number, source: WorldSource): World {
    const options = { rateLimits: this.shared.rateLimits, bounds: this.shared.bounds };
    let world: World;
    if (isSnapshot(source)) {
      this.clock = createClock(source.clock.mode, source.clock.now);
      world = restoreWorld(retarget(source, this.id), { clock: this.clock, sleep: this.shared.sleep }, options);
    } else {
      this.clock = this.ownClock;
      const isDefault = this.id === DEFAULT_SANDBOX;
      world = buildWorld(
        isDefault ? source : withSuffix(source, `-${this.id}`),
        seed,
        { clock: this.clock, sleep: this.shared.sleep },
        { ...options, secrets: streamOf(this.id) },
      );
    }
    world.log = this.shared.log;
    if (this.journal) JOURNALS.set(world, this.journal);
    layOutWhileIdle(world);
    return world;
  }
}

/**
 * What a world from `source` takes of the heap, estimated from the size of its JSON (measured with
 * `--expose-gc`: ~7 to 11 bytes of heap per byte of a fixture, its sales the dearest, and ~180 KB
 * besides; ~1.2 per byte of a snapshot, whose records the world shares; ~240 KB for a demo world), and
 * for the large fixture, which is no document, from measurement (~430 MB with every record made).
 */
function worldCost(fixture: FixtureInput, source: WorldSource): number {
  if (fixture === "large") return 512 * 2 ** 20;
  // A reset back to the same document does not walk it again (a second for a large snapshot).
  let cost = COSTS.get(source);
  if (cost === undefined) COSTS.set(source, (cost = 128 * 1024 + jsonSize(source) * (isSnapshot(source) ? 2 : 12)));
  return cost;
}
const COSTS = new WeakMap<WorldSource, number>();

/** About the length of a value's JSON text, without making it (a checked document: its depth is its schema's). */
function jsonSize(value: unknown): number {
  if (typeof value === "string") return value.length + 2;
  if (typeof value !== "object" || value === null) return 8;
  let size = 2;
  if (Array.isArray(value)) for (const item of value) size += jsonSize(item) + 1;
  else for (const key in value) size += key.length + 4 + jsonSize((value as Record<string, unknown>)[key]);
  return size;
}

/** Rows one idle slice lays out: a few milliseconds, so a request that needs none of them waits no longer. */
const LAYOUT_SLICE = 2048;

/**
 * What the build deferred (the large fixture's sales, engine/store.ts), laid out in slices between
 * requests, so the world is answering before it is all in place. A request that reads the sales lays out
 * what is left at once. The slices never keep the process alive.
 */
export function layOutWhileIdle(world: Pick<World, "discarded" | "layOut" | "log">): void {
  const slice = () => {
    try {
      if (!world.discarded && world.layOut(LAYOUT_SLICE)) setImmediate(slice).unref();
    } catch (error) {
      // Never a crash from idle work: the request that reads the sales meets the failure (500 INTERNAL).
      world.log?.(`internal error laying out the sales: ${(error as Error).stack ?? String(error)}`);
    }
  };
  if (world.layOut(0)) setImmediate(slice).unref();
}

/** A fixture or snapshot the control plane was given that cannot be used: 400, naming each problem under `fixture` (409: over the budget for worlds). */
export function fixtureRefusal(error: FixtureError): ApiError {
  const fields = error.fields.map((f) => ({
    field: f.field === "fixture" || f.field === "snapshot" ? "fixture" : `fixture.${f.field}`,
    message: f.message,
  }));
  return apiError(error.code, error.message, fields.length > 0 ? fields : undefined);
}

/** Runs `make`; a FixtureError it throws becomes the control plane's refusal. */
export function refusingBadFixtures<T>(make: () => T): Result<T, ApiError> {
  try {
    return ok(make());
  } catch (error) {
    if (error instanceof FixtureError) return fail(fixtureRefusal(error));
    throw error;
  }
}

/** The fixture with every store prefix (and every user's store) given the sandbox's suffix. */
function withSuffix(spec: FixtureSpec, suffix: string): FixtureSpec {
  return {
    ...spec,
    stores: spec.stores.map((store) => ({ ...store, prefix: `${store.prefix}${suffix}` })),
    users: spec.users.map((user) => ({ ...user, store_prefix: `${user.store_prefix}${suffix}` })),
  };
}

export interface SandboxLimits {
  /** Live sandboxes besides the default one. */
  readonly max: number;
  /** A sandbox no request or control call used for this long is removed. */
  readonly idleMs: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { max: 1000, idleMs: 30 * 60_000 };

/** How often, at most, idle sandboxes are looked for (on the wall clock, when requests arrive). */
const SWEEP_EVERY_MS = 10_000;

/** Every sandbox of a simulator: made, found by id, by store prefix or by OAuth client, and removed. */
export class Sandboxes implements SandboxDirectory {
  readonly main: Sandbox;
  private readonly live = new Map<string, Sandbox>();
  private readonly byPrefix = new Map<string, Sandbox>();
  private readonly wall = systemClock();
  private made = 0;
  private lastSweep = 0;

  constructor(
    settings: SandboxSettings,
    private readonly shared: Shared,
    private readonly limits: SandboxLimits,
    /** Where a sandbox's control plane is, given the API root: `${apiRoot}/_sim/sandboxes/${id}`. */
    private readonly controlUrl: (apiRoot: string, id: string) => string,
  ) {
    this.main = new Sandbox(DEFAULT_SANDBOX, settings, shared);
  }

  /** A new sandbox from the body's seed, fixture and clock (each defaulting to the main sandbox's). */
  make(body: SandboxBody): Result<Sandbox, ApiError> {
    this.sweep(true);
    if (this.live.size >= this.limits.max) {
      return fail(
        apiError(
          "CONFLICT",
          `The simulator already holds ${this.limits.max} live sandboxes, its cap: DELETE the ones you are done with, or start it with a higher --max-sandboxes.`,
        ),
      );
    }
    const main = this.main.settings;
    const now = body.now === undefined ? undefined : Date.parse(body.now);
    if (now !== undefined && now > LAST_INSTANT) return fail(invalid("now", PAST_LAST_INSTANT));
    const settings: SandboxSettings = {
      seed: body.seed ?? main.seed,
      fixture: body.fixture ?? (typeof main.fixture === "string" && main.fixture !== "large" ? main.fixture : "demo"),
      clock: body.clock ?? main.clock,
      now: now ?? (body.clock === undefined ? main.now : undefined),
    };
    const made = refusingBadFixtures(() => new Sandbox(`sb${this.made + 1}`, settings, this.shared, body.run));
    if (!made.ok) return made;
    const sandbox = made.value;
    this.made += 1;
    sandbox.lastUsed = this.wall.now();
    this.live.set(sandbox.id, sandbox);
    this.index(sandbox);
    return ok(sandbox);
  }

  get(id: string): Sandbox | undefined {
    return id === DEFAULT_SANDBOX ? this.main : this.live.get(id);
  }

  /** The sandbox whose world has this store (the main one when none has it: it answers as it always did). */
  forStorePrefix(prefix: string): Sandbox {
    return this.byPrefix.get(prefix) ?? this.main;
  }

  /** The sandbox that registered this OAuth client (the main one when none did). */
  forClientId(clientId: string): Sandbox {
    if (this.main.world.oauthClients.some((c) => c.clientId === clientId)) return this.main;
    for (const sandbox of this.live.values())
      if (sandbox.world.oauthClients.some((c) => c.clientId === clientId)) return sandbox;
    return this.main;
  }

  /** Every world, the main one first (stored images are served from whichever has them). */
  *worlds(): Iterable<World> {
    yield this.main.world;
    for (const sandbox of this.live.values()) yield sandbox.world;
  }

  /** Marks a sandbox used now, and removes the ones idle too long (at most once every few seconds). */
  touch(sandbox: Sandbox): void {
    if (sandbox !== this.main) sandbox.lastUsed = this.wall.now();
    this.sweep(false);
  }

  /** After a reset with another fixture, its store prefixes may have changed. */
  reindex(sandbox: Sandbox): void {
    for (const [prefix, owner] of this.byPrefix) if (owner === sandbox) this.byPrefix.delete(prefix);
    this.index(sandbox);
  }

  create(body: SandboxBody, apiRoot: string): Result<SandboxView, ApiError> {
    const made = this.make(body);
    return made.ok ? ok(this.viewOf(made.value, apiRoot)) : made;
  }

  list(apiRoot: string): SandboxView[] {
    return [...this.live.values()].map((sandbox) => this.viewOf(sandbox, apiRoot));
  }

  view(id: string, apiRoot: string): Result<SandboxView, ApiError> {
    const sandbox = this.get(id);
    return sandbox ? ok(this.viewOf(sandbox, apiRoot)) : fail(noSandbox(id));
  }

  /** The coverage of every sandbox that carried the run, removed ones included; 404 for a run none carried. */
  runCoverage(run: string): Result<CoverageReport, ApiError> {
    const report = this.shared.journals?.runCoverage(run);
    return report ? ok(report) : fail(this.noRun(run));
  }

  clearRunCoverage(run: string): Result<void, ApiError> {
    return this.shared.journals?.clearRunCoverage(run) ? ok(undefined) : fail(this.noRun(run));
  }

  runs(): Result<RunView[], ApiError> {
    return this.shared.journals ? ok(this.shared.journals.runList()) : fail(journalOff());
  }

  private noRun(run: string): ApiError {
    if (!this.shared.journals) return journalOff();
    return apiError(
      "NOT_FOUND",
      `No sandbox has carried the run "${run}" (POST /_sim/sandboxes {"run": "${run}"} starts one; sandboxes made without one count toward "${DEFAULT_RUN}").`,
    );
  }

  remove(id: string): Result<void, ApiError> {
    if (id === DEFAULT_SANDBOX) {
      return fail(apiError("CONFLICT", "The default sandbox is the simulator's own: reset it (POST /_sim/reset)."));
    }
    const sandbox = this.live.get(id);
    if (!sandbox) return fail(noSandbox(id));
    this.drop(sandbox);
    return ok(undefined);
  }

  /** Removes every sandbox but the main one (the simulator is closing). */
  clear(): void {
    for (const sandbox of [...this.live.values()]) this.drop(sandbox);
  }

  viewOf(sandbox: Sandbox, apiRoot: string): SandboxView {
    const world = sandbox.world;
    return {
      id: sandbox.id,
      control_url: this.controlUrl(apiRoot, sandbox.id),
      seed: sandbox.settings.seed,
      run: sandbox.run,
      clock: { now: iso(world.env.clock.now()), mode: sandbox.clockMode },
      ...credentialsView(world, apiRoot),
    };
  }

  private index(sandbox: Sandbox): void {
    if (sandbox === this.main) return;
    for (const prefix of sandbox.world.stores.keys()) this.byPrefix.set(prefix, sandbox);
  }

  private drop(sandbox: Sandbox): void {
    // Held requests are let go (they finish in the removed world); the prefixes stop answering at once.
    sandbox.world.faults.clear();
    sandbox.world.discard();
    sandbox.journal?.discard();
    sandbox.charge(0);
    this.live.delete(sandbox.id);
    for (const [prefix, owner] of this.byPrefix) if (owner === sandbox) this.byPrefix.delete(prefix);
  }

  private sweep(force: boolean): void {
    const now = this.wall.now();
    if (!force && now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    for (const sandbox of [...this.live.values()]) if (now - sandbox.lastUsed >= this.limits.idleMs) this.drop(sandbox);
  }
}

/** The refusal of an id that is not a live sandbox. */
export const noSandbox = (id: string): ApiError =>
  apiError("NOT_FOUND", `No sandbox "${id}" (it was removed, or expired).`);
