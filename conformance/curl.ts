import type { Exchange } from "./types.js";

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** A request as a curl command a person can paste (credentials already redacted). */
export function toCurl(e: Exchange): string {
  const parts = ["curl", "-i", "-X", e.method, quote(e.url)];
  for (const [k, v] of Object.entries(e.requestHeaders)) parts.push("-H", quote(`${k}: ${v}`));
  if (e.requestBody !== undefined) parts.push("--data-raw", quote(e.requestBody));
  return parts.join(" ");
}
