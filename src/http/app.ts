import { httpDate } from "../kernel/clock.js";
import { safeEqual } from "../kernel/digest.js";
import { apiError } from "../contract/errors.js";
import type { Simulator } from "../simulator.js";
import { handleControl } from "./control.js";
import { handleAuthorize, handleToken } from "./oauth.js";
import { handleApi } from "./pipeline.js";
import { errorResponse } from "./respond.js";
import type { SimRequest, SimResponse } from "./types.js";
import type { Fault } from "../engine/faults.js";

/** A 1x1 PNG: the simulator's stored copy of every imported image (no network is ever used). */
const PIXEL = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** Spec, Product write rules 7: image_url and image_thumb_url point to the service's own copy, served here. */
function serveImage(sim: Simulator, imageId: string): SimResponse {
  if (!sim.world.images.stored.has(imageId)) return errorResponse(apiError("NOT_FOUND", "No such image."));
  return {
    status: 200,
    headers: { "content-type": "image/png", "cache-control": "public, max-age=31536000, immutable" },
    body: PIXEL,
  };
}

/** The whole server as one function: control plane, injected faults, then the API pipeline. */
export async function handle(sim: Simulator, req: SimRequest): Promise<SimResponse> {
  let response: SimResponse;
  try {
    response = await dispatch(sim, req);
  } catch (error) {
    sim.world.log?.(`internal error: ${(error as Error).stack ?? String(error)}`);
    response = errorResponse(apiError("INTERNAL", "The server failed; retry after a short delay."));
  }
  // The Date header comes from the simulator's clock, so a manual clock gives reproducible headers.
  response.headers["date"] = httpDate(sim.world.env.clock.now());
  return response;
}

async function dispatch(sim: Simulator, req: SimRequest): Promise<SimResponse> {
  if (req.path === "/_sim" || req.path.startsWith("/_sim/")) {
    if (!sim.controlEnabled) return errorResponse(apiError("NOT_FOUND", "The control plane is off (--no-control)."));
    if (sim.controlToken !== undefined && !controlAuthorized(sim.controlToken, req.headers.authorization)) {
      return errorResponse(
        apiError("UNAUTHORIZED", "The control plane needs its token: Authorization: Bearer <--control-token>."),
      );
    }
    return handleControl(sim, req, req.path.slice("/_sim".length) || "/");
  }
  if (req.path === "/oauth/authorize") return handleAuthorize(sim.world, req);
  if (req.path === "/oauth/token") return handleToken(sim.world, req);
  const image = /^\/images\/([0-9a-f-]{36})\/(original|thumb)\.png$/.exec(req.path);
  if (image && req.method === "GET") return serveImage(sim, image[1] as string);
  const world = sim.world;
  const fault = world.faults.take(req.method, req.path);
  if (fault?.delay_ms) await world.env.sleep(fault.delay_ms);
  if (fault?.status !== undefined && !fault.after_commit) return injected(fault, `Injected fault ${fault.id}.`);
  const response = await handleApi(world, req);
  if (fault?.after_commit) {
    // The request was processed (a write is committed, its idempotency record stored); its answer is lost.
    const lost = injected(fault, `Injected fault ${fault.id}: the request was processed, but its response was lost.`);
    for (const name of ["ratelimit-policy", "ratelimit"])
      if (response.headers[name] !== undefined) lost.headers[name] = response.headers[name];
    return lost;
  }
  return response;
}

/** The control token, compared in constant time (docs/spec-choices.md, Security). */
function controlAuthorized(token: string, header: string | undefined): boolean {
  const given = /^Bearer ([\x21-\x7E]+)$/.exec(header ?? "")?.[1];
  return given !== undefined && safeEqual(given, token);
}

function injected(fault: Fault, message: string): SimResponse {
  const code = fault.code ?? "INTERNAL";
  const headers: Record<string, string> = fault.status === 429 ? { "retry-after": "1" } : {};
  const response = errorResponse({ code, message }, headers);
  response.status = fault.status as number;
  response.injected = true;
  return response;
}
