// HTTP for the soak: a pool of kept-alive connections (undici) from 127.0.0.1 for the main stream, and
// one-off connections from other loopback addresses (127.x.y.z, bound with localAddress; Linux routes
// all of 127.0.0.0/8 to the loopback interface) for the requests that must come from many addresses.
import { request as httpRequest } from "node:http";
import { Pool } from "undici";

export const json = (value) => JSON.stringify(value);
export const form = (fields) => new URLSearchParams(fields).toString();
export const FORM = { "content-type": "application/x-www-form-urlencoded" };
export const JSON_TYPE = { "content-type": "application/json" };

/** Answers may carry a large `state` in a Location header; the default 16 KB header cap would refuse them. */
const MAX_HEADER_BYTES = 4 * 1024 * 1024;

export function openPool(origin, connections) {
  return new Pool(origin, { connections, maxHeaderSize: MAX_HEADER_BYTES, keepAliveTimeout: 4_000 });
}

/** One request on the pool: `{status, headers, text}` (text only when `read`, the body is drained otherwise). */
export async function poolCall(pool, method, path, { headers = {}, body, read = false } = {}) {
  const res = await pool.request({ method, path, headers, body });
  const text = read ? await res.body.text() : (await res.body.dump(), undefined);
  return { status: res.statusCode, headers: res.headers, text };
}

/** The n-th address of 127.1.0.0 to 127.254.255.255 (n from 0): about 16.6 million distinct ones. */
export function loopbackAddress(n) {
  const second = 1 + (Math.floor(n / 65536) % 254);
  return `127.${second}.${Math.floor(n / 256) % 256}.${n % 256}`;
}

/** One request on a connection of its own from `localAddress`, closed after the answer. */
export function addressCall(origin, localAddress, method, path, { headers = {}, body } = {}) {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress,
        agent: false,
        maxHeaderSize: MAX_HEADER_BYTES,
        headers: { ...headers, connection: "close" },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
