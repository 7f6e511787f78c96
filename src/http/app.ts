import { httpDate } from "../kernel/clock.js";
import { stopwatch } from "../kernel/stopwatch.js";
import { apiError } from "../contract/errors.js";
import { operationParams, type Match } from "../contract/router.js";
import { OAUTH_DOCUMENT_PATH } from "../contract/path.js";
import type { Fault } from "../engine/faults.js";
import type { World } from "../engine/world.js";
import { controlRefusal, handleControl } from "./control.js";
import { handleAuthorize, handleToken, oauthClientId } from "./oauth.js";
import { handleApi } from "./pipeline.js";
import type { RequestHandler, ServerPorts, WorldPort } from "./ports.js";
import { errorResponse, jsonResponse } from "./respond.js";
import { CONTROL_BASE, serverRoutes, type Route } from "./routes.js";
import type { SimRequest, SimResponse } from "./types.js";
import { decodeSegment } from "../contract/path.js";

/** A 1x1 PNG: the simulator's stored copy of every imported image (no network is ever used). */
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** An image's path as sent: the route table matches decoded segments, an image answers only at its own spelling. */
const IMAGE_PATH = /^\/images\/([0-9a-f-]{36})\/(original|thumb)\.png$/;

/** Spec, Product write rules 7: image_url and image_thumb_url point to the service's own copy, served here. */
function serveImage(worlds: Iterable<World>, imageId: string): SimResponse {
  let stored = false;
  for (const world of worlds) stored ||= world.images.stored.has(imageId);
  if (!stored) return errorResponse(apiError("NOT_FOUND", "No such image."));
  return {
    status: 200,
    headers: { "content-type": "image/png", "cache-control": "public, max-age=31536000, immutable" },
    body: PIXEL,
  };
}

/**
 * The whole server as one function: one route table matched once, then the control plane, the OAuth
 * endpoints, the images, or injected faults and the API pipeline.
 */
export function createServer(ports: ServerPorts): RequestHandler {
  const routes = serverRoutes();
  return async (req) => {
    const started = stopwatch();
    const match = routes.match(req.method, req.path);
    // A request finishes in the world it arrived in, even if the control plane resets meanwhile.
    const world = worldOf(ports.worlds, req, match);
    const startedAt = world.env.clock.now();
    let response: SimResponse;
    try {
      response = await dispatch(ports, match, world, req);
    } catch (error) {
      ports.log?.(`internal error: ${(error as Error).stack ?? String(error)}`);
      response = errorResponse(apiError("INTERNAL", "The server failed; retry after a short delay."));
    }
    // The Date header comes from the simulator's clock, so a manual clock gives reproducible headers.
    response.headers["date"] = httpDate(world.env.clock.now());
    const journaled = req.path.startsWith(CONTROL_BASE) ? undefined : journaledAs(match);
    if (journaled !== undefined)
      ports.journalOf?.(world)?.record(req, response, journaled, startedAt, stopwatch() - started);
    return response;
  };
}

/**
 * What the journal records an exchange as: its operation id (`createToken` and `authorize` for the OAuth
 * endpoints, null for a path no route matched), or undefined for what it leaves out (the control plane,
 * the stored images and the OAuth document).
 */
function journaledAs(match: Match<Route> | undefined): string | null | undefined {
  const route = match?.route;
  switch (route?.kind) {
    case undefined:
      return null;
    case "api":
      return route.op.id;
    case "token":
      return "createToken";
    case "authorize":
      return "authorize";
    default:
      return undefined;
  }
}

/** The world a request belongs to: its sandbox's, named by its control path, OAuth client or store prefix. */
function worldOf(worlds: WorldPort, req: SimRequest, match: Match<Route> | undefined): World {
  const route = match?.route;
  if (route?.kind === "control" && route.scoped)
    return worlds.forSandbox(match?.params.sandbox_id ?? "") ?? worlds.main();
  if (route?.kind === "authorize" || route?.kind === "token") {
    const clientId = oauthClientId(req);
    return clientId === undefined ? worlds.main() : worlds.forClient(clientId);
  }
  const prefix = STORE_SEGMENT.exec(req.path)?.[1];
  return prefix === undefined ? worlds.main() : worlds.forStore(decodeSegment(prefix));
}

const STORE_SEGMENT = /^\/([^/]+)\/v1(?:\/|$)/;

async function dispatch(
  ports: ServerPorts,
  match: Match<Route> | undefined,
  world: World,
  req: SimRequest,
): Promise<SimResponse> {
  const route = match?.route;
  if (req.path === CONTROL_BASE || req.path.startsWith(`${CONTROL_BASE}/`)) {
    const { control } = ports;
    const refused = controlRefusal(control, req);
    if (refused) return errorResponse(refused);
    if (route?.kind !== "control" || !match) return handleControl(control, undefined, req);
    if (!route.scoped) return handleControl(control, { route: route.op, params: match.params }, req);
    const { sandbox_id: sandbox, ...params } = match.params;
    return handleControl(control, { route: route.op, params }, req, sandbox);
  }
  // The OAuth endpoints and the images answer at their paths as sent; any other spelling is a store path.
  if (route?.kind === "authorize" && req.path === "/oauth/authorize") return handleAuthorize(world, req);
  if (route?.kind === "token" && req.path === "/oauth/token") return handleToken(world, req);
  if (route?.kind === "oauth-document" && req.path === OAUTH_DOCUMENT_PATH)
    // The document's builder loads at the first request for it, not at start-up.
    return jsonResponse(200, (await import("../contract/openapi-oauth.js")).buildOAuthOpenApi(req.origin));
  const imageId = route?.kind === "image" ? IMAGE_PATH.exec(req.path)?.[1] : undefined;
  if (imageId !== undefined) return serveImage(ports.worlds.all(), imageId);
  const operation =
    route?.kind === "api" && match ? { route: route.op, params: operationParams(match.params) } : undefined;
  return withFaults(world, req, () => handleApi(world, req, operation));
}

/** The injected faults of the control plane, before the API pipeline (and, with after_commit, after it). */
async function withFaults(world: World, req: SimRequest, pipeline: () => Promise<SimResponse>): Promise<SimResponse> {
  const fault = world.faults.take(req.method, req.path);
  if (fault?.delay_ms) await world.env.sleep(fault.delay_ms);
  if (fault?.status !== undefined && !fault.after_commit) return injected(fault, `Injected fault ${fault.id}.`);
  const response = await pipeline();
  if (fault?.after_commit) {
    // The request was processed (a write is committed, its idempotency record stored); its answer is lost.
    const lost = injected(fault, `Injected fault ${fault.id}: the request was processed, but its response was lost.`);
    for (const name of ["ratelimit-policy", "ratelimit"])
      if (response.headers[name] !== undefined) lost.headers[name] = response.headers[name];
    return lost;
  }
  return response;
}

function injected(fault: Fault, message: string): SimResponse {
  const code = fault.code ?? "INTERNAL";
  const headers: Record<string, string> = fault.status === 429 ? { "retry-after": "1" } : {};
  const response = errorResponse({ code, message }, headers);
  response.status = fault.status as number;
  response.injected = true;
  return response;
}
