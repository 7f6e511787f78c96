// Helpers for the OAuth tests (spec, Authentication 3 to 10): the fixture's users and client, the
// headless consent (`POST /_sim/oauth/authorize`), form posts to `/oauth/token`, and a small reader
// of the consent screen's HTML forms. Only expectOAuthError asserts.
import { expect } from "vitest";
import { createHash, randomBytes } from "node:crypto";
import type { Simulator } from "../simulator.js";
import { ORIGIN } from "./sim.js";

export interface User {
  id: string;
  email: string;
  password: string;
  store_prefix: string;
  role: string;
  plan: string;
}

export interface Client {
  client_id: string;
  client_secret: string;
  name: string;
  redirect_uris: string[];
}

export interface Fixture {
  admin: User;
  staff: User;
  liteAdmin: User;
  otherAdmin: User | undefined;
  client: Client;
  redirectUri: string;
  storeName: (prefix: string) => string;
}

export interface JsonReply {
  status: number;
  headers: Headers;
  json: any;
  text: string;
}

async function reply(res: Response): Promise<JsonReply> {
  const text = await res.text();
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** `GET`/`POST` a control route (`/_sim/...`) with a JSON body (a write sends the JSON content type even without one). */
export async function control(sim: Simulator, method: string, path: string, body?: unknown): Promise<JsonReply> {
  const init: RequestInit = { method, body: body === undefined ? undefined : JSON.stringify(body) };
  if (method !== "GET") init.headers = { "content-type": "application/json" };
  return reply(await sim.fetch(`${ORIGIN}${path}`, init));
}

/** Users and the OAuth client of the demo fixture, read through `GET /_sim/credentials`. */
export async function fixture(sim: Simulator): Promise<Fixture> {
  const creds = (await control(sim, "GET", "/_sim/credentials")).json;
  const user = (email: string): User => {
    const found = creds.users.find((u: User) => u.email === email);
    if (!found) throw new Error(`no user ${email}`);
    return found;
  };
  const client = creds.oauth_clients[0] as Client;
  return {
    admin: user("admin@demo.example"),
    staff: user("staff@demo.example"),
    liteAdmin: user("admin@lite.example"),
    otherAdmin: creds.users.find((u: User) => u.email === "admin@other.example"),
    client,
    redirectUri: client.redirect_uris[0] as string,
    storeName: (prefix: string) => creds.stores.find((s: { prefix: string }) => s.prefix === prefix).name,
  };
}

export interface AuthorizeBody {
  user_id: string;
  client_id: string;
  redirect_uri: string;
  scope: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  response_type?: string;
  decision: "allow" | "cancel";
}

/** `POST /_sim/oauth/authorize`: what the consent screen would redirect to. */
export const authorizeHeadless = (sim: Simulator, body: AuthorizeBody) =>
  control(sim, "POST", "/_sim/oauth/authorize", body);

/** A code from the headless consent, allowed by `user` (default: the demo admin). */
export async function getCode(
  sim: Simulator,
  fx: Fixture,
  options: {
    scope?: string;
    user?: User;
    client?: Client;
    redirectUri?: string;
    challenge?: string;
    state?: string;
  } = {},
): Promise<string> {
  const client = options.client ?? fx.client;
  const body: AuthorizeBody = {
    user_id: (options.user ?? fx.admin).id,
    client_id: client.client_id,
    redirect_uri: options.redirectUri ?? (client.redirect_uris[0] as string),
    scope: options.scope ?? "catalog:read",
    state: options.state ?? "st-1",
    decision: "allow",
  };
  if (options.challenge !== undefined) {
    body.code_challenge = options.challenge;
    body.code_challenge_method = "S256";
  }
  const r = await authorizeHeadless(sim, body);
  if (r.status !== 200) throw new Error(`authorize answered ${r.status}: ${r.text}`);
  const code = new URL(r.json.redirect_to).searchParams.get("code");
  if (!code) throw new Error(`no code in ${r.json.redirect_to}`);
  return code;
}

export interface TokenOptions {
  /** HTTP Basic credentials (RFC 6749 2.3.1: each part form-encoded). */
  basic?: { id: string; secret: string };
  /** Exact Authorization header. */
  authorization?: string;
  remoteAddress?: string;
  contentType?: string;
  /** Raw body instead of the form. */
  raw?: string;
}

const formEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");

/** `POST {api_root}/oauth/token` with a form body. */
export async function token(
  sim: Simulator,
  fields: Record<string, string> | [string, string][],
  options: TokenOptions = {},
): Promise<JsonReply> {
  const headers: Record<string, string> = {
    "content-type": options.contentType ?? "application/x-www-form-urlencoded",
  };
  if (options.basic)
    headers.authorization = `Basic ${Buffer.from(`${formEncode(options.basic.id)}:${formEncode(options.basic.secret)}`).toString("base64")}`;
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  const body = options.raw ?? new URLSearchParams(fields).toString();
  return reply(
    await sim.fetch(`${ORIGIN}/oauth/token`, { method: "POST", headers, body, remoteAddress: options.remoteAddress }),
  );
}

/** Body credentials of a client. */
export const bodyCreds = (client: Client) => ({ client_id: client.client_id, client_secret: client.client_secret });
export const basicCreds = (client: Client) => ({ id: client.client_id, secret: client.client_secret });

/** Exchanges a code with body credentials and returns the token response (throws unless 200). */
export async function exchange(
  sim: Simulator,
  fx: Fixture,
  code: string,
  extra: Record<string, string> = {},
  client: Client = fx.client,
): Promise<any> {
  const r = await token(sim, {
    grant_type: "authorization_code",
    code,
    redirect_uri: client.redirect_uris[0] as string,
    ...bodyCreds(client),
    ...extra,
  });
  if (r.status !== 200) throw new Error(`token exchange answered ${r.status}: ${r.text}`);
  return r.json;
}

/** A whole connection: consent by the admin, then the code exchange. */
export async function connect(
  sim: Simulator,
  fx: Fixture,
  scope = "catalog:read",
  options: { user?: User; client?: Client } = {},
): Promise<any> {
  const code = await getCode(sim, fx, { scope, ...options });
  return exchange(sim, fx, code, {}, options.client ?? fx.client);
}

export const refresh = (sim: Simulator, client: Client, refreshToken: string, options: TokenOptions = {}) =>
  token(sim, { grant_type: "refresh_token", refresh_token: refreshToken, ...bodyCreds(client) }, options);

/** A request to the API with a bearer token. */
export async function api(
  sim: Simulator,
  method: string,
  path: string,
  accessToken: string,
  body?: unknown,
): Promise<JsonReply> {
  const headers: Record<string, string> = { authorization: `Bearer ${accessToken}` };
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  return reply(await sim.fetch(`${ORIGIN}${path}`, init));
}

/** RFC 7636 4.1 and 4.2: a verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export const sortedScopes = (scope: string) => scope.split(" ").sort();

// ---- HTML: the consent screen ----------------------------------------------------------------

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos|#39);/gi, (_m, e: string) => {
    const k = e.toLowerCase();
    if (k === "amp") return "&";
    if (k === "lt") return "<";
    if (k === "gt") return ">";
    if (k === "quot") return '"';
    if (k === "apos") return "'";
    if (k.startsWith("#x")) return String.fromCodePoint(parseInt(k.slice(2), 16));
    return String.fromCodePoint(parseInt(k.slice(1), 10));
  });
}

/** Attributes of one start tag, values decoded. */
export function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  const inner = tag.replace(/^<[a-zA-Z0-9]+/, "").replace(/\/?>$/, "");
  for (const m of inner.matchAll(re)) out[(m[1] as string).toLowerCase()] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "");
  return out;
}

export const tags = (html: string, name: string): Record<string, string>[] =>
  [...html.matchAll(new RegExp(`<${name}\\b[^>]*>`, "gi"))].map((m) => attributes(m[0]));

export interface Form {
  action: string;
  method: string;
  /** Hidden inputs, in order. */
  hidden: [string, string][];
  /** Submit buttons with a name. */
  buttons: { name: string; value: string }[];
  inputs: Record<string, string>[];
}

/** Every `<form>` of a page. */
export function forms(html: string): Form[] {
  return [...html.matchAll(/<form\b[^>]*>([\s\S]*?)<\/form>/gi)].map((m) => {
    const open = attributes((m[0].match(/<form\b[^>]*>/i) as RegExpMatchArray)[0]);
    const inner = m[1] as string;
    const inputs = tags(inner, "input");
    return {
      action: open.action ?? "",
      method: (open.method ?? "get").toLowerCase(),
      hidden: inputs
        .filter((i) => (i.type ?? "").toLowerCase() === "hidden")
        .map((i) => [i.name ?? "", i.value ?? ""] as [string, string]),
      buttons: tags(inner, "button")
        .filter((b) => b.name !== undefined)
        .map((b) => ({ name: b.name as string, value: b.value ?? "" })),
      inputs,
    };
  });
}

export interface PageReply {
  status: number;
  headers: Headers;
  html: string;
}

/** `GET /oauth/authorize?...` as a browser would, without following redirects. */
export async function getAuthorizePage(sim: Simulator, query: Record<string, string>): Promise<PageReply> {
  const res = await sim.fetch(`${ORIGIN}/oauth/authorize?${new URLSearchParams(query).toString()}`, {
    redirect: "manual",
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** Submits `form` as a browser would: hidden inputs plus `extra` fields, form-encoded. */
export async function submit(sim: Simulator, form: Form, extra: [string, string][]): Promise<PageReply> {
  const target = new URL(form.action || "/oauth/authorize", `${ORIGIN}/oauth/authorize`);
  const body = new URLSearchParams([...form.hidden, ...extra]).toString();
  const res = await sim.fetch(target.toString(), {
    method: form.method.toUpperCase(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body,
    redirect: "manual",
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/**
 * Posts the consent screen's sign-in form as its page does (the demo admin by default; `over` replaces
 * any field, the authorization request's included) from `remoteAddress`, without following redirects.
 */
export async function postSignIn(
  sim: Simulator,
  fx: Fixture,
  over: Record<string, string> = {},
  remoteAddress = "127.0.0.1",
): Promise<PageReply> {
  const fields = {
    response_type: "code",
    client_id: fx.client.client_id,
    redirect_uri: fx.redirectUri,
    scope: "catalog:read",
    state: "st-1",
    step: "sign_in",
    email: fx.admin.email,
    password: fx.admin.password,
    ...over,
  };
  const res = await sim.fetch(`${ORIGIN}/oauth/authorize`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
    remoteAddress,
  });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** Spec, Authentication 8: token endpoint errors are `{error, error_description}`, never `{error: {code, message}}`. */
export function expectOAuthError(r: JsonReply, status: number, error: string): void {
  expect(r.status).toBe(status);
  expect(r.headers.get("content-type")).toMatch(/^application\/json/);
  expect(Object.keys(r.json ?? {}).sort()).toEqual(["error", "error_description"]);
  expect(r.json.error).toBe(error);
  expect(typeof r.json.error_description).toBe("string");
  expect(r.json.error_description.length).toBeGreaterThan(0);
}
