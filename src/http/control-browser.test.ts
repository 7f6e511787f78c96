import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeSim, ORIGIN } from "../test-support/sim.js";
import type { Simulator } from "../simulator.js";

// docs/interfaces.md, Control plane, and docs/spec-choices.md, Control plane from a browser: /_sim refuses what a web
// page could send across sites (a write without a JSON Content-Type, a foreign Origin or Sec-Fetch-Site, and, while it
// listens on loopback, a Host it does not answer to), before anything is read or changed.

const TYPE_REFUSED = {
  error: {
    code: "VALIDATION_FAILED",
    message:
      "Content-Type: must be application/json on every /_sim write, an empty body included (curl -H 'Content-Type: application/json'; Python requests: json={})",
    fields: [
      {
        field: "Content-Type",
        message:
          "must be application/json on every /_sim write, an empty body included (curl -H 'Content-Type: application/json'; Python requests: json={})",
      },
    ],
  },
};

const foreign = (why: string) => ({ error: { code: "INSUFFICIENT_SCOPE", message: `Refused: ${why}.` } });
const ORIGIN_WHY = "/_sim answers only its own origin, never a web page of another";

async function send(sim: Simulator, method: string, path: string, headers: Record<string, string>, body?: string) {
  const res = await sim.fetch(`${ORIGIN}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

/** A simulator whose state a reset, a revocation or a clock move would change, and the key it may revoke. */
function movedSim() {
  const sim = makeSim();
  sim.clock.advance(3600);
  const key = sim.world.credentials.forStore("demo").find((c) => c.name === "full");
  return { sim, keyId: key?.id as string, token: sim.token("demo", "full") };
}

async function unchanged(sim: Simulator, before: unknown, token: string) {
  expect(sim.snapshot()).toStrictEqual(before);
  const me = await send(sim, "GET", "/demo/v1/me", { authorization: `Bearer ${token}` });
  expect(me.status).toBe(200);
}

describe("docs/interfaces.md, Control plane: every /_sim write carries Content-Type: application/json", () => {
  it.each([
    ["a form (application/x-www-form-urlencoded), empty", { "content-type": "application/x-www-form-urlencoded" }, ""],
    ["a form with fields", { "content-type": "application/x-www-form-urlencoded" }, "seed=2"],
    ["text/plain", { "content-type": "text/plain" }, '{"seed": 2}'],
    ["multipart/form-data", { "content-type": "multipart/form-data; boundary=x" }, ""],
    ["no Content-Type, empty", {}, undefined],
  ])(
    "%s to POST /_sim/reset and POST /_sim/keys/{id}/revoke: 400 naming Content-Type; nothing changes",
    async (_n, headers, body) => {
      const { sim, keyId, token } = movedSim();
      const before = sim.snapshot();
      for (const path of ["/_sim/reset", `/_sim/keys/${keyId}/revoke`, "/_sim/sandboxes/sb9/reset"])
        expect(await send(sim, "POST", path, headers, body)).toStrictEqual({ status: 400, json: TYPE_REFUSED });
      for (const [method, path] of [
        ["PATCH", "/_sim/stores/demo"],
        ["PUT", "/_sim/clock"],
        ["DELETE", "/_sim/faults"],
      ] as const)
        expect(await send(sim, method, path, { "content-type": "text/plain" }, body)).toStrictEqual({
          status: 400,
          json: TYPE_REFUSED,
        });
      await unchanged(sim, before, token);
    },
  );

  it("a JSON type, parameters allowed, with an empty body reads as {}; a DELETE without any Content-Type is served", async () => {
    const { sim, keyId, token } = movedSim();
    sim.addFault({ path: "/demo/v1/x", status: 503 });
    expect((await send(sim, "DELETE", "/_sim/faults", {})).status).toBe(204);
    expect(sim.world.faults.list()).toEqual([]);
    const json = { "content-type": "application/json; charset=utf-8" };
    expect((await send(sim, "POST", `/_sim/keys/${keyId}/revoke`, json)).json).toEqual({ id: keyId, state: "revoked" });
    expect((await send(sim, "GET", "/demo/v1/me", { authorization: `Bearer ${token}` })).status).toBe(401);
    expect((await send(sim, "POST", "/_sim/reset", json)).status).toBe(200);
    expect(sim.clock.now()).toBe("2026-01-01T00:00:00.000Z");
  });
});

describe("docs/interfaces.md, Control plane: no Origin or Sec-Fetch-Site of another page", () => {
  it.each([
    [{ origin: "http://attacker.example" }, `Origin http://attacker.example: ${ORIGIN_WHY}`],
    [{ origin: "http://sim.test.attacker.example" }, `Origin http://sim.test.attacker.example: ${ORIGIN_WHY}`],
    [{ origin: "null" }, `Origin null: ${ORIGIN_WHY}`],
    [{ origin: "http://localhost:3000" }, `Origin http://localhost:3000: ${ORIGIN_WHY}`],
    [{ "sec-fetch-site": "cross-site" }, `Sec-Fetch-Site cross-site: ${ORIGIN_WHY}`],
    [{ "sec-fetch-site": "same-site" }, `Sec-Fetch-Site same-site: ${ORIGIN_WHY}`],
  ])("%j: 403 INSUFFICIENT_SCOPE on GET /_sim/credentials and on writes; nothing changes", async (extra, why) => {
    const { sim, keyId, token } = movedSim();
    const before = sim.snapshot();
    const json = { "content-type": "application/json", ...extra };
    const refused = { status: 403, json: foreign(why) };
    expect(await send(sim, "GET", "/_sim/credentials", extra)).toStrictEqual(refused);
    expect(await send(sim, "POST", "/_sim/reset", json, "{}")).toStrictEqual(refused);
    expect(await send(sim, "POST", `/_sim/keys/${keyId}/revoke`, json)).toStrictEqual(refused);
    expect(await send(sim, "POST", "/_sim/clock", json, '{"advance_seconds": 60}')).toStrictEqual(refused);
    await unchanged(sim, before, token);
  });

  it("its own origin (as the request names it, or the public URL's), same-origin and none are served", async () => {
    const { sim } = movedSim();
    const served: Record<string, string>[] = [
      { origin: "http://sim.test" },
      { "sec-fetch-site": "same-origin" },
      { "sec-fetch-site": "none", origin: "http://sim.test" },
    ];
    for (const headers of served) expect((await send(sim, "GET", "/_sim/credentials", headers)).status).toBe(200);
    const proxied = makeSim({ publicUrl: "https://sim.example" });
    expect((await send(proxied, "GET", "/_sim/credentials", { origin: "https://sim.example" })).status).toBe(200);
    expect((await send(proxied, "GET", "/_sim/credentials", { origin: "https://other.example" })).status).toBe(403);
  });
});

/** A request over the socket with the Host header given (fetch would send the URL's). */
function overSocket(
  url: string,
  method: string,
  path: string,
  host: string,
  body?: string,
  origin?: string,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = origin === undefined ? { host } : { host, origin };
    if (method !== "GET") headers["content-type"] = "application/json";
    const req = request(`${url}${path}`, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("docs/interfaces.md, Control plane: while listening on loopback, /_sim answers only its own host names", () => {
  let sim: Simulator;
  let url: string;
  let port: number;
  beforeAll(async () => {
    sim = makeSim({ allowHosts: ["Dev.Example"], publicUrl: "http://sim.public.example:8080" });
    ({ url, port } = await sim.listen(0, "127.0.0.1"));
  });
  afterAll(() => sim.close());

  const HOST_WHY = (host: string) =>
    `Host ${host}: while it listens on loopback, /_sim answers to loopback addresses, localhost, the --public-url host and --allow-host names`;

  it.each(["attacker.example", "localhost.attacker.example", "10.0.0.1", "sim.test", "127.0.0.1.nip.io", "localhost."])(
    "Host %s: 403 on GET /_sim/credentials, POST /_sim/reset and a revocation; nothing changes",
    async (name) => {
      const host = `${name}:${port}`;
      sim.clock.advance(60);
      const before = sim.snapshot();
      const keyId = sim.world.credentials.forStore("demo").find((c) => c.name === "full")?.id;
      const refused = { status: 403, json: foreign(HOST_WHY(host)) };
      expect(await overSocket(url, "GET", "/_sim/credentials", host)).toStrictEqual(refused);
      expect(await overSocket(url, "POST", "/_sim/reset", host, "{}")).toStrictEqual(refused);
      expect(await overSocket(url, "POST", `/_sim/keys/${keyId}/revoke`, host)).toStrictEqual(refused);
      await unchanged(sim, before, sim.token("demo", "full"));
    },
  );

  it.each([
    "localhost",
    "LOCALHOST",
    "app.localhost",
    "127.0.0.1",
    "127.9.9.9",
    "[::1]",
    "dev.example",
    "sim.public.example",
  ])("Host %s (with the port or without) is served", async (name) => {
    for (const host of [`${name}:${port}`, name])
      expect((await overSocket(url, "GET", "/_sim/health", host)).status, host).toBe(200);
  });

  it("an Origin with the Host's host and port under http or https is its own; another port is not", async () => {
    const host = `localhost:${port}`;
    for (const origin of [`http://${host}`, `https://${host}`, "http://sim.public.example:8080"])
      expect((await overSocket(url, "GET", "/_sim/health", host, undefined, origin)).status, origin).toBe(200);
    const other = await overSocket(url, "GET", "/_sim/health", host, undefined, "http://localhost:1");
    expect(other).toStrictEqual({ status: 403, json: foreign(`Origin http://localhost:1: ${ORIGIN_WHY}`) });
  });

  it("only /_sim is checked: the API answers under any Host, with its own credentials", async () => {
    const res = await new Promise<number>((resolve, reject) =>
      request(`${url}/demo/v1/me`, {
        headers: { host: `attacker.example:${port}`, authorization: `Bearer ${sim.token("demo", "full")}` },
      })
        .on("response", (r) => {
          r.resume();
          resolve(r.statusCode ?? 0);
        })
        .on("error", reject)
        .end(),
    );
    expect(res).toBe(200);
  });

  it("an allowHosts name that is not a bare host name throws, naming it", () => {
    expect(() => makeSim({ allowHosts: ["dev.example:80"] })).toThrow(
      'allowHosts: "dev.example:80" is not a host name without a port, such as sim.test',
    );
  });
});
