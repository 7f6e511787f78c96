// Server hygiene (docs/spec-choices.md, Requests) over real sockets: a cap on header size, timeouts for clients
// too slow to send their headers or body, unreadable requests, keep-alive. Every refusal is the spec's error
// envelope (spec, Errors: `{"error": {"code", "message"}}`; VALIDATION_FAILED is 400) and the server
// keeps serving. The timeouts are shortened for the test; nothing here sleeps: each test waits for the
// server's answer or for it to close the connection.
import { connect, type Socket } from "node:net";
import { request, Agent } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../simulator.js";
import { makeSim } from "../test-support/sim.js";
import type { Listening } from "./node.js";

let sim: Simulator;
let server: Listening;

beforeAll(async () => {
  sim = makeSim();
  server = await sim.listen(0, "127.0.0.1", {
    maxHeaderBytes: 8 * 1024,
    headersTimeoutMs: 300,
    requestTimeoutMs: 600,
    checkIntervalMs: 50,
  });
});
afterAll(() => sim.close());

/** Writes raw bytes and resolves with everything the server sent before it closed the connection. */
function exchange(write: (socket: Socket) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
    socket.on("connect", () => write(socket));
  });
}

function parse(raw: string): { status: number; headers: string; body: unknown } {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split);
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
    headers: head.toLowerCase(),
    body: JSON.parse(raw.slice(split + 4)),
  };
}

const envelope = (message: RegExp) => ({
  error: { code: "VALIDATION_FAILED", message: expect.stringMatching(message) },
});

async function stillServing(): Promise<void> {
  const res = await fetch(`${server.url}/_sim/health`);
  expect(res.status).toBe(200);
  expect(await res.json()).toStrictEqual({ status: "ok" });
}

describe("Server hygiene: requests the server cannot read get the spec's envelope, and the connection closes", () => {
  it("a header block over the cap answers 400 VALIDATION_FAILED naming the cap", async () => {
    const raw = await exchange((s) =>
      s.write(`GET /demo/v1/me HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(10_000)}\r\n\r\n`),
    );
    const reply = parse(raw);
    expect(reply.status).toBe(400);
    expect(reply.headers).toContain("connection: close");
    expect(reply.headers).toContain("content-type: application/json; charset=utf-8");
    expect(reply.body).toStrictEqual(envelope(/^The request headers exceed 8192 bytes\.$/));
    await stillServing();
  });

  it("a header block just under the cap is served", async () => {
    const res = await fetch(`${server.url}/_sim/health`, { headers: { "x-padding": "a".repeat(6_000) } });
    expect(res.status).toBe(200);
  });

  it("a request line that is not HTTP answers 400 VALIDATION_FAILED", async () => {
    const reply = parse(await exchange((s) => s.write("THIS IS NOT HTTP\r\n\r\n")));
    expect(reply.status).toBe(400);
    expect(reply.body).toStrictEqual(envelope(/^The request could not be read as HTTP\/1\.1\.$/));
    await stillServing();
  });

  it("a client that never finishes its headers is answered 400 and cut off after the headers timeout", async () => {
    const reply = parse(await exchange((s) => s.write("GET /_sim/health HTTP/1.1\r\nHost: x\r\n")));
    expect(reply.status).toBe(400);
    expect(reply.body).toStrictEqual(envelope(/^The request was not received in time\.$/));
    await stillServing();
  });

  it("a client that stops sending its body is cut off after the request timeout, and nothing is written", async () => {
    const token = sim.token("demo", "full");
    const before = sim.world.stores.get("demo")!.catalog.products.size;
    const raw = await exchange((s) =>
      s.write(
        `POST /demo/v1/products HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":"Slow"`,
      ),
    );
    const reply = parse(raw);
    expect(reply.status).toBe(400);
    expect(reply.body).toStrictEqual(envelope(/^The request was not received in time\.$/));
    expect(sim.world.stores.get("demo")!.catalog.products.size).toBe(before);
    await stillServing();
  });

  it("a body cut short by the client (connection closed mid-body) writes nothing and the server keeps serving", async () => {
    const token = sim.token("demo", "full");
    const before = sim.world.stores.get("demo")!.catalog.products.size;
    await exchange((s) => {
      s.write(
        `POST /demo/v1/products HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"name":`,
      );
      s.end();
    });
    expect(sim.world.stores.get("demo")!.catalog.products.size).toBe(before);
    await stillServing();
  });
});

describe("Server hygiene: keep-alive", () => {
  it("several requests in a row share one connection, each answered in full", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ports = new Set<number>();
    const token = sim.token("demo", "full");
    try {
      for (let i = 0; i < 5; i++) {
        const { status, body, port } = await new Promise<{ status: number; body: string; port: number }>(
          (resolve, reject) => {
            const req = request(
              `${server.url}/demo/v1/me`,
              { agent, headers: { authorization: `Bearer ${token}` } },
              (res) => {
                let body = "";
                res.on("data", (c: Buffer) => (body += c.toString()));
                res.on("end", () => resolve({ status: res.statusCode ?? 0, body, port: req.socket?.localPort ?? 0 }));
              },
            );
            req.on("error", reject);
            req.end();
          },
        );
        expect(status).toBe(200);
        expect(JSON.parse(body).data.domain_prefix).toBe("demo");
        ports.add(port);
      }
      expect(ports.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });
});

/** The status line and body of each answer in a raw stream of HTTP/1.1 responses (each with Content-Length). */
function answers(raw: string): { status: number; headers: string; body: string }[] {
  const out: { status: number; headers: string; body: string }[] = [];
  let rest = raw;
  while (rest.length > 0) {
    const split = rest.indexOf("\r\n\r\n");
    const head = rest.slice(0, split);
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
    const body = Buffer.from(rest.slice(split + 4), "latin1")
      .subarray(0, length)
      .toString("latin1");
    out.push({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), headers: head.toLowerCase(), body });
    rest = rest.slice(split + 4 + body.length);
  }
  return out;
}

describe("Server hygiene: a malformed request pipelined after valid ones (RFC 9112 section 9.3.2)", () => {
  const brand = (name: string) => {
    const body = JSON.stringify({ name });
    return `POST /demo/v1/brands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${sim.token("demo", "full")}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };
  const me = () => `GET /demo/v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${sim.token("demo", "full")}\r\n\r\n`;
  const stored = (id: string) => sim.world.stores.get("demo")!.catalog.brands.live(id)?.name;

  it("the valid ones are answered in order, a committed write included, then the malformed one gets its 400", async () => {
    const raw = await exchange((s) => s.write(`${me()}${brand("Pipelined A")}${me()}THIS IS NOT HTTP\r\n\r\n`));
    const got = answers(raw);
    expect(got.map((a) => a.status)).toEqual([200, 201, 200, 400]);
    const made = JSON.parse(got[1]!.body).data;
    expect(made.name).toBe("Pipelined A");
    expect(got[3]!.headers).toContain("connection: close");
    expect(JSON.parse(got[3]!.body)).toStrictEqual(envelope(/^The request could not be read as HTTP\/1\.1\.$/));
    expect(stored(made.id)).toBe("Pipelined A");
    await stillServing();
  });

  it("a write still in flight when the malformed request is read is answered before the 400", async () => {
    const fault = sim.addFault({ method: "POST", path: "/demo/v1/brands", hold: true, times: 1 });
    const raw = exchange((s) => s.write(`${brand("Pipelined B")}GARBAGE\r\n\r\n`));
    await sim.world.faults.whenHeld(fault.id);
    sim.control.releaseFault({ params: { id: String(fault.id) } });
    const got = answers(await raw);
    expect(got.map((a) => a.status)).toEqual([201, 400]);
    const made = JSON.parse(got[0]!.body).data;
    expect(made.name).toBe("Pipelined B");
    expect(stored(made.id)).toBe("Pipelined B");
    await stillServing();
  });
});

describe("Every request Node hands over gets the envelope (docs/spec-choices.md, Requests: request targets)", () => {
  const target = {
    error: { code: "VALIDATION_FAILED", message: "The request target must be a path, such as /_sim/health." },
  };

  it("CONNECT answers 400 VALIDATION_FAILED and the connection closes, after the answers pipelined before it", async () => {
    const raw = await exchange((s) =>
      s.write(
        "GET /_sim/health HTTP/1.1\r\nHost: localhost\r\n\r\nCONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
      ),
    );
    const got = answers(raw);
    expect(got.map((a) => a.status)).toEqual([200, 400]);
    expect(got[1]!.headers).toContain("connection: close");
    expect(JSON.parse(got[1]!.body)).toStrictEqual({
      error: { code: "VALIDATION_FAILED", message: "CONNECT is not served: the simulator is no proxy." },
    });
    await stillServing();
  });

  it.each(["OPTIONS *", "M-SEARCH *", "GET *"])(
    "%s answers 400 VALIDATION_FAILED: the target is no path",
    async (line) => {
      const reply = parse(
        await exchange((s) => s.write(`${line} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`)),
      );
      expect(reply.status).toBe(400);
      expect(reply.body).toStrictEqual(target);
      await stillServing();
    },
  );

  it.each([
    [
      "an absolute-form target (RFC 9112 section 3.2.2)",
      "GET http://localhost/_sim/health HTTP/1.1\r\nHost: localhost",
    ],
    [
      "an upgrade to WebSocket",
      "GET /_sim/health HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13",
    ],
  ])("%s is served as a plain request", async (_, head) => {
    const reply = parse(await exchange((s) => s.write(`${head}\r\nConnection: close\r\n\r\n`)));
    expect(reply.status).toBe(200);
    expect(reply.body).toStrictEqual({ status: "ok" });
  });

  it("a method Node parses but no route has (PROPFIND) answers 404 NOT_FOUND", async () => {
    const reply = parse(
      await exchange((s) =>
        s.write(
          "PROPFIND /_sim/health HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n",
        ),
      ),
    );
    expect(reply.status).toBe(404);
    expect(reply.body).toStrictEqual({
      error: { code: "NOT_FOUND", message: "No control route PROPFIND /_sim/health." },
    });
  });
});
