import createClient from "openapi-fetch";
import { describe, expect, it } from "vitest";
import type { paths } from "./test-support/generated/api.js";
import { makeSim } from "./test-support/sim.js";

// docs/interfaces.md, Library: `fetch` and `handle` are bound to the simulator, so they can be handed to a client
// as its custom fetch (docs/sdk-authors.md, In process, without a socket).

describe("docs/interfaces.md, Library: sim.fetch and sim.handle used detached", () => {
  it("openapi-fetch's createClient({ baseUrl, fetch: sim.fetch }) reads the identity: 200", async () => {
    const sim = makeSim();
    const api = createClient<paths>({
      baseUrl: "http://sim.test/demo/v1",
      fetch: sim.fetch,
      headers: { authorization: `Bearer ${sim.token("demo", "full")}` },
    });
    const me = await api.GET("/me");
    expect(me.response.status).toBe(200);
    expect(me.data?.data.domain_prefix).toBe("demo");
  });

  it("a fetch kept in a variable (as a hand-written SDK stores it) answers 200", async () => {
    const sim = makeSim();
    const sdk = { fetch: sim.fetch };
    const f = sim.fetch;
    const init = { headers: { authorization: `Bearer ${sim.token("demo", "full")}` } };
    expect((await f("http://sim.test/demo/v1/me", init)).status).toBe(200);
    expect((await sdk.fetch("http://sim.test/demo/v1/me", init)).status).toBe(200);
  });

  it("a handle kept in a variable answers the simulator's own request shape", async () => {
    const sim = makeSim();
    const handle = sim.handle;
    const res = await handle({
      method: "GET",
      path: "/_sim/health",
      query: "",
      headers: {},
      body: null,
      remoteAddress: "127.0.0.1",
      origin: "http://sim.test",
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(String(res.body))).toEqual({ status: "ok" });
  });
});
