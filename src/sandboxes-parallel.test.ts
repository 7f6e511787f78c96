// Sandboxes under parallel test workers (docs/interfaces.md, Sandboxes): one simulator on a socket, 8
// node:worker_threads workers talking to it over HTTP with plain fetch, each in a sandbox of its own on a
// manual clock, 20 repetitions each (3 in the quick loop, src/test-support/quick.ts). Every repetition does
// what one worker's state used to leak into the others': a reset, clock moves that expire an access token
// and an idempotency record, faults, a paused store, 121 requests to reach a 429 and an OAuth code exchange
// (src/test-support/sandbox-worker.mjs). The workers run in beforeAll; each test below asserts 0 failures
// of one rule over all the repetitions.
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "./simulator.js";
import { repetitions } from "./test-support/quick.js";
import { checkedSimulator } from "./test-support/sim.js";

const WORKERS = 8;
const REPETITIONS = repetitions(20, 3);

interface Failure {
  rule: string;
  repetition: number;
  message: string;
}

interface WorkerReport {
  worker: number;
  failures: Failure[];
  requests: number;
  repetitions: number;
}

let sim: Simulator;
let reports: WorkerReport[] = [];
const workers: Worker[] = [];

function runWorker(url: string, worker: number, products: string[]): Promise<WorkerReport> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(new URL("./test-support/sandbox-worker.mjs", import.meta.url), {
      workerData: { url, repetitions: REPETITIONS, worker, products },
    });
    workers.push(thread);
    thread.once("message", (report: WorkerReport) => resolve(report));
    thread.once("error", reject);
    thread.once("exit", (code) => reject(new Error(`worker ${worker} exited with ${code} before reporting`)));
  });
}

beforeAll(async () => {
  sim = checkedSimulator({ seed: 1 });
  const server = await sim.listen(0);
  // The default sandbox has the same seed, so the same product ids as every sandbox made without one.
  const listed = await sim.fetch(`${server.url}/demo/v1/products?limit=2`, {
    headers: { authorization: `Bearer ${sim.token("demo", "full")}` },
  });
  const products = ((await listed.json()) as { data: { id: string }[] }).data.map((p) => p.id);
  reports = await Promise.all(Array.from({ length: WORKERS }, (_, i) => runWorker(server.url, i + 1, products)));
}, 180_000);

afterAll(async () => {
  await Promise.all(workers.map((thread) => thread.terminate()));
  await sim.close();
});

/** Every failure of one rule, named by worker and repetition. */
const failuresOf = (rule: string): string[] =>
  reports.flatMap((report) =>
    report.failures
      .filter((failure) => failure.rule === rule)
      .map((failure) => `worker ${report.worker}, repetition ${failure.repetition}: ${failure.message}`),
  );

describe(`Sandboxes under ${WORKERS} parallel workers over HTTP, ${REPETITIONS} repetitions each, 0 failures`, () => {
  it("every worker ran its repetitions to the end", () => {
    expect(reports.map((r) => [r.worker, r.repetitions])).toEqual(
      Array.from({ length: WORKERS }, (_, i) => [i + 1, REPETITIONS]),
    );
    expect(reports.every((r) => r.requests > REPETITIONS * 121)).toBe(true);
  });

  it("docs/interfaces.md, Sandboxes: POST /_sim/sandboxes answers 201 with the sandbox's own control URL and stores; DELETE answers 204, then its keys answer 401 and its control URL 404", () => {
    expect([...failuresOf("setup"), ...failuresOf("delete")]).toEqual([]);
  });

  it("docs/interfaces.md, Control plane (POST reset under a control_url): a reset brings back its keys, clock, active store, rate-limit window and data, and clears its faults", () => {
    expect(failuresOf("reset")).toEqual([]);
  });

  it("Spec, Endpoints (GET /products): every sandbox of one seed lists the same products; the Date header is the sandbox's clock", () => {
    expect(failuresOf("products")).toEqual([]);
  });

  it("Spec, Authentication 3, 4 and 6: a headless consent under the sandbox's control URL, then POST /oauth/token exchanges the code for the sandbox's store; the code works once", () => {
    expect(failuresOf("oauth")).toEqual([]);
  });

  it("Spec, Authentication 7 and Limits (access token 3600 s): moving the sandbox's clock 3601 s expires its access token (401 UNAUTHORIZED); a refresh gives a working one, the refresh token unchanged", () => {
    expect(failuresOf("token-expiry")).toEqual([]);
  });

  it("Spec, Limits (Idempotency: remembered 24 hours): a replay answers the record with Idempotent-Replayed: true; once the sandbox's clock moves 24 h + 1 s the same request is a new write", () => {
    expect(failuresOf("idempotency")).toEqual([]);
  });

  it("docs/interfaces.md, Control plane (faults): a fault on the sandbox's own path answers its status (500 INTERNAL for 1 time, 503 until cleared), in that sandbox only", () => {
    expect(failuresOf("faults")).toEqual([]);
  });

  it("Spec, Limits (120 requests per credential per minute; a 429 carries Retry-After): 120 requests are served, the 121st answers 429 RATE_LIMITED with Retry-After 60, and 30 s later on the sandbox's clock Retry-After 30", () => {
    expect(failuresOf("rate-limit")).toEqual([]);
  });

  it("Spec, Errors (RETAILER_PAUSED 402): a paused store answers 402 RETAILER_PAUSED, and 200 once active again", () => {
    expect(failuresOf("paused")).toEqual([]);
  });

  it("no failure of any kind in any worker", () => {
    expect(reports.flatMap((r) => r.failures)).toEqual([]);
  });
});
