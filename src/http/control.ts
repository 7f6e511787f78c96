import { safeEqual } from "../kernel/digest.js";
import { apiError, invalid, type ApiError } from "../contract/errors.js";
import type { ControlOperation } from "../contract/control-operations.js";
import type { Match } from "../contract/router.js";
import { hostUrl, isLocalName } from "./exposure.js";
import { isJson, readBody } from "./pipeline.js";
import type { ControlPort } from "./ports.js";
import { emptyResponse, errorResponse, jsonResponse } from "./respond.js";
import { CONTROL_BASE } from "./routes.js";
import type { SimRequest, SimResponse } from "./types.js";

// The /_sim control plane (README, Control plane): JSON in and out, read by the API's rules, the spec's
// envelope on bad input.
// The operations are the table's (contract/control-operations.ts); the route table found this one.

/**
 * Whether a /_sim request may go on (docs/interfaces.md, Control plane; docs/spec-choices.md, Control plane from a
 * browser), checked before anything is read or changed: the plane is on; no web page of another site sent it
 * (a Host the simulator answers to while it listens on loopback, against DNS rebinding; no foreign Origin or
 * Sec-Fetch-Site); the control token; a JSON Content-Type on anything but a read, which no page can send
 * across sites without the CORS preflight the simulator never grants.
 */
export function controlRefusal(control: ControlPort, req: SimRequest): ApiError | undefined {
  if (!control.enabled) return apiError("NOT_FOUND", "The control plane is off (--no-control).");
  const { host, origin, authorization } = req.headers;
  const names = control.hostNames();
  if (host !== undefined && names !== undefined && !answersTo(host, names))
    return foreign(
      `Host ${host}: while it listens on loopback, /_sim answers to loopback addresses, localhost, the --public-url host and --allow-host names`,
    );
  if (origin !== undefined && origin !== req.origin && !sameHost(origin, host))
    return foreign(`Origin ${origin}: /_sim answers only its own origin, never a web page of another`);
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none")
    return foreign(`Sec-Fetch-Site ${site}: /_sim answers only its own origin, never a web page of another`);
  if (control.token !== undefined) {
    const given = /^Bearer ([\x21-\x7E]+)$/.exec(authorization ?? "")?.[1];
    // Compared in constant time (docs/spec-choices.md, Security).
    if (given === undefined || !safeEqual(given, control.token))
      return apiError("UNAUTHORIZED", "The control plane needs its token: Authorization: Bearer <--control-token>.");
  }
  const reads = req.method === "GET" || req.method === "HEAD";
  if (!reads && !isJson(req) && !(req.method === "DELETE" && req.headers["content-type"] === undefined))
    return invalid(
      "Content-Type",
      "must be application/json on every /_sim write, an empty body included (curl -H 'Content-Type: application/json'; Python requests: json={})",
    );
  return undefined;
}

function answersTo(host: string, names: ReadonlySet<string>): boolean {
  const name = hostUrl(host)?.hostname;
  return name !== undefined && (isLocalName(name) || names.has(name));
}

const foreign = (why: string): ApiError => apiError("INSUFFICIENT_SCOPE", `Refused: ${why}.`);

/** An http(s) origin with the host and port a Host header names (the simulator's own, whatever the scheme before it). */
function sameHost(origin: string, host: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === "http:" || url.protocol === "https:") && url.host === hostUrl(host ?? "")?.host;
}

export function handleControl(
  control: ControlPort,
  match: Match<ControlOperation> | undefined,
  req: SimRequest,
  /** The sandbox of a scoped control path (`/_sim/sandboxes/{sandbox_id}/...`). */
  sandbox?: string,
): SimResponse {
  if (!match) {
    const rest = req.path.slice(CONTROL_BASE.length) || "/";
    return errorResponse(apiError("NOT_FOUND", `No control route ${req.method} ${CONTROL_BASE}${rest}.`));
  }
  const op = match.route;
  // The API's body rules (size cap, JSON content type, UTF-8 JSON, the schema); an empty body reads as `{}`,
  // so the schema names any field it requires.
  const body = readBody(req, op.body, control.maxFieldErrors, "{}");
  if (!body.ok) return errorResponse(body.error);
  // Repeated parameters: the last one counts.
  const query = op.query ? Object.fromEntries(new URLSearchParams(req.query)) : undefined;
  const result = control.run(op.id, { params: match.params, body: body.value, query }, req.origin, sandbox);
  if (!result.ok) return errorResponse(result.error);
  return op.successStatus === 204 ? emptyResponse(204) : jsonResponse(op.successStatus, result.value);
}
