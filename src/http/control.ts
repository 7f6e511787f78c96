import { apiError } from "../contract/errors.js";
import type { ControlOperation } from "../contract/control-operations.js";
import type { Match } from "../contract/router.js";
import { readBody } from "./pipeline.js";
import type { ControlPort } from "./ports.js";
import { emptyResponse, errorResponse, jsonResponse } from "./respond.js";
import { CONTROL_BASE } from "./routes.js";
import type { SimRequest, SimResponse } from "./types.js";

// The /_sim control plane (README, Control plane): JSON in and out, read by the API's rules, the spec's
// envelope on bad input.
// The operations are the table's (contract/control-operations.ts); the route table found this one.

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
