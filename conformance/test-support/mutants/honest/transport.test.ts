import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createSimulator, type Simulator, type SimulatorOptions } from "../../../../src/simulator.js";
import { repetitions } from "../../../../src/test-support/quick.js";
import { conformance } from "../../../run.js";
import { BLIND_MUTANTS } from "../blind/index.js";
import { mutantSimulator } from "../index.js";
import { serveWithTransportChoices, type TransportServer } from "./transport.js";

// An honest server that differs only in transport (latency, Connection: close, chunked bodies): the
// suite over HTTP must not fail it. Spec, What the service does: "a JSON-over-HTTP API".

let served: TransportServer | undefined;

afterEach(async () => {
  await served?.close();
  served = undefined;
});

interface Raw {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  readonly chunks: number;
}

/** One GET with node:http, which shows the framing headers as sent. */
function get(url: string, token: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          chunks: chunks.length,
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("honest transport: latency, Connection: close and chunked bodies", () => {
  it("answers with the simulator's status, headers and JSON body, chunked, closing the connection", async () => {
    const sim = createSimulator({ clock: "manual", seed: 1 });
    served = await serveWithTransportChoices(sim);
    const token = sim.token("demo", "full");
    const res = await get(`${served.url}/demo/v1/me`, token);
    expect(res.status).toBe(200);
    expect(res.headers["transfer-encoding"]).toBe("chunked");
    expect(res.headers["content-length"]).toBeUndefined();
    expect(res.headers["connection"]).toBe("close");
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["ratelimit"]).toMatch(/limit=120/);
    expect(JSON.parse(res.body).data.domain_prefix).toBe("demo");
    const missing = await get(`${served.url}/demo/v1/products/00000000-0000-4000-8000-000000000000`, token);
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error.code).toBe("NOT_FOUND");
  });

  it("passes the whole conformance suite over HTTP", async () => {
    const sim = createSimulator({ clock: "manual", seed: 1 });
    // Every answer late (1 to 3 ms here, so the run stays short), chunked, and closing its connection.
    served = await serveWithTransportChoices(sim, { latencyMs: (n) => 1 + (n % 3) });
    const url = served.url;
    const report = await conformance({
      target: `${url}/demo/v1`,
      token: sim.token("demo", "full"),
      control: `${url}/_sim`,
      seed: 1,
      runs: repetitions(5, 1),
    });
    const failed = report.rules
      .filter((r) => r.status === "failed")
      .map((r) => `${r.id}: expected ${r.counterexample?.expected}; observed ${r.counterexample?.observed}`);
    expect(failed, `rules failed over a server with other transport choices:\n${failed.join("\n")}`).toEqual([]);
  }, 600_000);
});

// Spec, Conventions: "{base_url} = {api_root}/{store_prefix}/v1", and an {api_root} may carry a path
// (a gateway serving the API under /stg/eu). Every check judges the same there as at the host's root.
describe("served under a path before the store prefix, without a control plane", () => {
  const offsets = BLIND_MUTANTS.find((m) => m.name === "blind.customer-timestamps-with-offset")!;
  /** The failed rules of a customers.* run against `make`'s simulator served under `prefix`. */
  const failedUnder = async (prefix: string, make: (o: SimulatorOptions) => Simulator) => {
    const sim = make({ clock: "system", seed: 1, rateLimits: false });
    served = await serveWithTransportChoices(sim, { latencyMs: () => 0, pathPrefix: prefix });
    try {
      const report = await conformance({
        target: `${served.url}/demo/v1`,
        token: sim.token("demo", "full"),
        seed: 1,
        runs: 3,
        rules: "customers.*",
      });
      expect(report.summary.passed + report.summary.failed).toBeGreaterThanOrEqual(5);
      return report.rules.filter((r) => r.status === "failed").map((r) => r.id);
    } finally {
      await served.close();
      served = undefined;
    }
  };

  it("a correct server passes, and one writing +01:00 timestamps fails the same rules as at the root", async () => {
    expect(await failedUnder("/stg/eu", createSimulator)).toEqual([]);
    const atRoot = await failedUnder("", mutantSimulator(offsets));
    expect(atRoot.length).toBeGreaterThan(0);
    expect(await failedUnder("/stg/eu", mutantSimulator(offsets))).toEqual(atRoot);
  }, 300_000);
});
