/** JSON text already serialized (a row's document cached by its version), embedded as is in a response. */
export class RawJson {
  constructor(readonly text: string) {}
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** JSON.stringify that embeds RawJson items of top-level `data` arrays (and a RawJson `data`) without re-serializing them. */
export function stringifyPayload(payload: unknown): string {
  if (payload === null || typeof payload !== "object" || !("data" in payload)) return JSON.stringify(payload);
  const { data, ...rest } = payload as { data: unknown };
  let dataText: string;
  if (data instanceof RawJson) dataText = data.text;
  else if (Array.isArray(data) && data.some((d) => d instanceof RawJson)) dataText = `[${data.map((d) => (d instanceof RawJson ? d.text : JSON.stringify(d))).join(",")}]`;
  else return JSON.stringify(payload);
  const tail = Object.entries(rest).map(([k, v]) => `,${JSON.stringify(k)}:${JSON.stringify(v)}`).join("");
  return `{"data":${dataText}${tail}}`;
}
