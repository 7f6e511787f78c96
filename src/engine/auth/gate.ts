import { apiError, type ApiError } from "../../contract/errors.js";
import type { StoreStatus } from "../../contract/store-states.js";
import type { StoreSettings } from "../store.js";

// Spec, Errors: the store states that block API calls (403) and the plan and billing states (402).
const STATUS_ERRORS: Record<Exclude<StoreStatus, "active">, ApiError> = {
  paused: apiError("RETAILER_PAUSED", "The store is paused; the owner must act in billing."),
  trial_decision_required: apiError("TRIAL_DECISION_REQUIRED", "The store owner must choose a plan."),
  plan_users_exceeded: apiError("PLAN_USERS_EXCEEDED", "The store's plan limit is reached."),
  cancelled: apiError("RETAILER_CANCELLED", "The store is cancelled."),
  suspended: apiError("RETAILER_SUSPENDED", "The store is suspended."),
  not_found: apiError("RETAILER_NOT_FOUND", "The store was not found."),
};

/** The refusal a store's status or plan gives every API call, or undefined when calls may go on. */
export function storeGate(settings: StoreSettings): ApiError | undefined {
  if (settings.status !== "active") return STATUS_ERRORS[settings.status];
  if (settings.plan !== "growth")
    return apiError("PLAN_REQUIRED", "The store's plan lacks API access; it needs the Growth plan.");
  return undefined;
}
