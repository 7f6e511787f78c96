// Plans and store states the control plane can set; each status maps to one of the spec's 402 or 403
// codes (engine/auth/gate.ts). One list for the control body, the fixture format and the engine.

export const PLANS = ["growth", "lite"] as const;
export type Plan = (typeof PLANS)[number];

export const STORE_STATUSES = [
  "active",
  "paused",
  "trial_decision_required",
  "plan_users_exceeded",
  "cancelled",
  "suspended",
  "not_found",
] as const;
export type StoreStatus = (typeof STORE_STATUSES)[number];
