// Cursors are opaque to clients (spec, Pagination and polling rules 1): base64url of a small JSON
// document naming the list and the last sequence number seen. Anything else is unreadable.

export function encodeCursor(list: string, seq: number): string {
  return Buffer.from(JSON.stringify({ l: list, s: seq }), "utf8").toString("base64url");
}

/** The sequence number a cursor stands for, or undefined when the cursor is unreadable or of another list. */
export function decodeCursor(list: string, cursor: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const { l, s } = parsed as Record<string, unknown>;
  if (l !== list || typeof s !== "number" || !Number.isSafeInteger(s) || s < 0) return undefined;
  // Only the canonical encoding is accepted, so a cursor is passed back unchanged or refused.
  return encodeCursor(list, s) === cursor ? s : undefined;
}

/**
 * A cursor of a store's list as the same position in another store's list of that name: the feeds are named
 * `{prefix}/{list}`. A cursor that is unreadable or names no list of `fromPrefix` is answered unchanged.
 */
export function cursorForStore(cursor: string, fromPrefix: string, toPrefix: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return cursor;
  }
  const { l } = (parsed ?? {}) as { l?: unknown };
  if (typeof l !== "string" || !l.startsWith(`${fromPrefix}/`)) return cursor;
  const list = `${toPrefix}/${l.slice(fromPrefix.length + 1)}`;
  const seq = decodeCursor(l, cursor);
  return seq === undefined ? cursor : encodeCursor(list, seq);
}
