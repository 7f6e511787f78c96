import { fail, ok, type Result } from "../kernel/result.js";
import { apiError, type ApiError } from "../contract/errors.js";
import type {
  ControlInput,
  ControlOperationId,
  ControlOperations,
  LooseControlInput,
} from "../contract/control-operations.js";
import {
  type CoverageReport,
  journalFilter,
  type RunView,
  type JournalFilter,
  type JournalView,
} from "../contract/journal.js";
import type { ResetBody, SandboxBody } from "../contract/schemas/control.js";
import * as control from "./control.js";
import { takeSnapshot } from "./snapshot/take.js";
import type { World } from "./world.js";

// One handler per control operation of the table (contract/control-operations.ts), each checked against
// its own declaration: typed path parameters and body in, a Result out. The /_sim routes and the
// library's functions both run them.

/** A sandbox as the control plane shows it: its id, where its control plane is, and its credentials. */
export interface SandboxView extends control.CredentialsView {
  readonly id: string;
  /** The sandbox's own control plane: every `/_sim` route, scoped to it. */
  readonly control_url: string;
  readonly seed: number;
  /** The test run whose coverage its exchanges count toward (`default` unless it was made with one). */
  readonly run: string;
  readonly clock: { readonly now: string; readonly mode: "system" | "manual" };
}

/** The sandboxes of a simulator, as the control plane's sandbox operations reach them. */
export interface SandboxDirectory {
  create(body: SandboxBody, apiRoot: string): Result<SandboxView, ApiError>;
  list(apiRoot: string): SandboxView[];
  view(id: string, apiRoot: string): Result<SandboxView, ApiError>;
  remove(id: string): Result<void, ApiError>;
  /** Coverage of test runs: every sandbox that carried the run's name, removed ones included. */
  runs(): Result<readonly RunView[], ApiError>;
  runCoverage(run: string): Result<CoverageReport, ApiError>;
  clearRunCoverage(run: string): Result<void, ApiError>;
}

/** What a control operation runs against. */
export interface ControlContext {
  /** The current world. */
  readonly world: World;
  /** The id of the sandbox it belongs to (`default` for the simulator's own). */
  readonly sandbox: string;
  /** `{api_root}` for the links it answers (the request's origin, or the server's URL). */
  readonly apiRoot: string;
  /** Replaces the world with a fresh one (the simulator's reset) and gives it, or refuses a fixture it cannot use. */
  reset(options: ResetBody): Result<World, ApiError>;
  readonly sandboxes: SandboxDirectory;
  /** The sandbox's request journal and coverage; undefined when the journal is off. */
  readonly journal: JournalView | undefined;
}

type ControlHandlers = {
  readonly [O in ControlOperations[number] as O["id"]]: (
    ctx: ControlContext,
    input: ControlInput<O>,
  ) => Result<unknown, ApiError>;
};

export const CONTROL_HANDLERS = {
  health: () => ok({ status: "ok" }),
  credentials: ({ world, apiRoot }) => ok(control.credentialsView(world, apiRoot)),
  reset: (ctx, { body }) => {
    const world = ctx.reset(body);
    return world.ok ? ok(control.credentialsView(world.value, ctx.apiRoot)) : world;
  },
  snapshot: ({ world, sandbox }) => ok(takeSnapshot(world, sandbox)),
  getClock: ({ world }) => ok(control.clockView(world)),
  moveClock: ({ world }, { body }) => control.moveClock(world, body),
  createKey: ({ world }, { params, body }) => control.createKey(world, params.prefix, body),
  revokeKey: ({ world }, { params }) => control.revokeKey(world, params.id),
  patchStore: ({ world }, { params, body }) => control.patchStore(world, params.prefix, body),
  createOutlet: ({ world }, { params, body }) => control.createOutlet(world, params.prefix, body),
  deleteOutlet: ({ world }, { params }) => control.deleteOutlet(world, params.prefix, params.id),
  setReasonEnabled: ({ world }, { params, body }) =>
    control.setReasonEnabled(world, params.prefix, params.id, body.enabled),
  getStock: ({ world }, { params }) => control.stockView(world, params.prefix, params.product_id, params.outlet_id),
  makeSale: ({ world }, { params, body }) => control.makeSale(world, params.prefix, body),
  makeRefund: ({ world }, { params, body }) => control.makeRefund(world, params.prefix, params.id, body),
  voidSale: ({ world }, { params }) => control.makeVoid(world, params.prefix, params.id),
  getStoredCustomer: ({ world }, { params }) => control.storedCustomer(world, params.prefix, params.id),
  authorize: ({ world }, { body }) => control.authorizeHeadless(world, body),
  listClients: ({ world }) => ok(world.oauthClients.map(control.clientView)),
  registerClient: ({ world }, { body }) => ok(control.registerClient(world, body)),
  listConnections: ({ world }) =>
    ok([...world.oauth.connections.values()].map((c) => control.connectionView(c, world.env.clock.now()))),
  disconnect: ({ world }, { params }) => control.disconnect(world, params.id),
  setImageOutcome: ({ world }, { body }) => control.setImageOutcome(world, body),
  listFaults: ({ world }) => ok(world.faults.list().map(control.faultView)),
  addFault: ({ world }, { body }) => control.addFault(world, body),
  releaseFault: ({ world }, { params }) => {
    const id = /^\d{1,9}$/.test(params.id) ? Number(params.id) : undefined;
    const released = id === undefined ? undefined : world.faults.release(id);
    return released === undefined ? fail(apiError("NOT_FOUND", "No such fault.")) : ok({ id, released });
  },
  clearFaults: ({ world }) => ok(world.faults.clear()),
  getRequests: ({ journal }, { query }) => withJournal(journal, query, (j, filter) => j.page(filter)),
  getRequestsHar: ({ journal, apiRoot }, { query }) =>
    withJournal(journal, query, (j, filter) => j.har(filter, apiRoot)),
  clearRequests: ({ journal }) => withJournal(journal, {}, (j) => j.clear()),
  getCoverage: ({ journal }) => withJournal(journal, {}, (j) => j.coverage()),
  clearCoverage: ({ journal }) => withJournal(journal, {}, (j) => j.clearCoverage()),
  createSandbox: ({ sandboxes, apiRoot }, { body }) => sandboxes.create(body, apiRoot),
  listSandboxes: ({ sandboxes, apiRoot }) => ok(sandboxes.list(apiRoot)),
  getSandbox: ({ sandboxes, apiRoot }, { params }) => sandboxes.view(params.sandbox_id, apiRoot),
  deleteSandbox: ({ sandboxes }, { params }) => sandboxes.remove(params.sandbox_id),
  listRuns: ({ sandboxes }) => sandboxes.runs(),
  getRunCoverage: ({ sandboxes }, { params }) => sandboxes.runCoverage(params.run),
  clearRunCoverage: ({ sandboxes }, { params }) => sandboxes.clearRunCoverage(params.run),
} satisfies ControlHandlers;

/** The refusal of a journal or coverage route when the journal is off. */
export const journalOff = (): ApiError => apiError("NOT_FOUND", "The request journal is off (--no-journal).");

/** Runs `use` on the journal with the query's filter; 404 when the journal is off, 400 for a bad filter. */
function withJournal<T>(
  journal: JournalView | undefined,
  query: Readonly<Record<string, string>> | undefined,
  use: (journal: JournalView, filter: JournalFilter) => T,
): Result<T, ApiError> {
  if (!journal) return fail(journalOff());
  const filter = journalFilter(query ?? {});
  if (!filter.ok) return fail(apiError("VALIDATION_FAILED", "The journal's query is invalid.", filter.fields));
  return ok(use(journal, filter.value));
}

/** What a control operation answers when it succeeds. */
export type ControlResult<Id extends ControlOperationId> =
  ReturnType<(typeof CONTROL_HANDLERS)[Id]> extends infer R
    ? R extends { ok: true; value: infer T }
      ? T
      : never
    : never;

/** A handler seen from the router, whose match and body are typed only at run time (validated by then). */
interface AnyControlHandler {
  run(ctx: ControlContext, input: LooseControlInput): Result<unknown, ApiError>;
}

const RUNNABLE: ReadonlyMap<string, AnyControlHandler> = new Map(
  Object.entries(CONTROL_HANDLERS).map(([id, run]): [string, AnyControlHandler] => [id, { run }]),
);

/**
 * Runs a control operation of the table by id. The caller gives the input its declaration asks for:
 * the router's parameters of the operation's path and a body its schema validated, or the library's
 * typed input.
 */
export function runControl(id: string, ctx: ControlContext, input: LooseControlInput): Result<unknown, ApiError> {
  const handler = RUNNABLE.get(id);
  if (!handler) throw new Error(`control operation ${id} has no handler`);
  return handler.run(ctx, input);
}
