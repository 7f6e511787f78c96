import type { Rule } from "../../rule.js";
import { bearerRules } from "./bearer.js";
import { credentialRules } from "./credentials.js";
import { meRules } from "./me.js";

// The Authentication area: the Authorization header (bearer.ts), revoked and idle keys
// (credentials.ts) and the Identity of GET /me (me.ts).

export const authRules: readonly Rule[] = [...bearerRules, ...credentialRules, ...meRules];
