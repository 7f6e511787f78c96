import type { Rule } from "../../rule.js";
import { disconnectRules } from "./disconnect.js";
import { flowRules } from "./flow.js";
import { tokenAnswerRules } from "./token-answers.js";

// The OAuth area: the authorization code flow and the token endpoint (flow.ts), the token answer's
// values (token-answers.ts) and disconnected connections (disconnect.ts).

export const oauthRules: readonly Rule[] = [...flowRules, ...tokenAnswerRules, ...disconnectRules];
