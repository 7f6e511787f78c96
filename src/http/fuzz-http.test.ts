// Fuzzing over a real socket (spec, Errors: bad input always gets the envelope, never a 500): raw bytes through
// the node:http adapter; the server answers or closes, and keeps serving. `npm run fuzz` runs more cases.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  describeRaw,
  digestDiff,
  envelopeProblems,
  fuzzParameters,
  fuzzTimeout,
  pollution,
  prototypeSnapshot,
  rawExchange,
  rawRequestArb,
  worldDigest,
  type FuzzContext,
} from "../test-support/fuzz.js";
import { listen, type Listening } from "./node.js";
import { protoBefore, harness, expectNoPollution, sharedFuzzContext } from "../test-support/fuzz-harness.js";

let ctx: FuzzContext;
beforeAll(() => {
  ctx = sharedFuzzContext();
});
afterAll(expectNoPollution);

describe("Spec, Errors (bad input always gets the envelope) over HTTP: raw bytes through the node:http adapter", () => {
  const HTTP_RUNS = 25;
  const h = harness();
  let server: Listening;

  beforeAll(async () => {
    server = await listen((req) => h.sim.handle(req), 0, "127.0.0.1");
  });

  afterAll(async () => {
    await server.close();
  });

  const me = () =>
    new Uint8Array(
      Buffer.from(
        `GET /demo/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ctx.tokens.full}\r\nConnection: close\r\n\r\n`,
        "latin1",
      ),
    );

  it(
    "Spec, Errors over HTTP: malformed UTF-8, bodies cut short or over the size cap, header blocks over the limit and broken framing get an HTTP 4xx answer (the envelope, except a header block over the limit), change nothing, and the server serves the next request",
    async () => {
      const kinds = new Set<string>();
      await fc.assert(
        fc.asyncProperty(rawRequestArb(ctx), async (raw) => {
          const before = worldDigest(h.sim);
          const reply = await rawExchange(server.port, raw.bytes, { halfClose: raw.halfClose, timeoutMs: 10_000 });
          const after = worldDigest(h.sim);
          const at = `\n  request: ${describeRaw(raw)}\n  response: ${reply.status} ${JSON.stringify(reply.headers)} ${reply.body.slice(0, 300)}`;
          kinds.add(raw.kind);
          expect(h.logs, `internal errors were logged${at}`).toEqual([]);
          expect(reply.status < 500, `status ${reply.status}${at}`).toBe(true);
          if (raw.refused)
            expect(reply.status >= 400 && reply.status < 500, `status ${reply.status}, not a refusal${at}`).toBe(true);
          // A header block over the server's limit may be answered by Node itself (431, no envelope); anything else is the envelope.
          const exempt = raw.kind === "huge-headers" && reply.status === 431;
          if ((reply.status < 200 || reply.status >= 300) && !exempt) {
            expect(
              envelopeProblems(reply.status, reply.headers["content-type"], reply.body),
              `not the spec's error envelope${at}`,
            ).toEqual([]);
          }
          if (reply.status >= 400)
            expect(digestDiff(before, after), `a refused request changed the world${at}`).toEqual([]);
          const next = await rawExchange(server.port, me());
          expect(next.status, `the next request after ${raw.kind}: ${next.body.slice(0, 200)}`).toBe(200);
        }),
        fuzzParameters(HTTP_RUNS, 0x5eed_0031, 0.05),
      );
      expect(kinds.size).toBeGreaterThan(3);
    },
    fuzzTimeout(HTTP_RUNS, 400, 0.05),
  );

  it("Spec, Errors over HTTP: a JSON body with __proto__ keys is refused with the envelope and Object.prototype stays clean", async () => {
    const body = Buffer.from(
      '{"name":"x","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    );
    const head = `POST /demo/v1/brands HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ctx.tokens.full}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const before = worldDigest(h.sim);
    const reply = await rawExchange(server.port, Buffer.concat([Buffer.from(head, "latin1"), body]));
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      error: {
        code: "VALIDATION_FAILED",
        message: expect.any(String),
        fields: [
          { field: "__proto__", message: "is not a known property" },
          { field: "constructor", message: "is not a known property" },
        ],
      },
    });
    expect(digestDiff(before, worldDigest(h.sim))).toEqual([]);
    expect(pollution()).toEqual([]);
    expect(prototypeSnapshot()).toBe(protoBefore);
  });
});
