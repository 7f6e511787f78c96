import type { Mutant } from "../base.js";
import { formOf, jsonOf, mapResponseJson, type Next, withText } from "./support.js";

// Honest variants of the token endpoint (Authentication): which allowed status a refusal gets, and
// whether a code used twice ends the connection its first use made.

const TOKEN = "/oauth/token";

/** The simulator's control requests that start its state over (new codes may repeat old ones). */
const RESETS = /^\/_sim\/(?:sandboxes(?:\/[^/]+\/reset)?|reset)$/;

/** A code no exchange ever made: the simulator answers it invalid_grant, and counts the failure. */
const SPENT = "rsc_code_spent";

/** Codes already exchanged are sent on as unknown codes, so a second use ends nothing. */
function keepConnections(next: Next): Next {
  const used = new Set<string>();
  return async (req) => {
    if (req.method === "POST" && RESETS.test(req.path)) {
      const res = await next(req);
      if (res.status < 300) used.clear();
      return res;
    }
    if (req.method !== "POST" || req.path !== TOKEN) return next(req);
    const form = formOf(req);
    const code = form.get("code");
    if (form.get("grant_type") !== "authorization_code" || code === null) return next(req);
    if (used.has(code)) {
      form.set("code", SPENT);
      return next(withText(req, form.toString()));
    }
    const res = await next(req);
    if (res.status === 200) used.add(code);
    return res;
  };
}

export const oauthVariants: readonly Mutant[] = [
  {
    name: "honest.both-credentials-401",
    breaks:
      'Allowed: client credentials sent both as HTTP Basic and in the body answer 401 invalid_client (with WWW-Authenticate: Basic). Spec, Authentication 5: "Client credentials are sent as HTTP Basic or as client_id and client_secret in the body, never both." gives no status; 8: "Bad client credentials answer 401 invalid_client." (spec-choices, Client credentials sent both ways: 400 or 401)',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "POST" || req.path !== TOKEN || res.status !== 400) return res;
      const form = formOf(req);
      const basic = /^basic /i.test(req.headers["authorization"] ?? "");
      if (!basic || !(form.has("client_id") || form.has("client_secret")) || jsonOf(res)?.error !== "invalid_request")
        return res;
      return mapResponseJson(
        { ...res, status: 401, headers: { ...res.headers, "www-authenticate": 'Basic realm="retail-sim"' } },
        () => ({ error: "invalid_client", error_description: "Send the client credentials one way only." }),
      );
    },
  },
  {
    name: "honest.code-reuse-keeps-connection",
    breaks:
      'Allowed: an authorization code used a second time answers invalid_grant and leaves the connection its first use made working. Spec, Authentication 4: "A code is valid for 10 minutes and works once."; 8: "A wrong, expired or used code or token answers invalid_grant." (spec-choices, A code used twice: connection kept; RFC 6749 4.1.2 says only SHOULD revoke)',
    caughtBy: [],
    wrap: keepConnections,
  },
  {
    name: "honest.token-lockout-400",
    breaks:
      'Allowed: token endpoint failures past 30 per 5 minutes answer 400 (not 429), still {error: "invalid_request", error_description}. Spec, Limits: "Token endpoint failures, per network address | 30 per 5 minutes; answered in the OAuth shape with error value invalid_request" gives no status (spec-choices: 400 or 429).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return req.path === TOKEN && res.status === 429 ? { ...res, status: 400 } : res;
    },
  },
];
