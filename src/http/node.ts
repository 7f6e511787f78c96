import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { type CloseReport, Connections } from "./node-connections.js";
import type { RequestHandler } from "./ports.js";
import { apiError } from "../contract/errors.js";
import { bodyParts, errorResponse } from "./respond.js";
import { MAX_BODY_BYTES, type SimRequest } from "./types.js";

export type { CloseReport };

// node:http adapter: converts only; every rule lives below it.

export interface Listening {
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly server: Server;
  /**
   * Stops the server: no new connection, idle ones closed, every later answer with `Connection: close`.
   * Requests in flight have `graceSeconds` (default 5) to be answered; then their connections are cut, and
   * the report counts them.
   */
  close(options?: CloseOptions): Promise<CloseReport>;
}

export interface CloseOptions {
  /** How long requests in flight have to be answered, in seconds; default 5. */
  readonly graceSeconds?: number;
}

/** The shutdown grace's default, in seconds. */
export const DEFAULT_SHUTDOWN_GRACE_SECONDS = 5;

const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)\/?/i;
const HOST_HEADER = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** Server hygiene limits; the defaults suit every use, tests shorten the timeouts. */
export interface ServerLimits {
  /** Whole header block, in bytes: larger answers 400 VALIDATION_FAILED and the connection closes. */
  readonly maxHeaderBytes: number;
  /** A client must send its whole header block within this time. */
  readonly headersTimeoutMs: number;
  /** A client must send its whole request, body included, within this time. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this time. */
  readonly keepAliveTimeoutMs: number;
  /** How often Node looks for connections past those timeouts. */
  readonly checkIntervalMs: number;
}

export const SERVER_LIMITS: ServerLimits = {
  maxHeaderBytes: 16 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  checkIntervalMs: 1_000,
};

/** Serves a request handler on node:http (the adapter only converts: every rule lives in the handler). */
export function listen(
  handler: RequestHandler,
  port: number,
  host: string,
  limits: Partial<ServerLimits> = {},
): Promise<Listening> {
  const l = { ...SERVER_LIMITS, ...limits };
  const server = createServer(
    {
      maxHeaderSize: l.maxHeaderBytes,
      headersTimeout: l.headersTimeoutMs,
      requestTimeout: l.requestTimeoutMs,
      keepAliveTimeout: l.keepAliveTimeoutMs,
      connectionsCheckingInterval: l.checkIntervalMs,
    },
    (req, res) => {
      if (!connections.answerable(req)) return;
      connections.received(req, res);
      void serve(handler, req, res, server, connections);
    },
  );
  const connections = new Connections(server);
  // The answers to the requests read before the unreadable one go out first, in order (a committed write's too).
  server.on("clientError", (error: Error & { code?: string }, socket: Duplex) =>
    connections.refuseAfterAnswers(socket, () => refuse(socket, unreadable(error, l.maxHeaderBytes))),
  );
  // Without a listener Node resets a CONNECT's connection; its target is a host, not a resource of the API.
  server.on("connect", (_req: IncomingMessage, socket: Duplex) =>
    connections.refuseAfterAnswers(socket, () => refuse(socket, "CONNECT is not served: the simulator is no proxy.")),
  );
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address() as AddressInfo;
      const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${shown}:${address.port}`,
        port: address.port,
        host: address.address,
        server,
        close: ({ graceSeconds = DEFAULT_SHUTDOWN_GRACE_SECONDS } = {}) => connections.close(graceSeconds * 1000),
      });
    });
  });
}

async function serve(
  handler: RequestHandler,
  req: IncomingMessage,
  res: ServerResponse,
  server: Server,
  connections: Connections,
): Promise<void> {
  res.sendDate = false;
  try {
    if (!hasBody(req)) req.resume();
    const { body, tooLarge } = hasBody(req) ? await readBody(req) : NO_BODY;
    const headers: Record<string, string> = {};
    const given = req.headers;
    for (const name in given) {
      const value = given[name];
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    // RFC 9112 section 3.2.2: an absolute-form target (`http://host/x`) is served by its path, its authority
    // standing for Host.
    const url = req.url ?? "/";
    const absolute = ABSOLUTE_FORM.exec(url);
    if (absolute?.[1] !== undefined) headers["host"] = absolute[1];
    const rawUrl = absolute ? `/${url.slice(absolute[0].length)}` : url;
    const hostHeader = headers["host"];
    const host = hostHeader && HOST_HEADER.test(hostHeader) ? hostHeader : ownHost(server);
    const q = rawUrl.indexOf("?");
    const simReq: SimRequest = {
      method: (req.method ?? "GET").toUpperCase(),
      path: q === -1 ? rawUrl : rawUrl.slice(0, q),
      query: q === -1 ? "" : rawUrl.slice(q + 1),
      headers,
      body,
      bodyTooLarge: tooLarge,
      remoteAddress: req.socket.remoteAddress ?? "unknown",
      origin: `http://${host}`,
    };
    // Only a path names a resource: not `*` (`OPTIONS *`, `M-SEARCH *`) nor an authority.
    const out = rawUrl.startsWith("/")
      ? await handler(simReq)
      : errorResponse(apiError("VALIDATION_FAILED", "The request target must be a path, such as /_sim/health."));
    // Past an unread body the connection cannot go on; once the server is stopping, none does.
    if (tooLarge || connections.closing) out.headers["connection"] = "close";
    // A known length: no chunked framing. A body of parts (cached rows' bytes) goes out as they are, in one
    // gathered write with the headers; a string body goes out with the headers in one write.
    const held = bodyParts(out);
    if (held !== undefined) {
      out.headers["content-length"] = String(held.length);
      res.writeHead(out.status, out.headers);
      writeParts(res, held.parts);
      return;
    }
    if (out.body !== null)
      out.headers["content-length"] = String(
        typeof out.body === "string" ? Buffer.byteLength(out.body) : out.body.length,
      );
    res.writeHead(out.status, out.headers);
    res.end(out.body ?? undefined);
  } catch {
    // A client gone mid-request has nobody to answer.
    if (res.destroyed || !res.socket?.writable) return;
    if (!res.headersSent)
      res.writeHead(400, { "content-type": "application/json; charset=utf-8", connection: "close" });
    res.end(JSON.stringify({ error: apiError("VALIDATION_FAILED", "The request could not be read.") }));
  }
}

/**
 * Writes a body of parts (a large answer of cached rows) part by part into the corked socket (Node corks it
 * on the first write and uncorks on the next tick), so the kernel gathers them in one `writev` with the
 * headers, without a copy of the page in memory.
 */
function writeParts(res: ServerResponse, parts: readonly Uint8Array[]): void {
  for (const part of parts) res.write(part);
  res.end();
}

/** Why Node could not read a request: a header block over the cap, a client too slow, a malformed request. */
function unreadable(error: Error & { code?: string }, maxHeaderBytes: number): string {
  return error.code === "HPE_HEADER_OVERFLOW"
    ? `The request headers exceed ${maxHeaderBytes} bytes.`
    : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? "The request was not received in time."
      : "The request could not be read as HTTP/1.1.";
}

/**
 * A request Node could not read or will not serve (a CONNECT): the spec's envelope, 400 VALIDATION_FAILED
 * (the catalog has no 405, 408 or 431; docs/spec-choices.md), and the connection closes. Requests pipelined
 * before it on the connection are answered first.
 */
function refuse(socket: Duplex, why: string): void {
  if (!socket.writable || (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ error: apiError("VALIDATION_FAILED", why) });
  socket.end(
    `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function ownHost(server: Server): string {
  const address = server.address() as AddressInfo;
  return `${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`;
}

const NO_BODY = { body: null, tooLarge: false } as const;

/** RFC 9112 section 6.3: a request without Content-Length or Transfer-Encoding has no body. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/** Reads the body up to the limit; past it, stops keeping bytes and reports `tooLarge`. */
function readBody(req: IncomingMessage): Promise<{ body: Uint8Array | null; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve({ body: tooLarge || size === 0 ? null : Buffer.concat(chunks), tooLarge }));
    req.on("error", reject);
    // A client that stops sending, or is cut off by the request timeout, never ends its body.
    req.on("close", () => {
      if (!req.complete) reject(new Error("the request body was cut short"));
    });
  });
}
