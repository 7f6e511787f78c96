import { bodyParts } from "./respond.js";
import { MAX_BODY_BYTES, type SimRequest, type SimResponse } from "./types.js";

// WHATWG fetch adapter: converts only; every rule lives below it.

export async function toSimRequest(request: Request, remoteAddress: string): Promise<SimRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  let body: Uint8Array | null = null;
  if (request.method !== "GET" && request.method !== "HEAD" && request.body)
    body = new Uint8Array(await request.arrayBuffer());
  const tooLarge = body !== null && body.length > MAX_BODY_BYTES;
  return {
    method: request.method.toUpperCase(),
    path: url.pathname,
    query: url.search.slice(1),
    headers,
    body: tooLarge ? null : body,
    bodyTooLarge: tooLarge,
    remoteAddress,
    origin: url.origin,
  };
}

export function toResponse(res: SimResponse): Response {
  const held = bodyParts(res);
  return new Response(held ? Buffer.concat(held.parts, held.length) : res.body, {
    status: res.status,
    headers: res.headers,
  });
}
