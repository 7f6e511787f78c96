// The public surface of the package (docs/interfaces.md, Library).
export {
  createSimulator,
  Simulator,
  ControlError,
  type ControlFunctions,
  type SandboxHandle,
  type SimulatorOptions,
} from "./simulator.js";
export {
  CONTROL_OPERATIONS,
  type ControlOperation,
  type ControlOperationId,
} from "./contract/control-operations.js";
export type { CredentialsView, KeyView, FaultView } from "./engine/control.js";
export type { SandboxView } from "./engine/control-handlers.js";
export type { SandboxBody } from "./contract/schemas/control.js";
export type { CloseOptions, CloseReport, Listening } from "./http/node.js";
export { ExposedControlError } from "./http/exposure.js";
export type { SimRequest, SimResponse } from "./http/types.js";
export { toHar, type Har, type HarEntry, type HarOptions } from "./http/har.js";
export { buildOpenApi } from "./contract/openapi.js";
export { OPERATIONS, type OperationId } from "./contract/operations/index.js";
export { ERROR_STATUS, type ErrorCode, type ApiError, type FieldError } from "./contract/errors.js";
export { SCOPES, type Scope } from "./contract/scopes.js";
export type { FixtureSpec } from "./contract/schemas/fixture.js";
export type { Snapshot } from "./contract/schemas/snapshot.js";
