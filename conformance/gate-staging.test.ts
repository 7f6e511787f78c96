import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, junitVerdict, runCli, tempDirs } from "../src/test-support/conformance.js";
import {
  type BrokenVariant,
  startStagingStandIn,
  type StagingStandIn,
} from "./test-support/mutants/staging/stand-in.js";

// docs/conformance.md, Running it as a CI gate: the built CLI against a staging stand-in that behaves
// like real infrastructure (the API under /stg/eu, 30 to 150 ms of latency, a load balancer closing
// GETs without an answer, another team writing to the store every second, the back office's
// credentials and no control plane). A correct server passes twice in a row and is left as it was; a
// broken one is caught with its real cause as the first group, and still left as it was.
//
// A selection of rules keeps each run near a minute; the load balancer drops one GET in 40 (not one in
// 300) so that every run meets drops.

const dirs = tempDirs("rsconf-gate-");
beforeAll(() => ensureBuilt(), 120_000);
afterAll(() => dirs.removeAll());

const RULES = "envelope.*,pagination.*,customers.*,idempotency.replay,catalog.create-minimal,catalog.sku-exact-lookup";

interface GateRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly report: any;
  readonly junit: ReturnType<typeof junitVerdict>;
}

async function gate(standIn: StagingStandIn, rules: string): Promise<GateRun> {
  const out = dirs.out();
  const run = await runCli([...standIn.args, "--rules", rules, "--runs", "5", "--out", out], 600_000);
  return {
    ...run,
    report: JSON.parse(readFileSync(join(out, "report.json"), "utf8")),
    junit: junitVerdict(readFileSync(join(out, "junit.xml"), "utf8")),
  };
}

describe("A correct server on the staging stand-in", () => {
  it("twice in a row: exit 0, no failure, drops absorbed, the store as it was and nothing left behind", async () => {
    const standIn = await startStagingStandIn({ seed: 3, dropEvery: 40 });
    try {
      const before = standIn.storeDigest();
      for (const time of [1, 2]) {
        const run = await gate(standIn, RULES);
        expect(run.code, `run ${time}: ${run.stdout}\n${run.stderr.slice(-3000)}`).toBe(0);
        const notHeld = run.report.rules.filter(
          (r: { status: string }) => r.status === "failed" || r.status === "flaky",
        );
        expect(
          notHeld.map((r: any) => `${r.id}: ${r.counterexample?.expected} / ${r.counterexample?.observed}`),
        ).toEqual([]);
        expect(run.report.summary).toMatchObject({ failed: 0, flaky: 0 });
        expect(run.report.api_root).toBe("/stg/eu");
        expect(run.report.left_behind).toBeUndefined();
        expect(run.junit).toMatchObject({ failures: 0, errors: 0, passed: true });
        expect(standIn.leftovers()).toEqual([]);
        expect(standIn.storeDigest()).toBe(before);
      }
      const stats = standIn.stats();
      expect(stats.dropped).toBeGreaterThan(0);
      expect(stats.writerSucceeded).toBeGreaterThan(10);
    } finally {
      await standIn.stop();
    }
  }, 1_200_000);
});

describe("Broken servers on the staging stand-in: each caught with its real cause first, nothing left behind", () => {
  const cases: [BrokenVariant, string, string][] = [
    [
      "offset-timestamps",
      "customers.*,envelope.timestamps-utc",
      'ambient.schema: a field must match format "utc-date-time"',
    ],
    ["replay-header-dropped", "idempotency.*", "ambient.model: the Idempotent-Replayed header"],
    [
      "writes-500",
      "catalog.create-minimal,catalog.product-fields,catalog.sku-conflict,catalog.stale-version,catalog.brand-delete,catalog.tag-delete,catalog.variants",
      "a server fault: 500",
    ],
  ];
  it.concurrent.each(cases)(
    "%s: exit 1 and the first group's cause is the defect",
    async (broken, rules, cause) => {
      // One write in 30 answers 500 (one in 100 on a whole run): enough to meet some in a selection.
      const standIn = await startStagingStandIn({ seed: 5, dropEvery: 40, broken, failEvery: 30 });
      try {
        const before = standIn.storeDigest();
        const run = await gate(standIn, rules);
        expect(run.code, `${run.stdout}\n${run.stderr.slice(-3000)}`).toBe(1);
        expect(run.report.failure_groups[0].cause).toBe(cause);
        expect(run.report.left_behind).toBeUndefined();
        expect(run.junit.passed).toBe(false);
        expect(standIn.leftovers()).toEqual([]);
        expect(standIn.storeDigest()).toBe(before);
      } finally {
        await standIn.stop();
      }
    },
    1_200_000,
  );
});

describe("A run that could not judge never reads as passed", () => {
  it("a load balancer answering 502 with an HTML page to everything: exit 2, could not run, a JUnit in error", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(502, { "content-type": "text/html" });
      res.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const out = dirs.out();
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stg/eu/acme/v1`;
      const run = await runCli(["--target", base, "--out", out], 60_000, undefined, { RETAIL_TOKEN: "rsk_any" });
      expect(run.code).toBe(2);
      expect(run.stdout).toMatch(/^COULD NOT RUN: GET .*\/me answered 502 with an HTML page/);
      const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8"));
      expect(report.could_not_run).toBe(
        `GET ${base}/me answered 502 with an HTML page: the API is not there to judge (an outage, or a gateway in front of it)`,
      );
      expect(junitVerdict(readFileSync(join(out, "junit.xml"), "utf8"))).toMatchObject({ errors: 1, passed: false });
    } finally {
      server.close();
    }
  }, 90_000);
});
