import { bodyText, mapJson, type Mutant } from "./base.js";
import { CONTROL_PATH, withText } from "./support.js";

// Broken OAuth (spec, Authentication 3 to 8): the token endpoint's answers and errors, client
// credentials, and disconnected connections.

const TOKEN = "/oauth/token";
const DISCONNECT = CONTROL_PATH("/connections/([^/]+)/disconnect");

export const oauthMutants: readonly Mutant[] = [
  {
    name: "oauth-errors-in-envelope",
    breaks:
      "Authentication 8: token endpoint errors use {error, error_description} (this one answers the API's error envelope)",
    caughtBy: ["oauth.error-shape"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.path !== "/oauth/token" || res.status < 400) return res;
      return mapJson(res, (b) => ({
        error: { code: String(b?.error ?? "").toUpperCase(), message: String(b?.error_description ?? "") },
      }));
    },
  },
  {
    name: "token-expires-in-ms",
    breaks: "Authentication 6: expires_in is 3600 (seconds; this one answers milliseconds)",
    caughtBy: ["oauth.token-response-values"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.path !== TOKEN || res.status !== 200) return res;
      return mapJson(res, (b) => (typeof b?.expires_in === "number" ? { ...b, expires_in: b.expires_in * 1000 } : b));
    },
  },
  {
    name: "token-scope-comma-separated",
    breaks: "Authentication 6: scope is space separated (this one joins the scopes with commas)",
    caughtBy: ["oauth.token-response-values"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.path !== TOKEN || res.status !== 200) return res;
      return mapJson(res, (b) => (typeof b?.scope === "string" ? { ...b, scope: b.scope.split(" ").join(",") } : b));
    },
  },
  {
    name: "client-credentials-both-accepted",
    breaks:
      "Authentication 5: client credentials are sent as HTTP Basic or in the body, never both (this one takes the header and ignores the body's)",
    caughtBy: ["oauth.client-credentials-both-ways"],
    wrap: (next) => async (req) => {
      if (req.path !== TOKEN || !/^basic\s/i.test(req.headers.authorization ?? "")) return next(req);
      const form = new URLSearchParams(bodyText(req));
      if (!form.has("client_id") && !form.has("client_secret")) return next(req);
      form.delete("client_id");
      form.delete("client_secret");
      return next(withText(req, form.toString()));
    },
  },
  {
    name: "disconnect-keeps-tokens",
    breaks:
      "States: a disconnected OAuth connection stops immediately (this one marks it disconnected but its tokens keep working)",
    caughtBy: ["oauth.disconnect-stops"],
    wrap: (next) => async (req) => {
      const id = DISCONNECT.exec(req.path)?.[1];
      if (req.method !== "POST" || id === undefined) return next(req);
      return {
        status: 200,
        headers: { "content-type": "application/json; charset=utf-8" },
        body: JSON.stringify({ id, state: "revoked" }),
      };
    },
  },
];
