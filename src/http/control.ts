import { apiError } from "../contract/errors.js";
import type { ControlOperation } from "../contract/control-operations.js";
import type { Match } from "../contract/router.js";
import { validatorFor } from "../contract/validate.js";
import type { ControlPort } from "./ports.js";
import { emptyResponse, errorResponse, jsonResponse } from "./respond.js";
import { CONTROL_BASE } from "./routes.js";
import type { SimRequest, SimResponse } from "./types.js";

// The /_sim control plane (README, Control plane): JSON in and out, the spec's envelope on bad input.
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
  let body: unknown;
  if (op.body) {
    // An empty body reads as `{}`: the schema then names any field it requires.
    const text = req.body && req.body.length > 0 ? Buffer.from(req.body).toString("utf8") : "{}";
    try {
      body = JSON.parse(text);
    } catch {
      return errorResponse(
        apiError("VALIDATION_FAILED", "The body is not valid JSON.", [{ field: "body", message: "is not valid JSON" }]),
      );
    }
    const fields = validatorFor(op.body)(body);
    if (fields.length > 0) return errorResponse(apiError("VALIDATION_FAILED", "Invalid control request.", fields));
  }
  const result = control.run(op.id, { params: match.params, body }, req.origin, sandbox);
  if (!result.ok) return errorResponse(result.error);
  return op.successStatus === 204 ? emptyResponse(204) : jsonResponse(op.successStatus, result.value);
}
