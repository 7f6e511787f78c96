// The response check is an explicit hook (SimulatorOptions.onExchange): a simulator built by the test helpers
// judges every answer against the OpenAPI document, and a simulator built without the hook judges nothing.
import { describe, expect, it } from "vitest";
import type { SimRequest, SimResponse } from "../http/types.js";
import { createSimulator, type Simulator } from "../simulator.js";
import { failOnProblems, takeProblems } from "./response-validation.js";
import { checkedSimulator, makeSim, ORIGIN } from "./sim.js";

/** A test-only fault: rewrites the answer to GET /me into `{"data": 42}`, which the document does not describe. */
function rewriteMe(req: SimRequest, res: SimResponse): void {
  if (req.path === "/demo/v1/me") res.body = JSON.stringify({ data: 42 });
}

async function getMe(sim: Simulator): Promise<{ status: number; body: unknown }> {
  const res = await sim.fetch(`${ORIGIN}/demo/v1/me`, {
    headers: { authorization: `Bearer ${sim.token("demo", "full")}` },
  });
  return { status: res.status, body: await res.json() };
}

describe("docs/architecture.md, the response checker: every response a test gets is judged by an explicit hook", () => {
  it("a simulator built by checkedSimulator reports an answer the document does not describe, once, naming it", async () => {
    const sim = checkedSimulator({ clock: "manual", seed: 1, onExchange: rewriteMe });
    expect(await getMe(sim)).toEqual({ status: 200, body: { data: 42 } });
    expect(takeProblems()).toEqual([expect.stringMatching(/^GET \/me answered 200: \/data must be object/)]);
  });

  it("the setup file's afterEach check throws on such an answer, naming it, and then forgets it", async () => {
    const sim = checkedSimulator({ clock: "manual", seed: 1, onExchange: rewriteMe });
    await getMe(sim);
    expect(() => failOnProblems()).toThrow(
      /^Responses the OpenAPI document does not describe:\n {2}GET \/me answered 200/,
    );
    expect(() => failOnProblems()).not.toThrow();
  });

  it("a simulator built by createSimulator without the hook reports nothing", async () => {
    const sim = createSimulator({ clock: "manual", seed: 1, onExchange: rewriteMe });
    expect(await getMe(sim)).toEqual({ status: 200, body: { data: 42 } });
    expect(takeProblems()).toEqual([]);
  });

  it("makeSim judges every answer, in process and over a socket: the hook runs once per answered request", async () => {
    const seen: string[] = [];
    const sim = makeSim({ onExchange: (req, res) => seen.push(`${req.method} ${req.path} ${res.status}`) });
    await getMe(sim);
    const { url } = await sim.listen(0);
    try {
      const res = await fetch(`${url}/demo/v1/me`, {
        headers: { authorization: `Bearer ${sim.token("demo", "full")}` },
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    } finally {
      await sim.close();
    }
    expect(seen).toEqual(["GET /demo/v1/me 200", "GET /demo/v1/me 200"]);
    expect(takeProblems()).toEqual([]);
  });

  it("answers of injected faults are exempt: no document describes them", async () => {
    const sim = makeSim();
    const added = await sim.fetch(`${ORIGIN}/_sim/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "GET", path: "/demo/v1/me", status: 418 }),
    });
    expect(added.status).toBe(201);
    expect((await getMe(sim)).status).toBe(418);
    expect(takeProblems()).toEqual([]);
  });
});
