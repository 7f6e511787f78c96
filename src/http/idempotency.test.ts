import { describe, expect, it } from "vitest";
import { IDEMPOTENCY_TTL_MS } from "../engine/idempotency.js";
import { makeWorld, testApi } from "../test-support/world.js";

// Spec, Limits, Idempotency paragraph, exercised through the pipeline with test-only operations.

describe("Spec, Limits: Idempotency", () => {
  it("a retry with the same key and body returns the same status and data with Idempotent-Replayed: true", async () => {
    const api = testApi(makeWorld());
    const first = await api.send("POST", "/echo", { body: { n: 7 }, headers: { "idempotency-key": "k-1" } });
    const again = await api.send("POST", "/echo", { body: { n: 7 }, headers: { "idempotency-key": "k-1" } });
    expect(first.status).toBe(201);
    expect(first.json).toEqual({ data: { n: 7, run: 1 } });
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    expect(again.status).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(api.runs).toEqual([7]);
  });

  it("a different body under the same key answers 422 IDEMPOTENCY_KEY_REUSED and runs nothing", async () => {
    const api = testApi(makeWorld());
    await api.send("POST", "/echo", { body: { n: 1 }, headers: { "idempotency-key": "k" } });
    const reused = await api.send("POST", "/echo", { body: { n: 2 }, headers: { "idempotency-key": "k" } });
    expect(reused.status).toBe(422);
    expect(reused.json.error.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(api.runs).toEqual([1]);
  });

  it("a client error replays the same failure", async () => {
    const api = testApi(makeWorld());
    const first = await api.send("POST", "/echo", { body: { n: -1 }, headers: { "idempotency-key": "neg" } });
    const again = await api.send("POST", "/echo", { body: { n: -1 }, headers: { "idempotency-key": "neg" } });
    expect(first.status).toBe(422);
    expect(first.json.error.code).toBe("UNPROCESSABLE");
    expect(again.status).toBe(422);
    expect(again.body).toBe(first.body);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(api.runs).toEqual([-1]);
  });

  it("a validation failure (400) under a key is replayed too", async () => {
    const api = testApi(makeWorld());
    const first = await api.send("POST", "/echo", { body: { n: "x" }, headers: { "idempotency-key": "bad" } });
    const again = await api.send("POST", "/echo", { body: { n: "x" }, headers: { "idempotency-key": "bad" } });
    expect(first.status).toBe(400);
    expect(first.json.error.fields).toEqual([{ field: "n", message: "must be integer" }]);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toBe(first.body);
  });

  it("a 500 is not remembered: the retry runs again", async () => {
    const api = testApi(makeWorld());
    const first = await api.send("POST", "/echo", { body: { n: 500 }, headers: { "idempotency-key": "boom" } });
    expect(first.status).toBe(500);
    expect(first.json).toEqual({
      error: { code: "INTERNAL", message: "The server failed; retry after a short delay." },
    });
    const again = await api.send("POST", "/echo", { body: { n: 500 }, headers: { "idempotency-key": "boom" } });
    expect(again.status).toBe(500);
    expect(again.headers["idempotent-replayed"]).toBeUndefined();
    expect(api.runs).toEqual([500, 500]);
  });

  it("processing in progress answers 409 IDEMPOTENCY_IN_PROGRESS; once done, the key replays", async () => {
    const api = testApi(makeWorld());
    const pending = api.send("POST", "/slow", { body: { n: 3 }, headers: { "idempotency-key": "slow" } });
    await new Promise((r) => setImmediate(r));
    const during = await api.send("POST", "/slow", { body: { n: 3 }, headers: { "idempotency-key": "slow" } });
    expect(during.status).toBe(409);
    expect(during.json.error.code).toBe("IDEMPOTENCY_IN_PROGRESS");
    api.release();
    const done = await pending;
    expect(done.status).toBe(200);
    const after = await api.send("POST", "/slow", { body: { n: 3 }, headers: { "idempotency-key": "slow" } });
    expect(after.headers["idempotent-replayed"]).toBe("true");
    expect(after.body).toBe(done.body);
    expect(api.runs).toEqual([3]);
  });

  it("keys are remembered per credential: another key's same Idempotency-Key is a new request", async () => {
    const api = testApi(makeWorld());
    await api.send("POST", "/echo", { body: { n: 1 }, headers: { "idempotency-key": "shared" } });
    const other = await api.send("POST", "/echo", {
      key: "catalog:write",
      body: { n: 1 },
      headers: { "idempotency-key": "shared" },
    });
    expect(other.status).toBe(201);
    expect(other.headers["idempotent-replayed"]).toBeUndefined();
    expect(api.runs).toEqual([1, 1]);
  });

  it("records lapse after 24 hours on the simulator's clock", async () => {
    const world = makeWorld();
    const api = testApi(world);
    await api.send("POST", "/echo", { body: { n: 1 }, headers: { "idempotency-key": "day" } });
    world.env.clock.advance(IDEMPOTENCY_TTL_MS - 1000);
    const within = await api.send("POST", "/echo", { body: { n: 1 }, headers: { "idempotency-key": "day" } });
    expect(within.headers["idempotent-replayed"]).toBe("true");
    world.env.clock.advance(1000);
    const lapsed = await api.send("POST", "/echo", { body: { n: 2 }, headers: { "idempotency-key": "day" } });
    expect(lapsed.status).toBe(201);
    expect(lapsed.json).toEqual({ data: { n: 2, run: 2 } });
  });

  it("without a key an optional route runs every time", async () => {
    const api = testApi(makeWorld());
    await api.send("POST", "/echo", { body: { n: 1 } });
    const second = await api.send("POST", "/echo", { body: { n: 1 } });
    expect(second.json).toEqual({ data: { n: 1, run: 2 } });
  });
});

describe("Spec, Errors: a missing Idempotency-Key on a route that requires one answers 400 naming the header", () => {
  it("missing", async () => {
    const api = testApi(makeWorld());
    const res = await api.send("POST", "/required", { body: { n: 1 } });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_FAILED");
    expect(res.json.error.fields).toEqual([{ field: "Idempotency-Key", message: "is required on this route" }]);
    expect(api.runs).toEqual([]);
  });

  it.each([
    ["a space inside", "has space"],
    ["256 characters", "k".repeat(256)],
    ["a control character", "bad\u0001key"],
    ["non-ASCII", "clé"],
  ])("Spec, Limits: a key with %s is refused with 400 on the Idempotency-Key field", async (_name, key) => {
    const api = testApi(makeWorld());
    const res = await api.send("POST", "/required", { body: { n: 1 }, headers: { "idempotency-key": key } });
    expect(res.status).toBe(400);
    expect(res.json.error.fields).toEqual([
      { field: "Idempotency-Key", message: "must be 1 to 255 printable characters without spaces" },
    ]);
    expect(api.runs).toEqual([]);
  });

  it("Spec, Limits: 255 printable characters are a valid key", async () => {
    const api = testApi(makeWorld());
    const res = await api.send("POST", "/required", {
      body: { n: 1 },
      headers: { "idempotency-key": "~".repeat(255) },
    });
    expect(res.status).toBe(200);
  });
});
