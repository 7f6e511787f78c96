import type { Static, TSchema } from "@sinclair/typebox";
import type { PathParamNames, PathParams } from "./path.js";
import {
  AuthorizeBody,
  ClientBody,
  ClockBody,
  FaultBody,
  ImageBody,
  KeyBody,
  OutletBody,
  ReasonPatchBody,
  RefundBody,
  ResetBody,
  SandboxBody,
  SaleBody,
  StorePatchBody,
} from "./schemas/control.js";
import { JOURNAL_QUERY } from "./journal.js";

// The /_sim control plane (README, Control plane) as declarations, like the API's operations table:
// the server's routes and the library's `sim.control` functions both derive from it.

export type ControlMethod = "GET" | "POST" | "PATCH" | "DELETE";

/** A control operation is a declaration: the router, the body validator and the library read it. */
export interface ControlOperation<
  Id extends string = string,
  Path extends string = string,
  Body extends TSchema | undefined = TSchema | undefined,
> {
  readonly id: Id;
  readonly method: ControlMethod;
  /** Relative to `/_sim`. */
  readonly path: Path;
  /** The JSON body's schema (unknown properties refused); undefined when the operation reads no body. */
  readonly body: Body;
  /** 204 answers with no body. */
  readonly successStatus: 200 | 201 | 204;
  readonly summary: string;
  /** The query parameters it reads (the journal's filters); others ignore the query string. */
  readonly query?: readonly string[];
}

/** Declares a control operation, keeping the static types of its path and body. */
export function controlOp<
  const Id extends string,
  const Path extends string,
  Body extends TSchema | undefined = undefined,
>(
  input: Omit<ControlOperation<Id, Path, Body>, "body" | "successStatus"> &
    Partial<Pick<ControlOperation<Id, Path, Body>, "body" | "successStatus">>,
): ControlOperation<Id, Path, Body> {
  return { successStatus: 200, body: undefined as Body, ...input };
}

export const CONTROL_OPERATIONS = [
  controlOp({ id: "health", method: "GET", path: "/health", summary: '`{status: "ok"}`' }),
  controlOp({
    id: "credentials",
    method: "GET",
    path: "/credentials",
    summary: "Stores with base URLs and keys, OAuth clients, users",
  }),
  controlOp({
    id: "reset",
    method: "POST",
    path: "/reset",
    body: ResetBody,
    summary: "Back to the state right after start (clock included); answers the new credentials",
  }),
  controlOp({
    id: "snapshot",
    method: "GET",
    path: "/snapshot",
    summary: "The whole state as a snapshot document, which --fixture, reset and sandboxes start from",
  }),
  controlOp({ id: "getClock", method: "GET", path: "/clock", summary: "The simulator's now" }),
  controlOp({
    id: "moveClock",
    method: "POST",
    path: "/clock",
    body: ClockBody,
    summary: "Move the clock forward (never backwards)",
  }),
  controlOp({
    id: "createKey",
    method: "POST",
    path: "/stores/{prefix}/keys",
    body: KeyBody,
    successStatus: 201,
    summary: "A new API key",
  }),
  controlOp({ id: "revokeKey", method: "POST", path: "/keys/{id}/revoke", summary: "Revoke a key at once" }),
  controlOp({
    id: "patchStore",
    method: "PATCH",
    path: "/stores/{prefix}",
    body: StorePatchBody,
    summary: "Set a store's plan, status or product limit",
  }),
  controlOp({
    id: "createOutlet",
    method: "POST",
    path: "/stores/{prefix}/outlets",
    body: OutletBody,
    successStatus: 201,
    summary: "A new outlet, as GET /outlets shows it (at most 100 live outlets per store)",
  }),
  controlOp({
    id: "deleteOutlet",
    method: "DELETE",
    path: "/stores/{prefix}/outlets/{id}",
    successStatus: 204,
    summary: "Delete an outlet (stock writes there answer OUTLET_DELETED)",
  }),
  controlOp({
    id: "setReasonEnabled",
    method: "PATCH",
    path: "/stores/{prefix}/adjustment-reasons/{id}",
    body: ReasonPatchBody,
    summary: "Enable or disable an adjustment reason",
  }),
  controlOp({
    id: "getStock",
    method: "GET",
    path: "/stores/{prefix}/stock/{product_id}/{outlet_id}",
    summary: "`{on_hand, average_cost}` (cents)",
  }),
  controlOp({
    id: "makeSale",
    method: "POST",
    path: "/stores/{prefix}/sales",
    body: SaleBody,
    successStatus: 201,
    summary: "A completed sale (or a parked one)",
  }),
  controlOp({
    id: "makeRefund",
    method: "POST",
    path: "/stores/{prefix}/sales/{id}/refunds",
    body: RefundBody,
    successStatus: 201,
    summary: "Refund some lines of a sale, or the rest",
  }),
  controlOp({ id: "voidSale", method: "POST", path: "/stores/{prefix}/sales/{id}/void", summary: "Void a sale" }),
  controlOp({
    id: "getStoredCustomer",
    method: "GET",
    path: "/stores/{prefix}/customers/{id}",
    summary: "The stored customer, erased ones included, with `deleted_at`",
  }),
  controlOp({
    id: "authorize",
    method: "POST",
    path: "/oauth/authorize",
    body: AuthorizeBody,
    summary: "`{redirect_to}`: what the consent screen would redirect to, headlessly",
  }),
  controlOp({ id: "listClients", method: "GET", path: "/oauth/clients", summary: "The OAuth clients" }),
  controlOp({
    id: "registerClient",
    method: "POST",
    path: "/oauth/clients",
    body: ClientBody,
    successStatus: 201,
    summary: "Register an OAuth client",
  }),
  controlOp({ id: "listConnections", method: "GET", path: "/connections", summary: "The OAuth connections" }),
  controlOp({
    id: "disconnect",
    method: "POST",
    path: "/connections/{id}/disconnect",
    summary: "Disconnect an OAuth connection; its tokens stop at once",
  }),
  controlOp({
    id: "setImageOutcome",
    method: "POST",
    path: "/images",
    body: ImageBody,
    summary: "What an import of that image URL does",
  }),
  controlOp({ id: "listFaults", method: "GET", path: "/faults", summary: "The injected faults" }),
  controlOp({
    id: "addFault",
    method: "POST",
    path: "/faults",
    body: FaultBody,
    successStatus: 201,
    summary: "Inject a failure, delay or hold on matching API requests",
  }),
  controlOp({
    id: "releaseFault",
    method: "POST",
    path: "/faults/{id}/release",
    summary: "`{id, released}`: let the requests a hold fault keeps go on",
  }),
  controlOp({
    id: "createSandbox",
    method: "POST",
    path: "/sandboxes",
    body: SandboxBody,
    successStatus: 201,
    summary: "A new sandbox: its own stores, keys, clock, limits and faults; answers its URLs and credentials",
  }),
  controlOp({ id: "listSandboxes", method: "GET", path: "/sandboxes", summary: "The live sandboxes" }),
  controlOp({ id: "getSandbox", method: "GET", path: "/sandboxes/{sandbox_id}", summary: "One sandbox" }),
  controlOp({
    id: "deleteSandbox",
    method: "DELETE",
    path: "/sandboxes/{sandbox_id}",
    successStatus: 204,
    summary: "Remove a sandbox: its stores and keys stop answering at once",
  }),
  controlOp({
    id: "listRuns",
    method: "GET",
    path: "/runs",
    summary: "The test runs sandboxes carried, with their requests",
  }),
  controlOp({
    id: "getRunCoverage",
    method: "GET",
    path: "/runs/{run}/coverage",
    summary: "The coverage of every sandbox that carried the run's name, removed ones included",
  }),
  controlOp({
    id: "clearRunCoverage",
    method: "DELETE",
    path: "/runs/{run}/coverage",
    successStatus: 204,
    summary: "Set the run's coverage counts back to 0",
  }),
  controlOp({
    id: "getRequests",
    method: "GET",
    path: "/requests",
    query: JOURNAL_QUERY,
    summary: "The request journal: the newest API and OAuth exchanges, redacted, filtered by the query",
  }),
  controlOp({
    id: "getRequestsHar",
    method: "GET",
    path: "/requests.har",
    query: JOURNAL_QUERY,
    summary: "The journal's exchanges (filtered the same way) as a HAR 1.2 document",
  }),
  controlOp({
    id: "clearRequests",
    method: "DELETE",
    path: "/requests",
    successStatus: 204,
    summary: "Forget the journal's entries (sequence numbers go on)",
  }),
  controlOp({
    id: "getCoverage",
    method: "GET",
    path: "/coverage",
    summary: "Which operations, statuses, error codes and rule branches the exchanges met, never met first",
  }),
  controlOp({
    id: "clearCoverage",
    method: "DELETE",
    path: "/coverage",
    successStatus: 204,
    summary: "Set every coverage count back to 0",
  }),
  controlOp({
    id: "clearFaults",
    method: "DELETE",
    path: "/faults",
    successStatus: 204,
    summary: "Clear every fault and release the requests they hold",
  }),
] as const;

export type ControlOperations = typeof CONTROL_OPERATIONS;

/** The operations that manage sandboxes and the runs they carry: served at the root of the control plane only. */
export const SANDBOX_OPERATIONS: ReadonlySet<string> = new Set([
  "createSandbox",
  "listSandboxes",
  "getSandbox",
  "deleteSandbox",
  "listRuns",
  "getRunCoverage",
  "clearRunCoverage",
]);

/** Where a sandbox's own control plane lives, relative to `/_sim`: every other operation, scoped to it. */
export const SANDBOX_BASE = "/sandboxes/{sandbox_id}";
export type ControlOperationId = ControlOperations[number]["id"];
/** The declaration of one control operation, by id. */
export type ControlOperationOf<Id extends ControlOperationId> = Extract<ControlOperations[number], { id: Id }>;

/** What a control operation is given, typed by its declaration: its path parameters and its body. */
export interface ControlInput<O extends ControlOperation> {
  readonly params: PathParams<O["path"]>;
  readonly body: O["body"] extends TSchema ? Static<O["body"]> : undefined;
  /** The query string's parameters, for an operation that reads some. */
  readonly query?: Readonly<Record<string, string>>;
}

/** The input of a control operation whose types are unknown (the router's match, a JSON body validated at run time). */
export interface LooseControlInput {
  readonly params: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly query?: Readonly<Record<string, string>>;
}

/** What the library's function of a control operation takes: `params` when its path has some, `body` when it reads one. */
export type ControlCall<O extends ControlOperation> = ([PathParamNames<O["path"]>] extends [never]
  ? { readonly params?: undefined }
  : { readonly params: PathParams<O["path"]> }) &
  (O["body"] extends TSchema ? { readonly body: Static<O["body"]> } : { readonly body?: undefined });

/** The library's function of a control operation: its input may be left out when it has none. */
export type ControlFunction<O extends ControlOperation, Result> = [PathParamNames<O["path"]>] extends [never]
  ? O["body"] extends TSchema
    ? (input: ControlCall<O>) => Result
    : (input?: ControlCall<O>) => Result
  : (input: ControlCall<O>) => Result;
