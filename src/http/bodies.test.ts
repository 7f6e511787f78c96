import { describe, expect, it } from "vitest";
import { makeWorld, testApi } from "../test-support/world.js";

// Bad input always gets the spec's envelope (spec, Errors; VALIDATION_FAILED for the body), never a 500.

describe("Spec, Errors: VALIDATION_FAILED for an invalid body", () => {
  const cases: [string, Parameters<ReturnType<typeof testApi>["send"]>[2], string, string][] = [
    ["malformed JSON", { raw: '{"n": 1' }, "body", "is not valid JSON in UTF-8"],
    [
      "invalid UTF-8",
      { raw: new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0xff, 0x7d]) },
      "body",
      "is not valid JSON in UTF-8",
    ],
    [
      "a wrong content type",
      { raw: '{"n":1}', headers: { "content-type": "text/plain" } },
      "Content-Type",
      "must be application/json",
    ],
    ["no body", {}, "body", "a JSON body is required"],
    ["a body over the size limit", { raw: "{}", tooLarge: true }, "body", "must be at most 1048576 bytes"],
    ["a JSON array instead of an object", { body: [1] }, "body", "must be object"],
    ["a wrong type", { body: { n: "1" } }, "n", "must be integer"],
    ["an unknown property", { body: { n: 1, extra: true } }, "extra", "is not a known property"],
    [
      "an unknown nested property, named with dots",
      { body: { n: 1, nested: { x: "a", y: 1 } } },
      "nested.y",
      "is not a known property",
    ],
    ["a missing required property", { body: {} }, "n", "is required"],
    ["a __proto__ key", { raw: '{"n":1,"__proto__":{"polluted":true}}' }, "__proto__", "is not a known property"],
  ];

  it.each(cases)("%s answers 400 naming the field", async (_name, options, field, message) => {
    const api = testApi(makeWorld());
    const res = await api.send("POST", "/echo", options);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_FAILED");
    expect(res.json.error.fields).toEqual([{ field, message }]);
    expect(api.runs).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("a content type with a charset parameter is JSON", async () => {
    const api = testApi(makeWorld());
    const res = await api.send("POST", "/echo", {
      raw: '{"n":4}',
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(res.status).toBe(201);
  });
});

describe("Spec, Errors: INTERNAL (500) for a server fault", () => {
  it("an unexpected throw answers the INTERNAL envelope and the next request is served", async () => {
    const api = testApi(makeWorld());
    const failed = await api.send("POST", "/echo", { body: { n: 500 } });
    expect(failed.status).toBe(500);
    expect(failed.json).toEqual({
      error: { code: "INTERNAL", message: "The server failed; retry after a short delay." },
    });
    const next = await api.send("POST", "/echo", { body: { n: 1 } });
    expect(next.status).toBe(201);
  });
});

describe("Spec, Endpoints: deletes return 204 with no body; Errors: non-UUID id is NOT_FOUND", () => {
  it("204 has no body", async () => {
    const api = testApi(makeWorld());
    const res = await api.send("DELETE", "/things/3f2b6c1e-1d2a-4c3b-9e8f-0a1b2c3d4e5f");
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it.each(["not-a-uuid", "3f2b6c1e1d2a4c3b9e8f0a1b2c3d4e5f", "3f2b6c1e-1d2a-4c3b-9e8f-0a1b2c3d4e5"])(
    "id %s answers 404 NOT_FOUND",
    async (id) => {
      const api = testApi(makeWorld());
      const res = await api.send("DELETE", `/things/${id}`);
      expect(res.status).toBe(404);
      expect(res.json.error.code).toBe("NOT_FOUND");
    },
  );
});
