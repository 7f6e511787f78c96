import { fail, ok, type Result } from "../kernel/result.js";
import { apiError, invalid, type ApiError } from "../contract/errors.js";
import { versionOf } from "./feed.js";

// Spec, Product write rules 6: sending `version` (or `expected_version`) with an update that no longer
// matches answers 409 STALE_VERSION; if both are sent they must agree. Customers take the same pair
// (docs/spec-choices.md, Customers: the spec is silent there, and one rule for every update is what a
// client expects).

export interface ExpectedVersion {
  readonly version?: string;
  readonly expected_version?: string;
}

/** Whether an update that names the version it expects may go on against `row`. */
export function checkVersion(body: ExpectedVersion, row: { seq: number }, noun: string): Result<void, ApiError> {
  if (body.version !== undefined && body.expected_version !== undefined && body.version !== body.expected_version) {
    return fail(invalid("expected_version", "must agree with version when both are sent"));
  }
  const expected = body.version ?? body.expected_version;
  if (expected !== undefined && expected !== versionOf(row)) {
    return fail(apiError("STALE_VERSION", `The ${noun} is at version ${versionOf(row)}, not ${expected}.`));
  }
  return ok(undefined);
}
