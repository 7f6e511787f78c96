import { OrderedMap } from "./ordered-map.js";

/**
 * JSON text already serialized (a row's document cached by its version), embedded as is in a response.
 * `T` is the type of the document the text holds. The text is kept as UTF-8 bytes after a comma, so a
 * page is sent as the rows' own bytes (`payloadParts`), without joining them into one string per request.
 */
export class RawJson<T = unknown> {
  /** Never set: carries the document's type, so a cached `Product` is not mistaken for a `Sale`. */
  declare readonly document?: T;
  /** `,` and the text as UTF-8: an array's later item as is, the document itself from its second byte. */
  readonly listed: Buffer;
  private view: Uint8Array | undefined;
  constructor(text: string) {
    this.listed = Buffer.from(`,${text}`, "utf8");
  }
  /** The document's UTF-8 bytes (one view of `listed`, made at the first read: no object per answer). */
  get bytes(): Uint8Array {
    this.view ??= this.listed.subarray(1);
    return this.view;
  }
  get text(): string {
    return this.listed.toString("utf8", 1);
  }
  toJSON(): T {
    return JSON.parse(this.text) as T;
  }
}

/**
 * The JSON text of rows, each kept while its version (and variant, such as the API root its URLs are
 * written with) stays the same. At most `max` rows are kept, the least recently read written out first,
 * so the rows read most are served without serializing and a client reading a whole large feed cannot
 * grow memory without bound.
 */
export class JsonCache<K extends object> {
  private readonly entries = new OrderedMap<K, { version: number; variant: string; json: RawJson }>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  get<T>(key: K, version: number, variant: string, make: () => T): RawJson<T> {
    const hit = this.entries.get(key);
    if (hit && hit.version === version && hit.variant === variant) {
      this.entries.renew(key);
      return hit.json as RawJson<T>;
    }
    const json = new RawJson<T>(JSON.stringify(make()));
    if (!hit && this.entries.size >= this.max) this.entries.shift();
    this.entries.set(key, { version, variant, json }, true);
    return json;
  }
}

/** The envelope's members after `data`, as JSON text: `,"next_cursor":…,"has_more":…}`. */
function tailText(rest: Record<string, unknown>): string {
  let tail = "";
  for (const k in rest) tail += `,${JSON.stringify(k)}:${JSON.stringify(rest[k])}`;
  return `${tail}}`;
}

/** An array item as JSON.stringify writes it inside an array (`null` for what has no JSON form). */
const itemText = (item: unknown): string => JSON.stringify(item) ?? "null";

/** JSON.stringify that embeds RawJson items of top-level `data` arrays (and a RawJson `data`) without re-serializing them. */
export function stringifyPayload(payload: unknown): string {
  const parts = payloadParts(payload);
  return parts === undefined ? JSON.stringify(payload) : Buffer.concat(parts).toString("utf8");
}

const DATA_ARRAY = Buffer.from('{"data":[', "latin1");
const DATA = Buffer.from('{"data":', "latin1");
const CLOSE = { "": Buffer.from("}", "latin1"), "]": Buffer.from("]}", "latin1") };

/** The bytes after `data`: `close` (`]` after an array), the other members and the envelope's `}`. */
function tailBytes(rest: Record<string, unknown>, close: "" | "]"): Uint8Array {
  for (const _ in rest) return Buffer.from(`${close}${tailText(rest)}`, "utf8");
  return CLOSE[close];
}

/**
 * What JSON.stringify writes for the payload, as UTF-8 parts, when its top-level `data` is RawJson or an
 * array holding some: the cached rows' own bytes, not copied (undefined for any other payload). A page of
 * 200 rows is ~200 parts, which the HTTP adapter writes as they are (one gathered write), and no string
 * is made for it.
 */
export function payloadParts(payload: unknown): Uint8Array[] | undefined {
  if (payload === null || typeof payload !== "object" || !("data" in payload)) return undefined;
  const { data, ...rest } = payload as { data: unknown };
  if (data instanceof RawJson) return [DATA, data.bytes, tailBytes(rest, "")];
  if (!Array.isArray(data) || !data.some((d) => d instanceof RawJson)) return undefined;
  const parts: Uint8Array[] = [DATA_ARRAY];
  for (let i = 0; i < data.length; i++) {
    const d: unknown = data[i];
    if (d instanceof RawJson) parts.push(i === 0 ? d.bytes : d.listed);
    else {
      const listed = Buffer.from(`,${itemText(d)}`, "utf8");
      parts.push(i === 0 ? listed.subarray(1) : listed);
    }
  }
  parts.push(tailBytes(rest, "]"));
  return parts;
}
