// Credentials a run can be handed besides its main token, so that rules which need a second
// credential run against a deployment without a control plane (staging): what a QA team can make in
// the back office (spec, Authentication 2: keys with chosen scopes, revocable at once) or be given.

export interface GivenKey {
  readonly token: string;
  /** The key's scopes as ticked in the back office; a write scope also ticks its read scope. */
  readonly scopes: readonly string[];
}

export interface OAuthClient {
  readonly client_id: string;
  readonly client_secret: string;
  readonly redirect_uri?: string;
}

export interface Credentials {
  /** Keys of the store under test with chosen scopes (`none` for none). */
  readonly keys: readonly GivenKey[];
  /** More full-scope keys of the same store: a second credential, and more rate budget for the run. */
  readonly extra: readonly string[];
  /** A full key of another store (tenant isolation), as `PREFIX=TOKEN`: the key alone does not say which `{base_url}` it belongs to. */
  readonly otherStore?: string;
  /** A key of this store that was revoked. */
  readonly revoked?: string;
  /** A key of a store on a plan without API access (Lite), as `PREFIX=TOKEN`. */
  readonly lite?: string;
  readonly oauthClient?: OAuthClient;
  /** A merchant user of the store who may consent, for a headless sign-in at the consent screen. */
  readonly oauthUser?: OAuthUser;
}

export interface OAuthUser {
  readonly email: string;
  readonly password: string;
}

export const NO_CREDENTIALS: Credentials = { keys: [], extra: [] };

const SCOPE = /^(catalog|inventory|customers):(read|write)$|^sales:read$/;

/** `catalog:read,sales:read=<token>` or `none=<token>`: a key and the scopes it was given. */
export function parseKeyOption(text: string): GivenKey {
  const at = text.indexOf("=");
  if (at <= 0 || at === text.length - 1)
    throw new Error(
      `--key takes SCOPES=TOKEN (for example catalog:read=rsk_…, or none=rsk_…), not ${JSON.stringify(text.slice(0, 40))}`,
    );
  const list = text.slice(0, at).trim();
  const scopes = list === "none" ? [] : list.split(",").map((s) => s.trim());
  const bad = scopes.filter((s) => !SCOPE.test(s));
  if (bad.length > 0)
    throw new Error(
      `--key names unknown scopes ${bad.join(", ")}; scopes are catalog:read, catalog:write, inventory:read, inventory:write, customers:read, customers:write, sales:read, or none`,
    );
  return { token: text.slice(at + 1).trim(), scopes };
}

/** `client_id:client_secret`. */
export function parseOAuthClient(text: string, redirectUri?: string): OAuthClient {
  const at = text.indexOf(":");
  if (at <= 0 || at === text.length - 1) throw new Error("--oauth-client takes CLIENT_ID:CLIENT_SECRET");
  return {
    client_id: text.slice(0, at),
    client_secret: text.slice(at + 1),
    ...(redirectUri ? { redirect_uri: redirectUri } : {}),
  };
}

/** `EMAIL:PASSWORD` (the password may hold colons; the email holds none). */
export function parseOAuthUser(text: string): OAuthUser {
  const at = text.indexOf(":");
  if (at <= 0 || at === text.length - 1 || !text.slice(0, at).includes("@"))
    throw new Error("--oauth-user takes EMAIL:PASSWORD, a merchant user of the store who may consent");
  return { email: text.slice(0, at), password: text.slice(at + 1) };
}

/** `PREFIX=TOKEN` of another store's key (--other-store-token, --lite-token). */
export function parseStoreKey(text: string, option: string): { prefix: string; token: string } {
  const at = text.indexOf("=");
  const prefix = at > 0 ? text.slice(0, at).trim() : "";
  const token = at > 0 ? text.slice(at + 1).trim() : "";
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(prefix) || token === "")
    throw new Error(
      `${option} takes PREFIX=TOKEN, the store's prefix and a key of it (the key alone does not say which {base_url} it belongs to)`,
    );
  return { prefix, token };
}

const tokenOf = (storeKey: string | undefined) =>
  storeKey === undefined ? undefined : storeKey.slice(storeKey.indexOf("=") + 1);

/** Every secret among the credentials, for redaction. */
export function credentialSecrets(c: Credentials): string[] {
  return [
    ...c.keys.map((k) => k.token),
    ...c.extra,
    tokenOf(c.otherStore),
    c.otherStore,
    c.revoked,
    tokenOf(c.lite),
    c.lite,
    c.oauthClient?.client_secret,
    c.oauthUser?.password,
    // As a sign-in form carries it.
    c.oauthUser ? new URLSearchParams({ p: c.oauthUser.password }).toString().slice(2) : undefined,
  ].filter((s): s is string => typeof s === "string" && s.length > 0);
}

/** The key of a `PREFIX=TOKEN` option, and the prefix (which is no secret). */
export const storeKeyParts = (storeKey: string): { prefix: string; token: string } => ({
  prefix: storeKey.slice(0, Math.max(0, storeKey.indexOf("="))),
  token: tokenOf(storeKey) as string,
});

/** Which option gives what a skipped rule needs, for the verdict's "what would let it run". */
export const CREDENTIAL_OPTIONS = {
  key: "--key SCOPES=TOKEN (a key with exactly those scopes)",
  extra: "--extra-token TOKEN (a second full key of the store)",
  otherStore: "--other-store-token PREFIX=TOKEN (a key of another store, with its prefix)",
  revoked: "--revoked-token TOKEN (a revoked key of the store)",
  lite: "--lite-token PREFIX=TOKEN (a key of a store on the Lite plan, with its prefix)",
  oauthClient: "--oauth-client ID:SECRET (an OAuth client's credentials)",
  oauthUser: "--oauth-user EMAIL:PASSWORD (a merchant user of the store who may consent)",
} as const;

/** A credential option a rule may need in place of the control plane. */
export type CredentialNeed = keyof typeof CREDENTIAL_OPTIONS;
