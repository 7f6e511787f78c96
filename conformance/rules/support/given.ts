import type { RuleContext } from "../../context.js";
import { Skip } from "../../outcomes.js";
import { closure, secret, storePrefix, type Key } from "./access.js";

// Credentials handed to a run on the command line (a staging run has no control plane to make them):
// keys of this store with chosen scopes (--key), a key of another store (--other-store-token), a key
// of a store on the Lite plan (--lite-token) and an OAuth client (--oauth-client).

/**
 * `{api_root}` (spec, Conventions: `{base_url}` = `{api_root}/{store_prefix}/v1`): the control URL
 * without `/_sim` when there is one, else the run's base URL without `/{store_prefix}/v1`.
 */
export function apiRootOf(ctx: RuleContext): string {
  const control = ctx.run.target.controlUrl;
  if (control) return control.replace(/\/_sim\/?$/, "");
  const root = ctx.run.apiRoot;
  if (root === ctx.run.target.baseUrl.replace(/\/+$/, ""))
    throw new Error(`the base URL ${ctx.run.target.baseUrl} does not end in /{store_prefix}/v1`);
  return root;
}

/** The keys given with --key SCOPES=TOKEN, each with its scopes closed (a write scope also ticks its read scope). */
export function givenKeys(ctx: RuleContext): Key[] {
  return ctx.run.credentials.keys.map((k) => ({ id: "", token: k.token, scopes: closure(k.scopes) }));
}

export interface GivenStore {
  readonly prefix: string;
  readonly baseUrl: string;
  readonly token: string;
}

/** A store prefix as it stands in a path segment. */
const PREFIX = /^[A-Za-z0-9][A-Za-z0-9._~-]*$/;

/**
 * A key of another store given on the command line, as `PREFIX=TOKEN`: the key alone does not say
 * which `{base_url}` it belongs to (GET /me, which names the prefix, is itself under the prefix:
 * spec, Authentication 10), and a refusal under a guessed prefix proves nothing. A bare TOKEN skips
 * the rule, naming the form.
 */
export function givenStore(
  ctx: RuleContext,
  value: string | undefined,
  option: "--other-store-token" | "--lite-token",
  what: string,
): GivenStore {
  if (value === undefined)
    throw new Skip(`needs ${what}: ${option} PREFIX=TOKEN, or the target's control plane (--control)`, option);
  const at = value.indexOf("=");
  const prefix = at > 0 ? value.slice(0, at).trim() : "";
  const token = at > 0 ? value.slice(at + 1).trim() : value.trim();
  secret(ctx, token);
  if (!PREFIX.test(prefix) || token === "") {
    throw new Skip(
      `needs the prefix of the store whose key was given to ${option} (the key alone does not say which {base_url} it belongs to): ${option} PREFIX=TOKEN`,
      `${option} PREFIX=TOKEN`,
    );
  }
  return { prefix, baseUrl: `${apiRootOf(ctx)}/${encodeURIComponent(prefix)}/v1`, token };
}

/**
 * The key of another store given to --other-store-token PREFIX=TOKEN, once seen to work under its
 * own prefix (GET /me answers 200) and to be of another store than this one: otherwise a refusal
 * here would prove nothing.
 */
export async function otherStoreGiven(ctx: RuleContext): Promise<GivenStore> {
  const other = givenStore(ctx, ctx.run.credentials.otherStore, "--other-store-token", "a key of another store");
  const ours = await storePrefix(ctx);
  if (other.prefix === ours)
    throw new Skip(
      `the key given to --other-store-token is said to be of ${other.prefix}, this store: a key of another store is needed`,
      "--other-store-token PREFIX=TOKEN",
    );
  const me = await ctx.send("GET", `${other.baseUrl}/me`, { token: other.token });
  if (me.status !== 200) {
    throw new Skip(
      `the key given to --other-store-token does not work under its store's prefix: GET ${other.baseUrl}/me answered ${me.status}`,
      "--other-store-token PREFIX=TOKEN",
    );
  }
  return other;
}

export interface GivenClient {
  readonly apiRoot: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** A redirect URI registered for the client, when one was given (--oauth-redirect-uri). */
  readonly redirectUri?: string;
}

/** The OAuth client given with --oauth-client ID:SECRET; the token endpoint is `{api_root}/oauth/token` (spec, Endpoints). */
export function givenClient(ctx: RuleContext): GivenClient {
  const c = ctx.run.credentials.oauthClient;
  if (!c)
    throw new Skip(
      "needs an OAuth client's credentials: --oauth-client ID:SECRET, or the target's control plane (--control)",
      "--oauth-client",
    );
  secret(ctx, c.client_secret);
  return {
    apiRoot: apiRootOf(ctx),
    clientId: c.client_id,
    clientSecret: c.client_secret,
    ...(c.redirect_uri ? { redirectUri: c.redirect_uri } : {}),
  };
}
