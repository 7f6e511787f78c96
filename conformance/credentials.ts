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

/**
 * Each credential as the option that gave it, named without its secret (`--key catalog:read`,
 * `--extra-token`, `--other-store-token acme`, ...), with the secret a request carries when it uses it:
 * reports name the options a run (or one rule) used, never the secrets.
 */
export function credentialOptions(c: Credentials): { readonly option: string; readonly secret: string }[] {
  return [
    ...c.keys.map((k) => ({ option: `--key ${k.scopes.join(",") || "none"}`, secret: k.token })),
    ...c.extra.map((t) => ({ option: "--extra-token", secret: t })),
    ...(c.otherStore
      ? [
          {
            option: `--other-store-token ${storeKeyParts(c.otherStore).prefix}`,
            secret: storeKeyParts(c.otherStore).token,
          },
        ]
      : []),
    ...(c.revoked ? [{ option: "--revoked-token", secret: c.revoked }] : []),
    ...(c.lite
      ? [{ option: `--lite-token ${storeKeyParts(c.lite).prefix}`, secret: storeKeyParts(c.lite).token }]
      : []),
    ...(c.oauthClient ? [{ option: "--oauth-client", secret: c.oauthClient.client_secret }] : []),
    ...(c.oauthUser ? [{ option: "--oauth-user", secret: c.oauthUser.password }] : []),
  ];
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

/** The credential options as given on the command line, each possibly without its secret. */
export interface CredentialArgs {
  readonly token?: string;
  readonly controlToken?: string;
  readonly key?: readonly string[];
  readonly extraToken?: readonly string[];
  readonly otherStoreToken?: string;
  readonly revokedToken?: string;
  readonly liteToken?: string;
  readonly oauthClient?: string;
  readonly oauthRedirectUri?: string;
  readonly oauthUser?: string;
}

/**
 * The run's credentials from the command line and the environment (or a credentials file read into
 * it), by the names the reports' scripts use: a secret left off an option, or an option left out,
 * comes from `RETAIL_TOKEN`, `RETAIL_CONTROL_TOKEN`, `RETAIL_TOKEN_2`…, `RETAIL_KEY_<n>` (the n-th
 * `--key SCOPES`), `RETAIL_OTHER_STORE_TOKEN`, `RETAIL_REVOKED_TOKEN`, `RETAIL_LITE_TOKEN`,
 * `RETAIL_OAUTH_CLIENT_ID` and `RETAIL_OAUTH_CLIENT_SECRET`, `RETAIL_OAUTH_USER_EMAIL` and
 * `RETAIL_OAUTH_USER_PASSWORD`, so no secret need be on a command line
 * (where `ps` shows it).
 */
export function resolveCredentials(
  args: CredentialArgs,
  env: Readonly<Record<string, string | undefined>>,
): { token?: string; controlToken?: string; credentials: Credentials } {
  // A value left without its secret never appears in a message: it may be the secret, given wrongly.
  const from = (name: string, form: string): string => {
    const v = env[name];
    if (v === undefined || v === "") throw new Error(`${form} (or the first part alone, with ${name} set)`);
    return v;
  };
  const extra: string[] = [...(args.extraToken ?? [])];
  if (args.extraToken === undefined)
    for (let n = 2; env[`RETAIL_TOKEN_${n}`]; n++) extra.push(env[`RETAIL_TOKEN_${n}`] as string);
  const storeKey = (value: string | undefined, name: string, option: string) =>
    value === undefined || value.includes("=")
      ? value
      : `${value}=${from(name, `${option} takes PREFIX=TOKEN, the store's prefix and a key of it`)}`;
  const otherStore = storeKey(args.otherStoreToken, "RETAIL_OTHER_STORE_TOKEN", "--other-store-token");
  const lite = storeKey(args.liteToken, "RETAIL_LITE_TOKEN", "--lite-token");
  const revoked = args.revokedToken ?? (env.RETAIL_REVOKED_TOKEN || undefined);
  // `ID:SECRET` given whole, `ID` alone with its secret from the environment, or both from it.
  const pair = (value: string | undefined, idName: string, secretName: string, form: string) =>
    value === undefined
      ? env[idName] && env[secretName]
        ? `${env[idName]}:${env[secretName]}`
        : undefined
      : value.includes(":")
        ? value
        : `${value}:${from(secretName, form)}`;
  const client = pair(
    args.oauthClient,
    "RETAIL_OAUTH_CLIENT_ID",
    "RETAIL_OAUTH_CLIENT_SECRET",
    "--oauth-client takes CLIENT_ID:CLIENT_SECRET",
  );
  // `--key SCOPES` alone (every part a scope, or none) takes its key from RETAIL_KEY_<n>.
  const key = (k: string, i: number) =>
    k.includes("=") || !k.split(",").every((part) => part.trim() === "none" || SCOPE.test(part.trim()))
      ? k
      : `${k}=${from(`RETAIL_KEY_${i + 1}`, "--key takes SCOPES=TOKEN (for example catalog:read=rsk_…, or none=rsk_…)")}`;
  const user = pair(
    args.oauthUser,
    "RETAIL_OAUTH_USER_EMAIL",
    "RETAIL_OAUTH_USER_PASSWORD",
    "--oauth-user takes EMAIL:PASSWORD",
  );
  const token = args.token ?? (env.RETAIL_TOKEN || undefined);
  const controlToken = args.controlToken ?? (env.RETAIL_CONTROL_TOKEN || undefined);
  return {
    ...(token ? { token } : {}),
    ...(controlToken ? { controlToken } : {}),
    credentials: {
      keys: (args.key ?? []).map((k, i) => parseKeyOption(key(k, i))),
      extra,
      ...(otherStore ? { otherStore: (parseStoreKey(otherStore, "--other-store-token"), otherStore) } : {}),
      ...(revoked ? { revoked } : {}),
      ...(lite ? { lite: (parseStoreKey(lite, "--lite-token"), lite) } : {}),
      ...(client ? { oauthClient: parseOAuthClient(client, args.oauthRedirectUri) } : {}),
      ...(user ? { oauthUser: parseOAuthUser(user) } : {}),
    },
  };
}
