// Fuzzing support: Raw HTTP over a socket and byte-level requests for the node:http adapter.
// Part of src/test-support/fuzz.ts (which re-exports every part).
import net from "node:net";
import fc from "fast-check";
import { MAX_BODY_BYTES } from "../../http/types.js";
import { INVALID_UTF8, padded, withInvalidUtf8 } from "./bodies.js";
import { type Schema, valueArb } from "./body-values.js";
import { type FuzzContext, clip, jsonText, latin1, previewBytes } from "./requests.js";
import { opPath, paramsArb } from "./route-paths.js";
import { operationArb } from "./routes.js";

// Raw HTTP over a socket: the bytes on the wire are exactly the ones given.

export interface RawReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Parses one HTTP/1.1 response out of `data`, or undefined when it is not complete yet (`ended`: the server closed). */
function parseReply(data: Buffer, ended: boolean): RawReply | undefined {
  const end = data.indexOf("\r\n\r\n");
  if (end === -1) return undefined;
  const head = data.subarray(0, end).toString("latin1").split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? "");
  if (!status) throw new Error(`not an HTTP response: ${clip(JSON.stringify(head[0]), 200)}`);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = data.subarray(end + 4);
  const length = headers["content-length"];
  if (length !== undefined) {
    if (rest.length < Number(length)) return undefined;
    return { status: Number(status[1]), headers, body: rest.subarray(0, Number(length)).toString("utf8") };
  }
  if (headers["transfer-encoding"] !== undefined)
    throw new Error("chunked responses are not expected from the simulator");
  return ended ? { status: Number(status[1]), headers, body: rest.toString("utf8") } : undefined;
}

/**
 * Sends `bytes` on a fresh connection and reads one response. `halfClose` ends the client's side after
 * sending (a body cut short then reaches the server as a closed connection, not a stall).
 */
export function rawExchange(
  port: number,
  bytes: Uint8Array,
  options: { halfClose?: boolean; timeoutMs?: number } = {},
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (error: Error | undefined, reply?: RawReply) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (reply) resolve(reply);
      else reject(error ?? new Error("no response"));
    };
    const timer = setTimeout(
      () =>
        finish(
          new Error(
            `no complete response within ${options.timeoutMs ?? 5000} ms; got ${clip(JSON.stringify(Buffer.concat(chunks).toString("latin1")), 300)}`,
          ),
        ),
      options.timeoutMs ?? 5000,
    );
    const attempt = (ended: boolean) => {
      try {
        const reply = parseReply(Buffer.concat(chunks), ended);
        if (reply) finish(undefined, reply);
        else if (ended)
          finish(
            new Error(
              `the connection closed without a complete response; got ${clip(JSON.stringify(Buffer.concat(chunks).toString("latin1")), 300)}`,
            ),
          );
      } catch (error) {
        finish(error as Error);
      }
    };
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      attempt(false);
    });
    socket.on("end", () => attempt(true));
    socket.on("close", () => attempt(true));
    // A server that answers before reading everything (a header block over its limit) may reset the
    // connection under our writes: what it already sent is still the answer.
    socket.on("error", () => attempt(true));
    socket.write(bytes, () => {
      if (options.halfClose) socket.end();
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Byte-level requests for the node:http adapter.

export type RawKind =
  | "invalid-utf8"
  | "truncated-json"
  | "short-body"
  | "over-cap"
  | "over-cap-chunked"
  | "huge-headers"
  | "bad-request-line"
  | "bad-chunked"
  | "smuggling"
  | "odd-header-bytes";

export interface RawRequest {
  readonly kind: RawKind;
  readonly bytes: Uint8Array;
  /** End the client's side after sending (the body is shorter than announced). */
  readonly halfClose: boolean;
  /** The server must refuse it (4xx); otherwise any answer but a 5xx will do. */
  readonly refused: boolean;
  readonly note: string;
}

export function describeRaw(r: RawRequest): string {
  return `[${r.kind}${r.halfClose ? ", half-closed" : ""}] ${r.note} ${previewBytes(r.bytes, 400)}`;
}

function rawDescribed(r: RawRequest): RawRequest {
  Object.defineProperty(r, fc.toStringMethod, { value: () => describeRaw(r), enumerable: false });
  return r;
}

/** Requests only the bytes can express: malformed UTF-8, bodies cut short or over the cap, header blocks over the limit, broken framing. */
export function rawRequestArb(ctx: FuzzContext): fc.Arbitrary<RawRequest> {
  const writes = operationArb((op) => op.body !== undefined);
  const target = writes.chain((op) =>
    fc.tuple(
      fc.constant(op),
      paramsArb(ctx, op, "valid"),
      valueArb(op.body as Schema, ctx),
      fc.stringMatching(/^[\x21-\x7E]{1,40}$/),
    ),
  );
  return fc
    .tuple(
      target,
      fc.constantFrom<RawKind>(
        "invalid-utf8",
        "truncated-json",
        "short-body",
        "over-cap",
        "over-cap-chunked",
        "huge-headers",
        "bad-request-line",
        "bad-chunked",
        "smuggling",
        "odd-header-bytes",
      ),
      fc.nat(),
      fc.constantFrom(...INVALID_UTF8),
    )
    .map(([[op, params, value, key], kind, n, bad]) => {
      const path = `/demo/v1${opPath(op, params)}`;
      const text = jsonText(value);
      const head = (method: string, extra: string) =>
        `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ctx.tokens.full}\r\nIdempotency-Key: ${key}\r\nConnection: close\r\n${extra}`;
      const withLength = (body: Uint8Array, extra = "") =>
        Buffer.concat([
          latin1(head(op.method, `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n${extra}\r\n`)),
          body,
        ]);
      let bytes: Uint8Array;
      let halfClose = false;
      let refused = true;
      let note = `${op.method} ${op.path}`;
      switch (kind) {
        case "invalid-utf8":
          bytes = withLength(withInvalidUtf8(text, bad));
          break;
        case "truncated-json": {
          const cut = Buffer.from(text, "utf8").subarray(0, 1 + (n % Math.max(1, Buffer.byteLength(text) - 1)));
          bytes = withLength(cut);
          break;
        }
        case "short-body": {
          const body = Buffer.from(text, "utf8");
          const announced = body.length + 1 + (n % 1000);
          bytes = Buffer.concat([
            latin1(head(op.method, `Content-Type: application/json\r\nContent-Length: ${announced}\r\n\r\n`)),
            body,
          ]);
          halfClose = true;
          note += `, announced ${announced} bytes, sent ${body.length}`;
          break;
        }
        case "over-cap": {
          const size = MAX_BODY_BYTES + 1 + (n % 65_536);
          bytes = withLength(padded(text, size));
          note += `, ${size} bytes`;
          break;
        }
        case "over-cap-chunked": {
          const size = MAX_BODY_BYTES + 1 + (n % 65_536);
          const body = padded(text, size);
          const chunk = 256 * 1024;
          const parts: Buffer[] = [
            latin1(head(op.method, "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")),
          ];
          for (let at = 0; at < body.length; at += chunk) {
            const piece = body.subarray(at, at + chunk);
            parts.push(latin1(`${piece.length.toString(16)}\r\n`), Buffer.from(piece), latin1("\r\n"));
          }
          parts.push(latin1("0\r\n\r\n"));
          bytes = Buffer.concat(parts);
          note += `, ${size} bytes chunked`;
          break;
        }
        case "huge-headers": {
          // Well over the 16 KiB cap however it is counted (Node counts names and values, not the separators).
          const size = 20_000 + (n % 48_000);
          const many = n % 2 === 0;
          const extra = many
            ? Array.from({ length: Math.ceil(size / 100) }, (_, i) => `X-Fuzz-${i}: ${"v".repeat(88)}\r\n`).join("")
            : `X-Fuzz: ${"v".repeat(size)}\r\n`;
          bytes = withLength(Buffer.from(text, "utf8"), extra);
          note += `, ${many ? "many headers" : "one header"} of ${size} bytes`;
          break;
        }
        case "bad-request-line": {
          // [line, must be refused]. Node's parser reads a line without a version, or with two spaces after
          // the method, leniently (as GET): those need only an answer that is not a 5xx.
          const lines: [string, boolean][] = [
            [`BREW ${path} HTTP/1.1`, true],
            [`get ${path} HTTP/1.1`, true],
            [`G@T ${path} HTTP/1.1`, true],
            [`GET ${path} HTTP/9.9`, true],
            [`GET /demo/v1/products/\xe2\x82\xac HTTP/1.1`, true],
            [`GET ${path}\x00 HTTP/1.1`, true],
            [`${"A".repeat(20_000)} / HTTP/1.1`, true],
            [`GET ${path} http/1.1`, true],
            [`GET ${path}`, false],
            [`GET  ${path} HTTP/1.1`, false],
          ];
          const [line, mustRefuse] = lines[n % lines.length] as [string, boolean];
          refused = mustRefuse;
          bytes = latin1(
            `${line}\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ctx.tokens.full}\r\nConnection: close\r\n\r\n`,
          );
          note = `request line ${clip(JSON.stringify(line), 80)}`;
          break;
        }
        case "bad-chunked": {
          const bodies = [
            "zz\r\nabc\r\n0\r\n\r\n",
            "5\r\nab\r\n0\r\n\r\n",
            "-1\r\nx\r\n0\r\n\r\n",
            `ffffffffffffffffff\r\n${text}\r\n0\r\n\r\n`,
            `${Buffer.byteLength(text).toString(16)}\r\n${text}0\r\n\r\n`,
          ];
          // The body text goes out as UTF-8 (the chunk sizes count its UTF-8 bytes).
          bytes = Buffer.concat([
            latin1(head(op.method, "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")),
            Buffer.from(bodies[n % bodies.length] as string, "utf8"),
          ]);
          break;
        }
        case "smuggling": {
          const variants = [
            `Content-Length: ${Buffer.byteLength(text)}\r\nTransfer-Encoding: chunked\r\n`,
            `Content-Length: ${Buffer.byteLength(text)}\r\nContent-Length: ${Buffer.byteLength(text) + 1}\r\n`,
            `Content-Length: -1\r\n`,
            `Content-Length: 1e3\r\n`,
            `Transfer-Encoding: gzip, chunked, identity\r\n`,
          ];
          bytes = Buffer.concat([
            latin1(head(op.method, `Content-Type: application/json\r\n${variants[n % variants.length]}\r\n`)),
            Buffer.from(text, "utf8"),
          ]);
          break;
        }
        case "odd-header-bytes": {
          // Bytes above 0x7F in header values, header names a JS object would treat specially: any answer but a 5xx.
          const extras = [
            "X-Name: caf\xe9\xff\r\n",
            "Idempotency-Key: \xd0\xba\xd0\xbb\xd1\x8e\xd1\x87\r\n",
            '__proto__: {"polluted":true}\r\n',
            "constructor: x\r\nprototype: y\r\n",
            "Content-Type: application/json; charset=\xff\r\n",
          ];
          bytes = withLength(Buffer.from(text, "utf8"), extras[n % extras.length]);
          refused = false;
          break;
        }
      }
      return rawDescribed({ kind, bytes, halfClose, refused, note });
    });
}
