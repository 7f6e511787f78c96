import type { Opaque, Rows } from "./memory.js";
import type { ModelRequest } from "./model.js";

// A request to the target as the model must be sent it: every opaque value the target handed out (ids,
// tokens, codes, cursors, generated SKUs, versions) replaced by the model's twin. Bytes are kept as sent
// where nothing is replaced, so that an idempotent retry stays the same body for both.

export interface Sent {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

export interface Translated {
  readonly request: ModelRequest;
  /** The target's UUIDs the request names (path, query, body). */
  readonly ids: readonly string[];
  /** The path under the API root, decoded segments joined back (`/demo/v1/products/…`). */
  readonly path: string;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * `strip`: fields the target adds to the rows it shows (`tags[].version`), left out of bodies sent to the
 * model: a read document sent straight back carries them, and the target ignores them (Product write rules 2).
 */
export function translate(
  sent: Sent,
  apiRoot: string,
  opaque: Opaque,
  rows: Rows,
  strip: ReadonlySet<string> = new Set(),
): Translated | undefined {
  if (!sent.url.startsWith(`${apiRoot}/`)) return undefined;
  const rest = sent.url.slice(apiRoot.length);
  const q = rest.indexOf("?");
  const rawPath = q < 0 ? rest : rest.slice(0, q);
  const rawQuery = q < 0 ? "" : rest.slice(q + 1);
  const ids = new Set<string>();
  const note = (text: string) => {
    for (const m of text.matchAll(UUID)) ids.add(m[0].toLowerCase());
  };
  const twin = (value: string): string => {
    note(value);
    return opaque.model(value) ?? value;
  };
  let row: string | undefined;
  const path = rawPath
    .split("/")
    .map((segment) => {
      let decoded: string;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        return segment;
      }
      const out = twin(decoded);
      if (/^[0-9a-f-]{36}$/i.test(decoded)) row ??= decoded;
      return out === decoded ? segment : encodeURIComponent(out);
    })
    .join("/");
  const query = mapPairs(rawQuery, twin);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(sent.headers)) {
    if (k.toLowerCase() === "host" || k.toLowerCase() === "content-length") continue;
    headers[k] = k.toLowerCase() === "authorization" ? v.replace(/^(\S+\s+)(\S+)$/, (_a, s, t) => s + twin(t)) : v;
  }
  let body = sent.body;
  if (body !== undefined) {
    const type = Object.entries(sent.headers).find(([k]) => k.toLowerCase() === "content-type")?.[1] ?? "";
    if (/x-www-form-urlencoded/i.test(type)) body = mapPairs(body, twin);
    else
      body = mapJsonText(
        body,
        (value, key) => {
          if ((key === "version" || key === "expected_version") && row !== undefined)
            return rows.modelVersion(row, value) ?? twin(value);
          return twin(value);
        },
        strip,
      );
  }
  return {
    request: { method: sent.method, path, query, headers, ...(body === undefined ? {} : { body }) },
    ids: [...ids],
    path: rawPath,
  };
}

/** `a=1&b=2` with each value mapped; the text as sent when nothing changes. */
function mapPairs(text: string, f: (value: string) => string): string {
  if (text === "") return text;
  let changed = false;
  const out = text.split("&").map((pair) => {
    const eq = pair.indexOf("=");
    if (eq < 0) return pair;
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, " "));
    } catch {
      return pair;
    }
    const mapped = f(value);
    if (mapped === value) return pair;
    changed = true;
    return `${pair.slice(0, eq)}=${encodeURIComponent(mapped)}`;
  });
  return changed ? out.join("&") : text;
}

/** JSON text with every string value mapped and the `strip` fields left out; the text as sent when nothing changes or it is not JSON. */
function mapJsonText(
  text: string,
  f: (value: string, key: string | undefined) => string,
  strip: ReadonlySet<string>,
): string {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return text;
  }
  let changed = false;
  const visit = (v: unknown, at: string, key?: string): unknown => {
    if (typeof v === "string") {
      const out = f(v, key);
      if (out !== v) changed = true;
      return out;
    }
    if (Array.isArray(v)) return v.map((item) => visit(item, `${at}[]`, key));
    if (v !== null && typeof v === "object") {
      const kept = Object.entries(v).filter(([k]) => !strip.has(at === "" ? k : `${at}.${k}`));
      if (kept.length !== Object.keys(v).length) changed = true;
      return Object.fromEntries(kept.map(([k, item]) => [k, visit(item, at === "" ? k : `${at}.${k}`, k)]));
    }
    return v;
  };
  const mapped = visit(doc, "");
  return changed ? JSON.stringify(mapped) : text;
}
