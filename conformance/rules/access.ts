import type { Rule } from "../types.js";
import { credentialRules } from "./access/credentials.js";
import { idempotencyRules } from "./access/idempotency.js";
import { limitRules, openapiRules } from "./access/limits.js";
import { limitExtraRules } from "./access/limits-extra.js";
import { oauthRules } from "./access/oauth.js";
import { scopeRules } from "./access/scopes.js";
import { storeRules } from "./access/stores.js";
import { tokenAnswerRules } from "./access/token-answers.js";

// Access rules: scopes, store states, credentials, idempotency, limits, OAuth and the OpenAPI document.
// Rules that move the target's clock run last, the 90-day one at the very end, so the rest of this
// file runs on an undisturbed clock.

const byId = (ids: readonly string[], rules: readonly Rule[]): Rule[] =>
  ids.map((id) => rules.find((r) => r.id === id) as Rule);
const all: readonly Rule[] = [
  ...scopeRules,
  ...storeRules,
  ...credentialRules,
  ...idempotencyRules,
  ...limitRules,
  ...openapiRules,
  ...oauthRules,
  ...limitExtraRules,
  ...tokenAnswerRules,
];
const CLOCK_LAST = [
  "limits.general-429",
  "limits.customers-429",
  "limits.failed-auth-429",
  "limits.token-failures",
  "oauth.code-expiry",
  "oauth.token-expiry",
  "auth.idle-expiry",
];

export const accessRules: readonly Rule[] = [
  ...all.filter((r) => !CLOCK_LAST.includes(r.id)),
  ...byId(CLOCK_LAST, all),
];
