import type { TSchema } from "@sinclair/typebox";
import { isUuid } from "../kernel/random.js";
import { apiError, boundFields, invalid, notFound, type ApiError, type FieldError } from "../contract/errors.js";
import type { Operation } from "../contract/operation.js";
import { OPERATIONS } from "../contract/operations/index.js";
import { grants } from "../contract/scopes.js";
import { acceptsEmptyObject, coerceQuery, validatorFor } from "../contract/validate.js";
import {
  AUTH_FAILURE_BRANCH,
  AUTH_FAILURE_MESSAGE,
  failedPairKey,
  presented,
  principalOf,
  type Credential,
  type Presented,
} from "../engine/auth/credentials.js";
import { storeGate } from "../engine/auth/gate.js";
import { wouldDownload } from "../engine/catalog/images.js";
import { listParams, type Listing } from "../engine/listing.js";
import { POLICIES, type Policy } from "../engine/limits.js";
import type { StoreState } from "../engine/store.js";
import type { World } from "../engine/world.js";
import { HANDLERS } from "./handlers/index.js";
import { SavedDespite, type AnyHandler } from "./handlers/types.js";
import { emptyResponse, errorResponse, jsonResponse, marked } from "./respond.js";
import { apiRouter, operationParams, type Match } from "../contract/router.js";
import { MAX_BODY_BYTES, type SimRequest, type SimResponse } from "./types.js";
import { idempotent } from "./pipeline-idempotency.js";
import {
  countOrRefuse,
  failedAuth,
  type LimitCounter,
  recordFailure,
  tooMany,
  withLimitHeaders,
} from "./pipeline-limits.js";
import { decodeSegment } from "../contract/path.js";

// One pipeline for every API operation: authenticate, limit, store state, route, scope,
// idempotency, validate, handler, envelope. Each step answers with the spec's envelope.
// The idempotency step is in pipeline-idempotency.ts, the rate-limit helpers in pipeline-limits.ts.

const STORE_PATH = /^\/([^/]+)\/v1(\/.*)$/;

interface Caller extends LimitCounter {
  /** The request's operation, found by the server's route table (undefined: no operation has its path). */
  readonly match: Match<Operation> | undefined;
  readonly handlers: Readonly<Record<string, AnyHandler>>;
  /** What an empty query string gives the operation's query schema: worked out once, not per request. */
  readonly emptyQuery: (op: Operation) => QueryRead;
  /** What the Authorization header presents (a digest, never the plaintext). */
  readonly given: Presented;
}

/** The pipeline given each request's operation by the route table that matched it (undefined: none did). */
export type ApiPipeline = (world: World, req: SimRequest, match: Match<Operation> | undefined) => Promise<SimResponse>;

/** The pipeline over an operation table's handlers; it routes nothing itself. */
export function apiPipeline(
  operations: readonly Operation[],
  handlers: Readonly<Record<string, AnyHandler>>,
): ApiPipeline {
  for (const op of operations)
    if (!Object.hasOwn(handlers, op.id)) throw new Error(`operation ${op.id} has no handler`);
  // Worked out at an operation's first request without a query string, not when the module loads: a
  // cold start compiles no schema its first answer does not need.
  const emptyQueries = new Map<Operation, QueryRead>();
  const emptyQuery = (op: Operation): QueryRead => {
    let read = emptyQueries.get(op);
    if (read === undefined) {
      const value = Object.create(null) as Record<string, unknown>;
      read = { value, errors: acceptsEmptyObject(op.query) ? [] : validatorFor(op.query, "query")(value) };
      emptyQueries.set(op, read);
    }
    return read;
  };
  return (world, req, match) => {
    const given = presented(req.headers.authorization);
    const now = world.env.clock.now();
    // rule idempotency.lapse-24h: idempotency records lapse after 24 hours; the lapsed ones go at each request.
    world.idempotency.expire(now);
    return pipeline({
      match,
      handlers,
      emptyQuery,
      world,
      req,
      now,
      given,
      pairKey: failedPairKey(req.remoteAddress, given),
      pairPayer: { address: req.remoteAddress },
      windows: [],
      limited: false,
    });
  };
}

export type ApiHandler = (world: World, req: SimRequest) => Promise<SimResponse>;

/** The pipeline with its own route lookup, over a table of operations (tests build one over test-only operations). */
export function createApiHandler(
  operations: readonly Operation[],
  handlers: Readonly<Record<string, AnyHandler>>,
): ApiHandler {
  const run = apiPipeline(operations, handlers);
  const routes = apiRouter(operations);
  return (world, req) => {
    const match = routes.match(req.method, req.path);
    return run(world, req, match && { route: match.route, params: operationParams(match.params) });
  };
}

/** The API of the spec: every operation of the contract's table (the server's route table finds each request's). */
export const handleApi: ApiPipeline = apiPipeline(OPERATIONS, HANDLERS);

async function pipeline(caller: Caller): Promise<SimResponse> {
  const { world, req, now } = caller;

  // rule limits.failed-auth-429: failed authentication (401, 402, 403), 30 per 5 minutes per address and credential.
  const pair = world.limits.peek(POLICIES.failedPair, caller.pairKey, now);
  // rule limits.failed-auth-address: failed authentication, 300 per 5 minutes per address.
  const address = world.limits.peek(POLICIES.failedAddress, req.remoteAddress, now);
  const lockout = pair.used >= pair.policy.limit ? pair : address.used >= address.policy.limit ? address : undefined;
  if (lockout)
    return marked(
      tooMany("Too many failed authentication attempts.", lockout),
      lockout === pair ? "limits.failed-auth-429" : "limits.failed-auth-address",
    );

  const storePath = STORE_PATH.exec(req.path);
  const prefix = storePath?.[1];
  const auth = world.credentials.authenticate(caller.given, now);
  // A credential the sandbox knows pays for its own failed pairs; a stranger's the address pays (docs/spec-choices.md, Limits).
  if (caller.given.kind === "bearer" && (auth.ok || auth.why !== "unknown"))
    caller.pairPayer = { credential: caller.given.digest };
  if (!auth.ok)
    return failedAuth(caller, {
      ...apiError("UNAUTHORIZED", AUTH_FAILURE_MESSAGE[auth.why]),
      branch: AUTH_FAILURE_BRANCH[auth.why],
    });
  const credential = auth.credential;
  // A credential belongs to one store; under another store's prefix it is not a credential (docs/spec-choices.md).
  // rule isolation.foreign-ids: a handler is given the path's store only, so another store's ids are not found there (404).
  const store = prefix === undefined ? undefined : world.stores.get(decodeSegment(prefix));
  if (prefix !== undefined && store?.prefix !== credential.storePrefix) {
    return failedAuth(caller, {
      ...apiError("UNAUTHORIZED", "The credential does not belong to this store."),
      branch: "stores.foreign-credential",
    });
  }

  // rule limits.general-429: 120 requests per minute per credential; every response carries the headers. The route
  // is found first so that a route with further limits announces them all, even in a general 429.
  const principal = principalOf(credential).id;
  const rest = storePath?.[2];
  const match = store && rest !== undefined ? caller.match : undefined;
  const classes = (match?.route.rateClasses ?? []).map((c) => world.limits.peek(POLICIES[c], principal, now));
  const general = world.limits.peek(POLICIES.general, principal, now);
  if (general.used >= general.policy.limit)
    return marked(
      tooMany("Rate limit exceeded: 120 requests per minute per credential.", general, ...classes),
      "limits.general-429",
    );
  caller.windows.push(world.limits.hit(POLICIES.general, principal, now, { credential: principal }));
  const response = await authorized(caller, credential, store, rest, match);
  // A request refused by a further limit (a 429) does not count toward the general one (docs/spec-choices.md).
  if (caller.limited) caller.windows[0] = world.limits.refund(POLICIES.general, principal, now);
  return withLimitHeaders(response, ...caller.windows);
}

async function authorized(
  caller: Caller,
  credential: Credential,
  store: StoreState | undefined,
  rest: string | undefined,
  match: Match<Operation> | undefined,
): Promise<SimResponse> {
  const { world, req, now } = caller;
  // rule envelope.unknown-path: an unknown path (or store prefix) answers 404 NOT_FOUND
  if (!store || rest === undefined) return errorResponse(notFound("path"));
  // rule stores.status-codes: a store status or a plan without API access refuses every call (engine/auth/gate.ts)
  const blocked = storeGate(store.settings);
  if (blocked) return recordFailure(caller, errorResponse(blocked));

  // rule envelope.unknown-path: no operation at this path answers 404 NOT_FOUND
  if (!match) return errorResponse(apiError("NOT_FOUND", `No operation ${req.method} ${rest}.`));
  const op = match.route;
  // rule scopes.missing-scope: a call without its scope is 403 INSUFFICIENT_SCOPE; an operation of scope null needs none
  // rule scopes.scopeless-endpoints: GET /me, /store, /outlets, /payment-types and /taxes declare scope null (contract/operations/account.ts)
  if (op.scope !== null && !grants(credential.scopes, op.scope)) {
    return recordFailure(
      caller,
      errorResponse(apiError("INSUFFICIENT_SCOPE", `This call needs the ${op.scope} scope.`)),
    );
  }

  // Spec, Limits: e.g. customer endpoints, 30 per minute per credential, additional to the general limit.
  for (const rateClass of op.rateClasses) {
    const refused = countOrRefuse(caller, POLICIES[rateClass], principalOf(credential).id);
    if (refused) return errorResponse(refused);
  }

  return idempotent(world, req, op, credential, now, () => execute(caller, op, match.params, credential, store));
}

/** Validates the request against the operation's declaration, runs its handler and wraps the result. */
async function execute(
  caller: Caller,
  op: Operation,
  params: Record<string, string>,
  credential: Credential,
  store: StoreState,
): Promise<SimResponse> {
  const { world, req, now } = caller;
  // rule envelope.non-uuid-id: a non-UUID id answers NOT_FOUND.
  for (const value of Object.values(params))
    if (!isUuid(value)) return errorResponse({ ...notFound(), branch: "envelope.non-uuid-id" });
  const query = readQuery(caller, op);
  if (query.errors.length > 0) return errorResponse(validationFailed(query.errors));
  const body = readBody(req, op.body, world.caps.fieldErrors);
  if (!body.ok) return errorResponse(body.error);
  await holdPoint(world, req, body.value);

  let result;
  try {
    const handler = caller.handlers[op.id] as AnyHandler;
    const limit = (policy: Policy): ApiError | undefined => countOrRefuse(caller, policy, principalOf(credential).id);
    result = await handler({
      world,
      store,
      credential,
      params,
      query: query.value,
      body: body.value,
      now,
      apiRoot: req.origin,
      limit,
    });
  } catch (error) {
    world.log?.(`internal error in ${op.id}: ${(error as Error).stack ?? String(error)}`);
    return errorResponse(apiError("INTERNAL", "The server failed; retry after a short delay."));
  }
  if (!result.ok) return errorResponse(result.error);
  return envelope(op, query.value, result.value);
}

/**
 * The answer of a handler's value, by what the operation declares: its response kind, the list rules
 * (cursors and, where declared, tombstones) and the error a saved write may answer with its document.
 */
function envelope(op: Operation, query: Record<string, unknown>, value: unknown): SimResponse {
  if (value instanceof SavedDespite) {
    // Spec, Product write rules 7: the write is saved; the declared error carries the saved document.
    if (!op.savedDespite) throw new Error(`operation ${op.id} declares no error for a saved write`);
    return errorResponse({ ...apiError(op.savedDespite.code, op.savedDespite.message), data: value.document });
  }
  switch (op.kind) {
    case "empty":
      return emptyResponse(op.successStatus);
    case "list": {
      // Spec, Pagination and polling: the pipeline pages every list by the same rules.
      const page = (value as Listing<unknown>).page(listParams(query), op.tombstones === true);
      return page.ok ? jsonResponse(op.successStatus, page.value) : errorResponse(page.error);
    }
    case "document":
      return jsonResponse(op.successStatus, value);
    default:
      // rule envelope.success-data: a success wraps its payload as {data}; a list page adds next_cursor and has_more (engine/listing.ts)
      return jsonResponse(op.successStatus, { data: value });
  }
}

interface QueryRead {
  readonly value: Record<string, unknown>;
  readonly errors: FieldError[];
}

/** The query string as typed values, and its field errors (spec, Errors: 400 VALIDATION_FAILED). */
function readQuery(caller: Caller, op: Operation): QueryRead {
  const text = caller.req.query;
  const empty = text === "" ? caller.emptyQuery(op) : undefined;
  if (empty) {
    // A fresh object each time: a handler may keep or change what it is given.
    return { value: Object.assign(Object.create(null) as Record<string, unknown>, empty.value), errors: empty.errors };
  }
  const query = coerceQuery(op.query, new URLSearchParams(text));
  const max = caller.world.caps.fieldErrors;
  const errors = [...query.errors, ...validatorFor(op.query, "query")(query.value, max)];
  return { value: query.value, errors: boundFields(errors, max, "query") };
}

/**
 * The hold fault point (control plane, `hold`): a matching request waits here, validated and with its
 * idempotency record in progress, until released. A held write with an image to download holds one
 * of the API's download slots meanwhile, so other image writes find the downloads busy.
 */
async function holdPoint(world: World, req: SimRequest, body: unknown): Promise<void> {
  const hold = world.faults.takeHold(req.method, req.path);
  if (!hold) return;
  const downloading = wouldDownload(world.images, (body as { image_url?: unknown } | undefined)?.image_url);
  if (downloading) world.images.downloading += 1;
  try {
    await world.faults.hold(hold);
  } finally {
    if (downloading) world.images.downloading -= 1;
  }
}

export type BodyResult = { ok: true; value: unknown } | { ok: false; error: ApiError };

/** A JSON content type, with optional parameters: `application/json; charset=utf-8`, `application/merge-patch+json`. */
export const isJson = (req: SimRequest): boolean =>
  /^application\/(?:[\w.+-]+\+)?json\s*(;|$)/i.test(req.headers["content-type"] ?? "");

/**
 * JSON bodies only, within the size limit, matching the schema (unknown properties refused), with at most
 * `maxFields` field errors listed. The control plane reads its bodies here too, by the same rules, except
 * that for it an empty body reads as `{}`.
 */
export function readBody(req: SimRequest, schema: TSchema | undefined, maxFields: number, empty?: "{}"): BodyResult {
  if (schema === undefined) return { ok: true, value: undefined };
  if (req.bodyTooLarge) return { ok: false, error: invalid("body", `must be at most ${MAX_BODY_BYTES} bytes`) };
  if (!req.body || req.body.length === 0) {
    if (empty === "{}") return checked(schema, {}, maxFields);
    return { ok: false, error: invalid("body", "a JSON body is required") };
  }
  if (!isJson(req)) return { ok: false, error: invalid("Content-Type", "must be application/json") };
  let value: unknown;
  try {
    // rule envelope.json-body: a body that is not JSON (cut short, trailing text, a form) is 400 VALIDATION_FAILED before any write
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(req.body));
  } catch {
    return { ok: false, error: invalid("body", "is not valid JSON in UTF-8") };
  }
  return checked(schema, value, maxFields);
}

function checked(schema: TSchema, value: unknown, maxFields: number): BodyResult {
  const fields = validatorFor(schema, "body")(value, maxFields);
  return fields.length > 0 ? { ok: false, error: validationFailed(fields) } : { ok: true, value };
}

/** The message lists the fields too: as many as `fields` (already bounded) has. */
function validationFailed(fields: readonly FieldError[]): ApiError {
  return apiError(
    "VALIDATION_FAILED",
    `Invalid request: ${fields.map((f) => `${f.field} ${f.message}`).join("; ")}.`,
    fields,
  );
}
