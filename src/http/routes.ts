import {
  CONTROL_OPERATIONS,
  SANDBOX_BASE,
  SANDBOX_OPERATIONS,
  type ControlOperation,
} from "../contract/control-operations.js";
import type { Operation } from "../contract/operation.js";
import { OAUTH_DOCUMENT_PATH } from "../contract/path.js";
import { OPERATIONS } from "../contract/operations/index.js";
import { ANY_METHOD, Router, STORE_BASE } from "../contract/router.js";

// The server's one route table: the API's operations under each store's base URL, the control plane
// under /_sim, the OAuth endpoints and the stored images. http/app.ts matches it once per request.

/** Where the control plane lives (README, Control plane). */
export const CONTROL_BASE = "/_sim";

export type Route =
  | { readonly kind: "api"; readonly op: Operation }
  /** `scoped`: under `/_sim/sandboxes/{sandbox_id}`, run against that sandbox. */
  | { readonly kind: "control"; readonly op: ControlOperation; readonly scoped: boolean }
  /** Spec, Authentication: `{auth_url}/oauth/authorize` (the consent screen) and `{api_root}/oauth/token`. */
  | { readonly kind: "authorize" | "token" }
  /** The token endpoint's own OpenAPI document (contract/openapi-oauth.ts), at `{api_root}/oauth/openapi.json`. */
  | { readonly kind: "oauth-document" }
  /** Spec, Product write rules 7: the service's own copy of an imported image. */
  | { readonly kind: "image" };

export function serverRoutes(
  operations: readonly Operation[] = OPERATIONS,
  control: readonly ControlOperation[] = CONTROL_OPERATIONS,
): Router<Route> {
  return new Router<Route>()
    .addTable(operations, STORE_BASE, (op) => ({ kind: "api", op }))
    .addTable(control, CONTROL_BASE, (op) => ({ kind: "control", op, scoped: false }))
    .addTable(
      control.filter((op) => !SANDBOX_OPERATIONS.has(op.id)),
      `${CONTROL_BASE}${SANDBOX_BASE}`,
      (op) => ({ kind: "control", op, scoped: true }),
    )
    .add(ANY_METHOD, "/oauth/authorize", { kind: "authorize" })
    .add(ANY_METHOD, "/oauth/token", { kind: "token" })
    .add("GET", OAUTH_DOCUMENT_PATH, { kind: "oauth-document" })
    .add("GET", "/images/{image_id}/original.png", { kind: "image" })
    .add("GET", "/images/{image_id}/thumb.png", { kind: "image" });
}
