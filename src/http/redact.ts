import { isErrorCode } from "../contract/errors.js";
import { PERSONAL_FIELDS } from "../contract/schemas/customers.js";
import { formDecode } from "./har.js";

// What the journal never keeps: secrets (credentials, OAuth codes, verifiers and tokens) and a customer's
// personal details, in headers, queries, form bodies and JSON bodies. Each name is decided as the server
// reads it (percent-decoded, unescaped), and a listed name's value is replaced whole, whatever its type.
// docs/interfaces.md, Journal and coverage (Redaction).

export const REDACTED = "[redacted]";

/** What a body that is neither JSON nor a form becomes (its size is kept beside it). */
export const UNREADABLE = "[redacted: neither JSON nor a form]";

/**
 * Names of secrets, in lower case with `-` as `_`: any with a credential's word in it (`authorization`,
 * `x_api_key`, `clientsecret`, `refresh_token`, `set_cookie`, `session_id`, `password`, `code_verifier`,
 * `auth_code`), OAuth's `code` and the consent page's `ticket`; but not the spec's `idempotency_key` and
 * `token_type` (spec, Authentication 6: `Bearer`).
 */
const SECRET =
  /token|secret|passw|pwd|api_?key|cookie|session|credential|authori[sz]|verifier|^(code|ticket)$|(^|_)(key|auth)(_|$)/;
const NOT_SECRET = new Set(["idempotency_key", "token_type"]);
/** A customer's personal details (spec, Customer; contract/schemas/customers.ts). */
const PERSONAL = new Set<string>(PERSONAL_FIELDS);

/** The names decided so far (cleared when full: a client may invent any number of them). */
const decided = new Map<string, boolean>();

/** Whether the value of a header, query parameter, form field or JSON property of this (decoded) name is redacted. */
export function isRedacted(name: string): boolean {
  let listed = decided.get(name);
  if (listed === undefined) {
    const n = name.toLowerCase().replaceAll("-", "_");
    listed = PERSONAL.has(n) || (SECRET.test(n) && !NOT_SECRET.has(n));
    if (decided.size >= 1024) decided.clear();
    decided.set(name, listed);
  }
  return listed;
}

/**
 * A query string or form body with the value of each field whose name, read as URLSearchParams reads
 * it (`+` a space, percent escapes decoded), is listed replaced; the same string when none is.
 */
export function redactForm(text: string): string {
  if (!text.includes("=")) return text;
  let changed = false;
  const fields = text.split("&").map((field) => {
    const eq = field.indexOf("=");
    const name = field.slice(0, eq);
    if (eq === -1 || !isRedacted(name.includes("%") || name.includes("+") ? formDecode(name) : name)) return field;
    changed = true;
    return `${name}=${REDACTED}`;
  });
  return changed ? fields.join("&") : text;
}

/** A URL with its query's and fragment's listed values replaced. */
function redactUrl(url: string): string {
  const at = url.search(/[?#]/);
  return at === -1
    ? url
    : url.slice(0, at + 1) +
        url
          .slice(at + 1)
          .split("#")
          .map(redactForm)
          .join("#");
}

/**
 * A JSON text with the value of each listed property replaced, at any depth (an error envelope's `code`
 * is the spec's vocabulary, no secret); the same string when none is; undefined when it is not JSON.
 */
function redactJson(text: string): string | undefined {
  let changed = false;
  try {
    const value: unknown = JSON.parse(text, (name, value: unknown) => {
      if (!isRedacted(name) || (name === "code" && typeof value === "string" && isErrorCode(value))) return value;
      changed = true;
      return REDACTED;
    });
    return changed ? JSON.stringify(value) : text;
  } catch {
    return undefined;
  }
}

const FORM = /x-www-form-urlencoded/i;

/**
 * A whole body's text redacted: read as JSON when it parses (whatever its type says), else as a form when
 * its type says it is one (in any case, as the token endpoint reads it); anything else is not kept.
 */
export function redactBody(type: string | undefined, text: string): string {
  if (text === "") return text;
  return redactJson(text) ?? (FORM.test(type ?? "") ? redactForm(text) : UNREADABLE);
}

/** The schemes an `Authorization` header keeps the name of (spec, Authentication: Bearer; HTTP Basic). */
const SCHEME = /^(bearer|basic) /i;
/** Headers whose value is a URL. */
const URL_HEADERS = new Set(["location", "content-location", "referer"]);

/**
 * One header's value with its secret replaced: a secret header's whole value (a Bearer or Basic one keeps
 * its scheme), a URL's listed query values.
 */
export function redactHeader(name: string, value: string): string {
  if (isRedacted(name)) return `${SCHEME.exec(value)?.[0] ?? ""}${REDACTED}`;
  return URL_HEADERS.has(name) ? redactUrl(value) : value;
}

export function redactHeaders(headers: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = redactHeader(name, value);
  return out;
}
