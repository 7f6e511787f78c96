import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { makeSim, ORIGIN } from "../test-support/sim.js";
import type { Simulator } from "../simulator.js";

// docs/interfaces.md, Control plane: a /_sim body is read by the API's rules (spec, Errors: 400 VALIDATION_FAILED
// for an invalid body), so a body over the 1 MiB cap, of another content type or not UTF-8 JSON changes nothing.

/** docs/interfaces.md, Control plane: the refusal of a write without a JSON content type, saying what to send. */
const WRITE_TYPE =
  "must be application/json on every /_sim write, an empty body included (curl -H 'Content-Type: application/json'; Python requests: json={})";

const OVER_CAP = `{"seed": 2, "pad": "${"a".repeat(1024 * 1024)}"}`;

async function post(sim: Simulator, path: string, body: string | Uint8Array | undefined, type?: string) {
  const res = await sim.fetch(`${ORIGIN}/_sim${path}`, {
    method: "POST",
    headers: type === undefined ? {} : { "content-type": type },
    body,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

/** A simulator whose clock was moved, so a reset shows (it puts the clock back). */
function movedSim(): Simulator {
  const sim = makeSim();
  sim.clock.advance(3600);
  return sim;
}

/** The API's refusal of a body: one field error, summed up as the API sums it up. */
const refused = (field: string, message: string, summary = `${field}: ${message}`) => ({
  status: 400,
  json: { error: { code: "VALIDATION_FAILED", message: summary, fields: [{ field, message }] } },
});

describe("docs/interfaces.md, Control plane: bodies are read by the API's rules", () => {
  it.each([
    ["a body over the 1 MiB cap", OVER_CAP, "application/json", "body", "must be at most 1048576 bytes"],
    ["a body of another content type", '{"seed": 2}', "text/plain", "Content-Type", WRITE_TYPE],
    ["a body without a content type", '{"seed": 2}', undefined, "Content-Type", WRITE_TYPE],
    ["malformed JSON", '{"seed": 2', "application/json", "body", "is not valid JSON in UTF-8"],
    [
      "invalid UTF-8",
      new Uint8Array([0x7b, 0x22, 0x73, 0x22, 0x3a, 0xff, 0x7d]),
      "application/json",
      "body",
      "is not valid JSON in UTF-8",
    ],
  ])(
    "POST /_sim/reset with %s answers 400 VALIDATION_FAILED and resets nothing",
    async (_name, body, type, field, message) => {
      const sim = movedSim();
      const token = sim.token("demo", "full");
      expect(await post(sim, "/reset", body, type)).toStrictEqual(refused(field, message));
      expect(sim.clock.now()).toBe("2026-01-01T01:00:00.000Z");
      expect(sim.token("demo", "full")).toBe(token);
    },
  );

  it("a body the schema refuses answers as the API's does, naming every field", async () => {
    const sim = movedSim();
    expect(await post(sim, "/reset", '{"seed": 2, "extra": 1}', "application/json")).toStrictEqual(
      refused("extra", "is not a known property", "Invalid request: extra is not a known property."),
    );
    expect(sim.clock.now()).toBe("2026-01-01T01:00:00.000Z");
  });

  it("an empty body still reads as {}: POST /_sim/reset without a body (its type given) resets with the defaults", async () => {
    const sim = movedSim();
    const res = await post(sim, "/reset", undefined, "application/json");
    expect(res.status).toBe(200);
    expect(sim.clock.now()).toBe("2026-01-01T00:00:00.000Z");
  });

  it("a body over the cap is refused on every control route: POST /_sim/clock moves nothing", async () => {
    const sim = makeSim();
    const pad = `{"advance_seconds": 60, "pad": "${"a".repeat(1024 * 1024)}"}`;
    expect(await post(sim, "/clock", pad, "application/json")).toStrictEqual(
      refused("body", "must be at most 1048576 bytes"),
    );
    expect(sim.clock.now()).toBe("2026-01-01T00:00:00.000Z");
  });

  it("over a socket, an oversized POST /_sim/reset answers 400 with Connection: close and resets nothing", async () => {
    const sim = movedSim();
    const server = await sim.listen(0);
    try {
      const reply = await new Promise<{ status: number; connection: string | undefined; body: string }>(
        (resolve, reject) => {
          const req = request(
            `${server.url}/_sim/reset`,
            { method: "POST", headers: { "content-type": "application/json" } },
            (res) => {
              let body = "";
              res.on("data", (chunk: Buffer) => (body += chunk.toString()));
              res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
            },
          );
          req.on("error", reject);
          req.end(OVER_CAP);
        },
      );
      expect(reply.status).toBe(400);
      expect(reply.connection).toBe("close");
      expect(JSON.parse(reply.body)).toStrictEqual(refused("body", "must be at most 1048576 bytes").json);
      expect(sim.clock.now()).toBe("2026-01-01T01:00:00.000Z");
    } finally {
      await sim.close();
    }
  });
});

describe("docs/interfaces.md, Caps: the field-errors cap bounds the control plane's refusals too", () => {
  it("lists at most field-errors field errors, then one entry counting the rest", async () => {
    const sim = makeSim({ caps: { fieldErrors: 2 } });
    const body = JSON.stringify({ name: "k", scopes: [], a: 1, b: 2, c: 3, d: 4 });
    const res = await post(sim, "/stores/demo/keys", body, "application/json");
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("VALIDATION_FAILED");
    expect(res.json.error.fields).toHaveLength(3);
    expect(res.json.error.fields[2]).toEqual({ field: "body", message: "2 more field errors were left out" });
  });
});
