import { describe, expect, it } from "vitest";
import { ok } from "../kernel/result.js";
import type { LooseControlInput } from "../contract/control-operations.js";
import type { World } from "../engine/world.js";
import { makeWorld } from "../test-support/world.js";
import { createServer } from "./app.js";
import type { ControlPort, WorldPort } from "./ports.js";
import type { SimRequest } from "./types.js";

// docs/architecture.md, Layers: the http layer runs on small ports (the worlds a request may belong to, the control
// settings and runner, a log), with no Simulator behind them.

const request = (method: string, path: string, headers: Record<string, string> = {}): SimRequest => ({
  method,
  path,
  query: "",
  headers,
  body: null,
  remoteAddress: "127.0.0.1",
  origin: "http://ports.test",
});

/** One world for every request, read when the request arrives. */
const single = (world: () => World): WorldPort => ({
  main: world,
  forStore: world,
  forClient: world,
  forSandbox: () => undefined,
  all: () => [world()],
});

function controlPort(settings: { enabled?: boolean; token?: string } = {}) {
  const runs: { id: string; input: LooseControlInput; apiRoot: string }[] = [];
  const port: ControlPort = {
    enabled: settings.enabled ?? true,
    token: settings.token,
    hostNames: () => undefined,
    maxFieldErrors: 100,
    run: (id, input, apiRoot) => {
      runs.push({ id, input, apiRoot });
      return ok({ ran: id });
    },
  };
  return { port, runs };
}

describe("the http layer on its ports", () => {
  it("routes /_sim to the control port's runner with the table's id, the path's parameters and the origin", async () => {
    const { port, runs } = controlPort();
    const serve = createServer({ worlds: single(() => makeWorld()), control: port });
    const res = await serve(request("POST", "/_sim/keys/k-1/revoke", { "content-type": "application/json" }));
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: '{"ran":"revokeKey"}' });
    expect(runs).toEqual([
      { id: "revokeKey", input: { params: { id: "k-1" }, body: undefined }, apiRoot: "http://ports.test" },
    ]);
  });

  it("answers 404 when the control plane is off and 401 without its token, running nothing", async () => {
    const off = controlPort({ enabled: false });
    const offServer = createServer({ worlds: single(() => makeWorld()), control: off.port });
    expect((await offServer(request("GET", "/_sim/health"))).status).toBe(404);
    const locked = controlPort({ token: "0123456789abcdef" });
    const lockedServer = createServer({ worlds: single(() => makeWorld()), control: locked.port });
    expect((await lockedServer(request("GET", "/_sim/health"))).status).toBe(401);
    const opened = await lockedServer(request("GET", "/_sim/health", { authorization: "Bearer 0123456789abcdef" }));
    expect(opened.status).toBe(200);
    expect([off.runs.length, locked.runs.map((r) => r.id)]).toEqual([0, ["health"]]);
  });

  it("serves each request in the world the getter gives when it arrives", async () => {
    const [first, second] = [makeWorld(1), makeWorld(2)];
    let current = first;
    const serve = createServer({ worlds: single(() => current), control: controlPort().port });
    const me = (world: World) => {
      const key = world.credentials.forStore("demo").find((c) => c.name === "full");
      return request("GET", "/demo/v1/me", { authorization: `Bearer ${world.issuedKeys.get(key?.id ?? "")}` });
    };
    expect((await serve(me(first))).status).toBe(200);
    current = second;
    // The first world's key is not a key of the second world (each derives from its own seed).
    expect((await serve(me(first))).status).toBe(401);
    expect((await serve(me(second))).status).toBe(200);
  });
});
