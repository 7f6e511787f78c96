import { PERSONAL as ERASED } from "../engine/customers/operations.js";

// What the journal never keeps raw: secrets (credentials, OAuth codes and tokens) and a customer's
// personal details, in headers, queries, form bodies and JSON bodies. docs/interfaces.md, Journal and coverage.

export const REDACTED = "[redacted]";

/** Headers whose whole value is a secret (an Authorization header keeps its scheme). */
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie"]);

/** Form fields and query parameters that carry secrets (the token endpoint's, the consent redirect's). */
const FORM_SECRETS = ["code", "code_verifier", "client_secret", "refresh_token", "access_token", "password"];

/** JSON properties that carry secrets or a customer's personal details (spec, Customer). */
const JSON_SECRETS = ["access_token", "refresh_token", "client_secret", "password"];
/** A customer's personal details: those erasure scrubs, and the code and first name it replaces. */
const PERSONAL = [...ERASED, "customer_code", "first_name"];

const JSON_VALUE = new RegExp(`"(${[...JSON_SECRETS, ...PERSONAL].join("|")})"(\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, "g");
const FORM_VALUE = new RegExp(`(^|[?&])(${[...FORM_SECRETS, ...PERSONAL].join("|")})=[^&#]*`, "g");

/** A JSON text with every secret or personal string value replaced (also in a body cut short). */
export function redactJson(text: string): string {
  return text.replace(JSON_VALUE, `"$1"$2"${REDACTED}"`);
}

/** A query string, form body or URL with every secret or personal value replaced. */
export function redactForm(text: string): string {
  return text.replace(FORM_VALUE, `$1$2=${REDACTED}`);
}

const BEARER = `Bearer ${REDACTED}`;

/** An Authorization header's scheme, its credentials redacted. */
function redactedAuthorization(value: string): string {
  if (value.startsWith("Bearer ")) return BEARER;
  return `${/^\S+/.exec(value)?.[0] ?? ""} ${REDACTED}`.trim();
}

/** Request headers with their secrets replaced, as cheaply as the common case allows (one spread). */
export function withoutSecrets(
  headers: Readonly<Record<string, string | undefined>>,
): Readonly<Record<string, string>> {
  const { authorization, cookie } = headers;
  if (authorization === undefined && cookie === undefined && headers["proxy-authorization"] === undefined)
    return headers as Readonly<Record<string, string>>;
  const out = { ...headers } as Record<string, string>;
  if (authorization !== undefined) out.authorization = redactedAuthorization(authorization);
  if (cookie !== undefined) out.cookie = REDACTED;
  if (headers["proxy-authorization"] !== undefined) out["proxy-authorization"] = REDACTED;
  return out;
}

export function redactHeaders(headers: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (name === "authorization") out[name] = redactedAuthorization(value);
    else if (SECRET_HEADERS.has(name)) out[name] = REDACTED;
    else if (name === "location") out[name] = redactForm(value);
    else out[name] = value;
  }
  return out;
}
