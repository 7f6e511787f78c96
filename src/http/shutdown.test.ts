// docs/interfaces.md, Library (`close`): stopping the server refuses new connections, closes idle ones, answers
// what is in flight with `Connection: close` and reports the requests its grace cut off. A delay fault holds a
// request in flight; its wait is the test's own, so nothing here sleeps: each step waits for an event.
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import type { Simulator } from "../simulator.js";
import { makeSim } from "../test-support/sim.js";

/** A sleep the test ends: `whenSleeping` resolves once a request waits in it, `wake` lets every waiter go on. */
function gatedSleep() {
  const waiters: (() => void)[] = [];
  let arrived: (() => void) | undefined;
  return {
    sleep: (_ms: number) =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        arrived?.();
      }),
    whenSleeping: () => (waiters.length > 0 ? Promise.resolve() : new Promise<void>((r) => (arrived = r))),
    wake: () => {
      for (const wake of waiters.splice(0)) wake();
    },
  };
}

/** A raw connection: what it received so far, and promises for its next complete answer and for its close. */
function open(port: number) {
  const socket = connect(port, "127.0.0.1");
  let received = "";
  let onData: (() => void) | undefined;
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
    onData?.();
  });
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(received)));
  socket.on("error", () => {});
  return {
    socket,
    closed,
    /** Sends a GET and resolves with the head and body of its answer (the server sends a Content-Length). */
    get: (path: string, token: string) =>
      new Promise<{ head: string; body: string }>((resolve) => {
        const start = received.length;
        onData = () => {
          const text = received.slice(start);
          const split = text.indexOf("\r\n\r\n");
          if (split === -1) return;
          const head = text.slice(0, split).toLowerCase();
          const length = Number(/\r\ncontent-length: (\d+)/.exec(head)?.[1]);
          if (text.length - split - 4 < length) return;
          onData = undefined;
          resolve({ head, body: text.slice(split + 4, split + 4 + length) });
        };
        socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`);
      }),
  };
}

const refused = (port: number) =>
  new Promise<string>((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.on("connect", () => resolve("connected"));
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
  });

async function served(sleep: (ms: number) => Promise<void>): Promise<{ sim: Simulator; port: number; token: string }> {
  const sim = makeSim({ sleep });
  const { port } = await sim.listen(0);
  sim.addFault({ method: "GET", path: "/demo/v1/me", delay_ms: 60_000, times: 1 });
  return { sim, port, token: sim.token("demo", "full") };
}

describe("docs/interfaces.md, Library: close()", () => {
  it("refuses new connections, closes idle ones at once and answers what is in flight with Connection: close", async () => {
    const gate = gatedSleep();
    const { sim, port, token } = await served(gate.sleep);
    const idle = open(port);
    const first = await idle.get("/_sim/health", token);
    expect(first.head).toContain("connection: keep-alive");
    const busy = open(port);
    const answer = busy.get("/demo/v1/me", token);
    await gate.whenSleeping();

    const closing = sim.close();
    await idle.closed;
    expect(await refused(port)).toBe("ECONNREFUSED");
    gate.wake();
    const late = await answer;
    expect(late.head).toMatch(/^http\/1\.1 200 ok/);
    expect(late.head).toContain("connection: close");
    expect(JSON.parse(late.body).data.domain_prefix).toBe("demo");
    await busy.closed;
    expect(await closing).toStrictEqual({ cutOff: 0 });
  });

  it("a request still in flight when the grace runs out is cut off, and the report counts it", async () => {
    const gate = gatedSleep();
    const { sim, port, token } = await served(gate.sleep);
    const busy = open(port);
    void busy.get("/demo/v1/me", token);
    await gate.whenSleeping();

    expect(await sim.close({ graceSeconds: 0 })).toStrictEqual({ cutOff: 1 });
    expect(await busy.closed).toBe("");
    // The request goes on to its end with nobody to answer: nothing is thrown.
    gate.wake();
    await new Promise((turn) => setImmediate(turn));
  });

  it("a simulator that does not listen closes at once with nothing cut off", async () => {
    expect(await makeSim().close()).toStrictEqual({ cutOff: 0 });
  });
});

/** A raw connection's end: "clean" for an orderly close, else the error's code (ECONNRESET for a reset). */
const ending = (socket: ReturnType<typeof connect>) =>
  new Promise<string>((resolve) => {
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
    socket.on("close", (hadError) => hadError || resolve("clean"));
  });

describe("docs/interfaces.md, Library: close() closes idle connections in stages (RFC 9112 section 9.6)", () => {
  it("64 connections, idle after an answer or before any request, close at once without a reset, grace or not", async () => {
    const sim = makeSim();
    const listening = await sim.listen(0);
    const token = sim.token("demo", "full");
    const idle = Array.from({ length: 32 }, () => open(listening.port));
    for (const c of idle) expect((await c.get("/demo/v1/me", token)).head).toContain("connection: keep-alive");
    const silent = Array.from({ length: 32 }, () => connect(listening.port, "127.0.0.1"));
    const ends = [...idle.map((c) => ending(c.socket)), ...silent.map(ending)];
    // Every connection accepted by the server before it stops listening.
    const count = () => new Promise<number>((r) => listening.server.getConnections((_, n) => r(n)));
    while ((await count()) < 64) await new Promise((turn) => setImmediate(turn));

    expect(await sim.close({ graceSeconds: 3600 })).toStrictEqual({ cutOff: 0 });
    expect(await Promise.all(ends)).toStrictEqual(Array(64).fill("clean"));
  });

  it("a request sent on an idle connection after the server closed it for writing is not carried out, and meets no reset", async () => {
    const sim = makeSim();
    const { port } = await sim.listen(0);
    const token = sim.token("demo", "full");
    const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
    const ended = ending(socket);
    const first = `GET /_sim/health HTTP/1.1\r\nHost: x\r\n\r\n`;
    await new Promise((answered) => {
      socket.once("data", answered);
      socket.write(first);
    });
    const brands = sim.world.stores.get("demo")!.catalog.brands.size;
    const body = JSON.stringify({ name: "Late" });
    // The server's end of the connection arrives; the client had a request on its way.
    socket.once("end", () => {
      socket.write(
        `POST /demo/v1/brands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      socket.end();
    });
    expect(await sim.close({ graceSeconds: 3600 })).toStrictEqual({ cutOff: 0 });
    expect(await ended).toBe("clean");
    expect(sim.world.stores.get("demo")!.catalog.brands.size).toBe(brands);
  });
});

describe("docs/interfaces.md, Library: close() whatever the state holds", () => {
  it("200,000 faults (as a restored snapshot may hold) are gone through once: close() ends at once", async () => {
    const sim = makeSim();
    await sim.listen(0);
    const count = 200_000;
    const faults = Array.from({ length: count }, (_, i) => ({
      id: i + 1,
      path: `/x${i}`,
      status: 500,
      remaining: null,
    }));
    sim.world.faults.restore({ nextId: count + 1, faults });
    expect(await sim.close({ graceSeconds: 3600 })).toStrictEqual({ cutOff: 0 });
    expect(sim.world.faults.list()).toHaveLength(count);
  });
});
