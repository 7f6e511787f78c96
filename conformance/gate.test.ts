import { describe, expect, it } from "vitest";
import { createSimulator, type Simulator } from "../src/simulator.js";
import { junitVerdict } from "../src/test-support/conformance.js";
import { resolveCredentials } from "./credentials.js";
import { toJunit } from "./report/junit.js";
import { toMarkdown } from "./report/markdown.js";
import { CATALOG, selectRules } from "./rules/index.js";
import { runConformance } from "./runner.js";
import { inProcessTarget, type Target, type TargetRequest, type TargetResponse } from "./target.js";
import { exitCode, headline } from "./verdict.js";
import type { Report } from "./types.js";

// The suite as a release gate (docs/conformance.md, Running it as a CI gate): a lost answer is not the
// server's failure, a server fault is, a run that could not judge never reads green, and nothing the
// run made is left behind whatever the server answered. Each target here is the simulator behind a
// transport that misbehaves in one way, marked live so the run treats it as a deployment.

type Send = (req: TargetRequest, sim: Simulator, n: number) => Promise<TargetResponse>;

function setUp(misbehave?: Send): { sim: Simulator; target: Target } {
  const sim = createSimulator({ clock: "manual", seed: 7 });
  const honest = inProcessTarget(sim, "a deployment");
  let n = 0;
  const target: Target = {
    ...honest,
    live: true,
    send: (req) => (misbehave ? misbehave(req, sim, n++) : honest.send(req)),
  };
  return { sim, target };
}

const run = (
  target: Target,
  sim: Simulator,
  rules: string,
  extra: Partial<Parameters<typeof runConformance>[0]> = {},
) =>
  runConformance({
    target,
    token: sim.token("demo", "full"),
    rules: selectRules(rules, CATALOG),
    catalogSize: CATALOG.length,
    seed: 1,
    runs: 3,
    version: "test",
    sleep: async () => {},
    ...extra,
  });

/** Rows of the demo store whose name carries a run's tag and are not deleted. */
async function tagged(sim: Simulator): Promise<string[]> {
  const token = sim.token("demo", "full");
  const out: string[] = [];
  for (const list of ["products", "customers"]) {
    let cursor: string | null = "";
    while (cursor !== null) {
      const res = await sim.fetch(
        `http://sim/demo/v1/${list}?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      const page = (await res.json()) as { data: Record<string, unknown>[]; next_cursor: string | null };
      for (const row of page.data)
        if (JSON.stringify([row.name, row.sku, row.first_name, row.email]).includes("rsconf-"))
          out.push(`${list}/${row.id}`);
      cursor = page.data.length === 0 ? null : page.next_cursor;
    }
  }
  return out;
}

const isGet = (req: TargetRequest) => req.method === "GET" && !req.url.includes("/_sim");
const lost = () => Promise.reject(Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }));

describe("Transport faults are not spec failures", () => {
  it("a read whose connection is dropped is sent again, counted, and the rule passes", async () => {
    let reads = 0;
    const { sim, target } = setUp((req, s) => {
      if (isGet(req) && ++reads % 7 === 3) return lost();
      return inProcessTarget(s, "").send(req);
    });
    const report = await run(target, sim, "catalog.create-minimal,pagination.*");
    expect(report.summary).toMatchObject({ failed: 0, flaky: 0 });
    expect(report.transport?.retried).toBeGreaterThan(0);
    expect(report.transport).toMatchObject({ unanswered: 0, rerun: 0, server_errors: 0 });
    expect(exitCode(report)).toBe(0);
    expect(await tagged(sim)).toEqual([]);
  });

  it("a create without a key whose answer is lost is not sent again; the rule runs again and passes, and the row it made is swept by the run's tag", async () => {
    let dropped = 0;
    const { sim, target } = setUp(async (req, s) => {
      const answer = await inProcessTarget(s, "").send(req);
      // The server made the row; the answer never arrives.
      if (
        req.method === "POST" &&
        /\/demo\/v1\/products$/.test(req.url) &&
        !req.headers["idempotency-key"] &&
        dropped++ === 0
      )
        return lost();
      return answer;
    });
    const report = await run(target, sim, "catalog.create-minimal");
    expect(report.rules[0]).toMatchObject({
      status: "passed",
      transport: "passed when run again: first no answer: the connection was closed without one",
    });
    expect(report.transport).toMatchObject({ unanswered: 1, rerun: 1 });
    expect(report.left_behind).toBeUndefined();
    expect(await tagged(sim)).toEqual([]);
  });

  it("a request lost every time fails the rule, with the lost answer as its cause", async () => {
    const { sim, target } = setUp((req, s) =>
      req.method === "GET" && req.url.endsWith("/demo/v1/outlets") ? lost() : inProcessTarget(s, "").send(req),
    );
    const report = await run(target, sim, "envelope.success-data");
    expect(report.rules[0]).toMatchObject({
      status: "failed",
      cause: "no answer: the connection was closed without one",
      reproducible: true,
    });
    // Sent three times a run (twice again after a dropped connection), in two runs of the rule.
    expect(report.transport).toMatchObject({ retried: 4, unanswered: 2, rerun: 1 });
    expect(exitCode(report)).toBe(1);
  });
});

describe("Server faults and gateways", () => {
  it("one write answering 500 is a failure named by its cause, never flaky though the rule then passes", async () => {
    let writes = 0;
    const { sim, target } = setUp(async (req, s) => {
      if (req.method === "POST" && /\/demo\/v1\/products$/.test(req.url) && writes++ === 1)
        return {
          status: 500,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ error: { code: "INTERNAL", message: "boom" } }),
        };
      return inProcessTarget(s, "").send(req);
    });
    const report = await run(target, sim, "catalog.create-minimal");
    expect(report.rules[0]).toMatchObject({ status: "failed", ambient: "ambient.server-error", reproducible: false });
    expect(report.failure_groups).toEqual([{ cause: "a server fault: 500", rules: ["catalog.create-minimal"] }]);
    expect(exitCode(report)).toBe(1);
  });

  it("a gateway answering 502 with an HTML page to everything: could not run, exit 2, a JUnit no CI tool reads as passed", async () => {
    const { sim, target } = setUp(async () => ({
      status: 502,
      headers: { "content-type": "text/html" },
      body: "<html><body>502 Bad Gateway</body></html>",
    }));
    const report = await run(target, sim, "catalog.*");
    expect(report.could_not_run).toBe(
      "GET http://retail-sim.in-process/demo/v1/me answered 502 with an HTML page: the API is not there to judge (an outage, or a gateway in front of it)",
    );
    expect(report.rules).toEqual([]);
    expect(exitCode(report)).toBe(2);
    expect(headline(report)).toBe("COULD NOT RUN");
    expect(junitVerdict(toJunit(report))).toMatchObject({ errors: 1, passed: false });
  });

  it("a server that goes down during the run: an outage, the run stops and says it could not run", async () => {
    let n = 0;
    const { sim, target } = setUp(async (req, s) => {
      if (!req.url.includes("/_sim") && ++n > 40)
        return { status: 503, headers: { "content-type": "application/json" }, body: "{}" };
      return inProcessTarget(s, "").send(req);
    });
    const report = await run(target, sim, "catalog.*");
    expect(report.could_not_run).toMatch(/^an outage: \d+ of \d+ requests had a server fault \(5xx\) or no answer$/);
    expect(report.stopped_by).toBe("an outage");
    expect(report.rules.some((r) => r.reason?.startsWith("not run: the run was interrupted (an outage)"))).toBe(true);
    expect(exitCode(report)).toBe(2);
  });
});

describe("Nothing left behind", () => {
  it("rows whose create answer fails a check are deleted all the same; a delete that keeps failing is listed in every report", async () => {
    const { sim, target } = setUp(async (req, s) => {
      const answer = await inProcessTarget(s, "").send(req);
      // The replay header dropped (spec, Limits: Idempotent-Replayed: true on a replay).
      const { "idempotent-replayed": _gone, ...headers } = answer.headers;
      // Customers cannot be deleted here.
      if (req.method === "DELETE" && req.url.includes("/customers/"))
        return {
          status: 500,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ error: { code: "INTERNAL", message: "x" } }),
        };
      return { ...answer, headers };
    });
    const report = await run(target, sim, "idempotency.replay,customers.create-fields");
    expect(report.rules.find((r) => r.id === "idempotency.replay")?.status).toBe("failed");
    const left = report.left_behind ?? [];
    expect(left.length).toBeGreaterThan(0);
    for (const l of left)
      expect(l).toMatchObject({ path: expect.stringMatching(/^\/customers\//), status: "DELETE answered 500" });
    expect((await tagged(sim)).every((row) => row.startsWith("customers/"))).toBe(true);
    expect(toMarkdown(report)).toContain(
      `Left behind (delete it by hand): \`${left[0]!.path}\` (DELETE answered 500).`,
    );
    expect(toJunit(report)).toContain(`Left behind (delete it by hand): \`${left[0]!.path}\``);
  });
});

describe("Stops", () => {
  const failing = (): ReturnType<typeof setUp> =>
    setUp(async (req, s) => {
      const answer = await inProcessTarget(s, "").send(req);
      return { ...answer, headers: { ...answer.headers, "content-type": "text/plain" } };
    });

  it("--max-failures: the run stops after that many failed rules, names the stop, and the rest are not run", async () => {
    const { sim, target } = failing();
    const report = await run(target, sim, "catalog.create-minimal,catalog.product-fields,catalog.sku-conflict", {
      maxFailures: 1,
    });
    expect(report.rules.map((r) => r.status)).toEqual(["failed", "skipped", "skipped"]);
    expect(report.rules[1]?.reason).toBe("not run: the run was interrupted (--max-failures 1) before this rule");
    expect(report.stopped_by).toBe("--max-failures 1");
    expect(exitCode(report)).toBe(1);
  });

  it("--max-time: no rule starts after the budget; the report is titled interrupted, never passed", async () => {
    const { sim, target } = setUp();
    // The clock passes the budget while the first rule runs.
    let t = 0;
    const report = await run(target, sim, "catalog.create-minimal,catalog.product-fields", {
      maxTimeMs: 2_000,
      now: () => t,
      onRule: () => {
        t = 2_500;
      },
    });
    expect(report.stopped_by).toBe("--max-time 2 s");
    expect(report.rules.map((r) => r.status)).toEqual(["passed", "skipped"]);
    expect(headline(report)).toBe("INTERRUPTED (--max-time 2 s)");
    expect(exitCode(report)).toBe(2);
    expect(junitVerdict(toJunit(report)).passed).toBe(false);
  });
});

describe("JUnit marks flaky rules as CI tools read them", () => {
  const report = (policy: "warn" | "fail"): Report => ({
    tool: { name: "retail-sim conformance", version: "t" },
    target: "http://x/demo/v1",
    seed: 1,
    runs: 1,
    started_at: "2026-01-01T00:00:00.000Z",
    duration_ms: 1,
    summary: { passed: 0, failed: 0, flaky: 1, skipped: 0, covered: 1, catalog: 1, verdict: "1 flaky." },
    flaky_policy: policy,
    pacing: { waited_ms: 0, unrequested_429: 0 },
    not_checked: [],
    failure_groups: [],
    rules: [
      {
        id: "a.b",
        area: "Catalog",
        title: "t",
        status: "flaky",
        spec_ref: "s",
        spec_quote: "q",
        reproducible: false,
        duration_ms: 1,
        requests: 1,
        counterexample: { expected: "e", observed: "o", seed: 1, requests: [], curl: [] },
      },
    ],
  });

  it("--flaky warn: a passing test case with <flakyFailure> and a flaky property (Surefire's form); exit 0", () => {
    const xml = toJunit(report("warn"));
    expect(xml).toContain('<flakyFailure message="expected e; observed o" type="flaky">');
    expect(xml).toContain('<property name="flaky" value="true"/>');
    expect(junitVerdict(xml)).toMatchObject({ failures: 0, errors: 0, passed: true });
    expect(exitCode(report("warn"))).toBe(0);
    expect(headline(report("warn"))).toBe("PASSED, WITH FLAKY RULES");
  });

  it("--flaky fail: a <failure>; exit 1", () => {
    const xml = toJunit(report("fail"));
    expect(xml).toContain('<failure message="flaky (--flaky fail): expected e; observed o" type="flaky">');
    expect(junitVerdict(xml)).toMatchObject({ failures: 1, passed: false });
    expect(exitCode(report("fail"))).toBe(1);
  });
});

describe("Credentials from the environment (the names the reproduction scripts use)", () => {
  const env = {
    RETAIL_TOKEN: "rsk_main",
    RETAIL_TOKEN_2: "rsk_two",
    RETAIL_TOKEN_3: "rsk_three",
    RETAIL_KEY_1: "rsk_read",
    RETAIL_OTHER_STORE_TOKEN: "rsk_other",
    RETAIL_REVOKED_TOKEN: "rsk_revoked",
    RETAIL_OAUTH_CLIENT_ID: "client-1",
    RETAIL_OAUTH_CLIENT_SECRET: "s3cret",
  };

  it("an option without its secret, or left out, takes it from its variable", () => {
    expect(resolveCredentials({ key: ["catalog:read"], otherStoreToken: "other" }, env)).toEqual({
      token: "rsk_main",
      credentials: {
        keys: [{ token: "rsk_read", scopes: ["catalog:read"] }],
        extra: ["rsk_two", "rsk_three"],
        otherStore: "other=rsk_other",
        revoked: "rsk_revoked",
        oauthClient: { client_id: "client-1", client_secret: "s3cret" },
      },
    });
  });

  it("the command line wins; a missing variable is an error that never echoes the value given", () => {
    expect(resolveCredentials({ token: "rsk_cli", extraToken: [] }, env)).toMatchObject({
      token: "rsk_cli",
      credentials: { extra: [] },
    });
    expect(() => resolveCredentials({ otherStoreToken: "rsk_secretvalue" }, {})).toThrow(
      "--other-store-token takes PREFIX=TOKEN, the store's prefix and a key of it (or the first part alone, with RETAIL_OTHER_STORE_TOKEN set)",
    );
    expect(() => resolveCredentials({ key: ["none"] }, {})).toThrow(/with RETAIL_KEY_1 set/);
  });
});
