import { OrderedMap } from "./ordered-map.js";

/**
 * JSON text already serialized (a row's document cached by its version), embedded as is in a response.
 * `T` is the type of the document the text holds.
 */
export class RawJson<T = unknown> {
  /** Never set: carries the document's type, so a cached `Product` is not mistaken for a `Sale`. */
  declare readonly document?: T;
  constructor(readonly text: string) {}
  toJSON(): T {
    return JSON.parse(this.text) as T;
  }
}

/**
 * The JSON text of rows, each kept while its version (and variant, such as the API root its URLs are
 * written with) stays the same. At most `max` rows are kept, the oldest written out first, so hot
 * rows are served without serializing and a client reading a whole large feed cannot grow memory
 * without bound.
 */
export class JsonCache<K extends object> {
  private readonly entries = new OrderedMap<K, { version: number; variant: string; json: RawJson }>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  get<T>(key: K, version: number, variant: string, make: () => T): RawJson<T> {
    const hit = this.entries.get(key);
    if (hit && hit.version === version && hit.variant === variant) return hit.json as RawJson<T>;
    const json = new RawJson<T>(JSON.stringify(make()));
    if (!hit && this.entries.size >= this.max) this.entries.shift();
    this.entries.set(key, { version, variant, json }, true);
    return json;
  }
}

/** JSON.stringify that embeds RawJson items of top-level `data` arrays (and a RawJson `data`) without re-serializing them. */
export function stringifyPayload(payload: unknown): string {
  if (payload === null || typeof payload !== "object" || !("data" in payload)) return JSON.stringify(payload);
  const { data, ...rest } = payload as { data: unknown };
  let dataText: string;
  if (data instanceof RawJson) dataText = data.text;
  else if (Array.isArray(data) && data.some((d) => d instanceof RawJson))
    dataText = `[${data.map((d) => (d instanceof RawJson ? d.text : JSON.stringify(d))).join(",")}]`;
  else return JSON.stringify(payload);
  const tail = Object.entries(rest)
    .map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`)
    .join("");
  return `{"data":${dataText}${tail}}`;
}
