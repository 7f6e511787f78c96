import { describe, expect, it } from "vitest";
import { makeWorld, testApi } from "../test-support/world.js";

// Spec, Limits: "Customer endpoints, per credential: 30 per minute, additional to the general limit",
// run on a test-only operation declared with the `customers` rate class.

describe("Spec, Limits: an operation's extra rate class is counted in addition to the general limit", () => {
  it("both policies are announced and RateLimit reports the nearer one", async () => {
    const api = testApi(makeWorld());
    const res = await api.send("GET", "/people");
    expect(res.status).toBe(200);
    expect(res.headers["ratelimit-policy"]).toBe('120;w=60, 30;w=60;comment="customers"');
    expect(res.headers["ratelimit"]).toBe("limit=30, remaining=29, reset=60");
  });

  it("the 31st request in a minute answers 429 RATE_LIMITED with Retry-After, while other operations still work", async () => {
    const world = makeWorld();
    const api = testApi(world);
    for (let i = 0; i < 30; i++) expect((await api.send("GET", "/people")).status).toBe(200);
    world.env.clock.advance(15_000);
    const limited = await api.send("GET", "/people");
    expect(limited.status).toBe(429);
    expect(limited.json.error.code).toBe("RATE_LIMITED");
    expect(limited.headers["retry-after"]).toBe("45");
    expect(limited.headers["ratelimit"]).toBe("limit=30, remaining=0, reset=45");
    const other = await api.send("POST", "/echo", { body: { n: 1 } });
    expect(other.status).toBe(201);
    expect(other.headers["ratelimit"]).toBe("limit=120, remaining=89, reset=45");
    world.env.clock.advance(45_000);
    expect((await api.send("GET", "/people")).status).toBe(200);
  });
});
