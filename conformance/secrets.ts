// The secrets of a run: credentials found in answers, remembered so that reports can redact them.

/** Response fields that hold a credential: their values are remembered as secrets of the run. */
const SECRET_FIELDS = /^(token|access_token|refresh_token|id_token|client_secret|password|api_key|secret)$/i;

/** Remembers credentials found in a JSON body (a created key, a token exchange) so reports can redact them. */
export function collectSecrets(value: unknown, into: Set<string>, depth = 0): void {
  if (depth > 8 || typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) collectSecrets(item, into, depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === "string" && SECRET_FIELDS.test(k) && v.length >= 8) into.add(v);
    else collectSecrets(v, into, depth + 1);
  }
}
