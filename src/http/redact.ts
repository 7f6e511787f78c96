import { PERSONAL as ERASED } from "../engine/customers/operations.js";

// What the journal never keeps raw: secrets (credentials, OAuth codes and tokens) and a customer's
// personal details, in headers, queries, form bodies and JSON bodies. docs/interfaces.md, Journal and coverage.

export const REDACTED = "[redacted]";

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

/** The names of the form fields and query parameters whose values are replaced, by their first character. */
const FORM_NAMES = new Map<number, string[]>();
for (const name of [...FORM_SECRETS, ...PERSONAL]) {
  const first = name.charCodeAt(0);
  FORM_NAMES.set(first, [...(FORM_NAMES.get(first) ?? []), name]);
}

/** Whether a listed name fills the text from `start` to `end`. */
function isFormName(text: string, start: number, end: number): boolean {
  const names = FORM_NAMES.get(text.charCodeAt(start));
  if (names === undefined) return false;
  for (const name of names) if (name.length === end - start && text.startsWith(name, start)) return true;
  return false;
}

/**
 * Whether a field `FORM_VALUE` matches starts anywhere in the text: a name it lists right after the
 * start, a `?` or a `&`, and then `=`. One pass over the characters that makes no string, so the
 * common query (`limit=50`) is kept as it is at little cost.
 */
function hasFormSecret(text: string): boolean {
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3f || c === 0x26)
      start = i + 1; // ? &
    else if (c === 0x3d && start >= 0) {
      // =
      if (i > start && isFormName(text, start, i)) return true;
      start = -1;
    }
  }
  return false;
}

/** A query string, form body or URL with every secret or personal value replaced. */
export function redactForm(text: string): string {
  return hasFormSecret(text) ? text.replace(FORM_VALUE, `$1$2=${REDACTED}`) : text;
}

const BEARER = `Bearer ${REDACTED}`;

/** An Authorization header's scheme, its credentials redacted. */
function redactedAuthorization(value: string): string {
  if (value.startsWith("Bearer ")) return BEARER;
  return `${/^\S+/.exec(value)?.[0] ?? ""} ${REDACTED}`.trim();
}

/**
 * One header's value with its secret replaced: an Authorization header keeps its scheme, the other
 * secret headers are replaced whole, a Location keeps its URL with secret parameters replaced. A switch
 * over the names (asked of every header the journal keeps, it reads no table).
 */
export function redactHeader(name: string, value: string): string {
  switch (name) {
    case "authorization":
      return redactedAuthorization(value);
    case "proxy-authorization":
    case "cookie":
    case "set-cookie":
      return REDACTED;
    case "location":
      return redactForm(value);
    default:
      return value;
  }
}

export function redactHeaders(headers: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = redactHeader(name, value);
  return out;
}
