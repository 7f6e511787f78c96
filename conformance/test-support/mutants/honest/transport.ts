import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { MAX_BODY_BYTES, type SimRequest } from "../../../../src/http/types.js";
import type { Simulator } from "../../../../src/simulator.js";

// An honest server that differs only in transport: every answer comes after a small delay, with
// `Connection: close`, and its body chunked (no Content-Length). Spec, What the service does: "The
// service is a JSON-over-HTTP API"; nothing in it fixes latency, connection reuse or message framing,
// which HTTP/1.1 leaves to the server (RFC 9112 6.1 and 9.6). Status and every other header are the
// simulator's.
//
// Two options, off by default, make it the front of a staging stand-in (mutants/staging/stand-in.ts):
// paths under the prefix it does not route, and requests it drops without an answer.

export interface TransportOptions {
  /** The delay before the n-th answer (n from 0), in milliseconds; default 2 to 20 by n. */
  readonly latencyMs?: (n: number) => number;
  /**
   * A path the API is served under, before the store prefix (`/stg/eu`: `{api_root}` is then
   * `http://127.0.0.1:port/stg/eu`, spec, Conventions); other paths answer a bare 404, as a load
   * balancer would.
   */
  readonly pathPrefix?: string;
  /**
   * Paths under the prefix (the part after it, e.g. `/_sim/clock`) that the front does not route: they
   * answer the same bare 404 as paths outside the prefix, without reaching the simulator. Default: none.
   */
  readonly unrouted?: (path: string) => boolean;
  /**
   * Called once per routed request, after it was read and before the simulator sees it: `true` closes
   * the connection without an answer (a load balancer dropping it), so the simulator never carries the
   * request out. Default: no request is dropped.
   */
  readonly drop?: (req: SimRequest) => boolean;
}

export interface TransportServer {
  /** `http://127.0.0.1:port` and the path prefix: the API root. */
  readonly url: string;
  close(): Promise<void>;
}

/** 2 to 20 ms, the same for the same request number on every run. */
const DEFAULT_LATENCY = (n: number): number => 2 + ((n * 7) % 19);

function readBody(req: IncomingMessage): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(chunks.length === 0 ? null : Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** The body in two or more pieces (one for a body of a single byte). */
function pieces(body: Buffer): Buffer[] {
  const cut = [Math.floor(body.length / 3), Math.floor((2 * body.length) / 3)];
  return [body.subarray(0, cut[0]), body.subarray(cut[0], cut[1]), body.subarray(cut[1])].filter((b) => b.length > 0);
}

/** The simulator behind a node:http server on 127.0.0.1 that makes the transport choices above. */
export function serveWithTransportChoices(sim: Simulator, options: TransportOptions = {}): Promise<TransportServer> {
  const latency = options.latencyMs ?? DEFAULT_LATENCY;
  let count = 0;
  const server = createServer(async (req, res) => {
    const n = count++;
    res.sendDate = false;
    try {
      const prefix = options.pathPrefix ?? "";
      const raw = req.url ?? "/";
      if (!raw.startsWith(`${prefix}/`)) {
        res.writeHead(404, { "content-type": "text/plain", connection: "close" });
        res.end("Not Found");
        return;
      }
      const url = raw.slice(prefix.length);
      const q = url.indexOf("?");
      if (options.unrouted?.(q === -1 ? url : url.slice(0, q))) {
        res.writeHead(404, { "content-type": "text/plain", connection: "close" });
        res.end("Not Found");
        return;
      }
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
      const simReq: SimRequest = {
        method: (req.method ?? "GET").toUpperCase(),
        path: q === -1 ? url : url.slice(0, q),
        query: q === -1 ? "" : url.slice(q + 1),
        headers,
        body: body !== null && body.length > MAX_BODY_BYTES ? null : body,
        bodyTooLarge: body !== null && body.length > MAX_BODY_BYTES,
        remoteAddress: req.socket.remoteAddress ?? "unknown",
        origin: `http://${req.headers.host ?? `127.0.0.1:${(server.address() as AddressInfo).port}`}`,
      };
      if (options.drop?.(simReq)) {
        req.socket.destroy();
        return;
      }
      const out = await sim.handle(simReq);
      await new Promise((resolve) => setTimeout(resolve, latency(n)));
      const { "content-length": _length, connection: _connection, ...kept } = out.headers;
      const answer = out.body === null ? Buffer.alloc(0) : Buffer.from(out.body);
      const framed = answer.length > 0 ? { "transfer-encoding": "chunked" } : {};
      res.writeHead(out.status, { ...kept, ...framed, connection: "close" });
      for (const piece of pieces(answer)) res.write(piece);
      res.end();
    } catch {
      if (!res.headersSent)
        res.writeHead(500, { "content-type": "application/json; charset=utf-8", connection: "close" });
      res.end(JSON.stringify({ error: { code: "INTERNAL", message: "The request could not be answered." } }));
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}${options.pathPrefix ?? ""}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
