import { describe, expect, it } from "vitest";
import { createSimulator, type Simulator } from "../src/simulator.js";
import { parseKeyOption, type Credentials } from "./credentials.js";
import { IdempotencyMemory } from "./ambient/replay.js";
import { RuleContext } from "./context.js";
import { Pacer } from "./pacer.js";
import { Patience } from "./patience.js";
import { CATALOG, selectRules } from "./rules/index.js";
import { consentByPage, readForms } from "./rules/support/sign-in.js";
import { runConformance } from "./runner.js";
import type { Target } from "./target.js";
import type { Report, RuleInfo } from "./types.js";

// --patient MINUTES (docs/conformance.md, Staging): without a control plane, the rules whose clock moves
// by minutes wait in real time instead, within a budget for the whole run; the rest are skipped, saying
// why. Here the "real time" is a fake sleep that moves the in-process simulator's manual clock, so a
// rule that waits ten minutes runs in milliseconds, and the simulator is reached without its control
// plane (the test reads its users and keys through the library, as a QA team reads the back office).

const API_ROOT = "http://retail-sim.in-process";

/** The in-process simulator seen without a control plane, counting what reaches /_sim (nothing should). */
function noControl(sim: Simulator): Target & { controlCalls: number } {
  const target = {
    label: "in-process simulator without a control plane",
    baseUrl: `${API_ROOT}/demo/v1`,
    live: false,
    controlCalls: 0,
    async send(req: { method: string; url: string; headers: Record<string, string>; body?: string }) {
      if (new URL(req.url).pathname.startsWith("/_sim")) target.controlCalls += 1;
      const res = await sim.fetch(req.url, { method: req.method, headers: req.headers, body: req.body });
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => {
        headers[k] = v;
      });
      return { status: res.status, headers, body: await res.text() };
    },
  };
  return target;
}

/** Time that passes only when the suite sleeps, moving the simulator's clock with it. */
function fakeTime(sim: Simulator) {
  let now = Date.parse("2026-01-01T00:00:00Z");
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleeps,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
      sim.clock.advance(ms / 1000);
    },
  };
}

function staging(sim: Simulator, password?: string): Credentials {
  const c = sim.credentials(API_ROOT);
  const store = c.stores.find((s) => s.prefix === "demo");
  const key = (name: string) => store?.keys.find((k) => k.name === name)?.token as string;
  const admin = c.users.find((u) => u.store_prefix === "demo" && u.role === "admin");
  const client = c.oauth_clients.find((x) => x.redirect_uris.length > 0);
  if (!admin || !client) throw new Error("the demo fixture has no admin user or no OAuth client");
  return {
    keys: ["none", "customers:read", "customers:write", "catalog:write"].map((n) => parseKeyOption(`${n}=${key(n)}`)),
    extra: [],
    oauthClient: {
      client_id: client.client_id,
      client_secret: client.client_secret,
      redirect_uri: client.redirect_uris[0] as string,
    },
    oauthUser: { email: admin.email, password: password ?? admin.password },
  };
}

async function run(rules: string, options: { patient?: number; password?: string; control?: boolean } = {}) {
  const sim = createSimulator({ clock: "manual", seed: 1 });
  const target = noControl(sim);
  const time = fakeTime(sim);
  const report = await runConformance({
    target,
    token: sim.token("demo", "full"),
    rules: selectRules(rules),
    catalogSize: CATALOG.length,
    seed: 1,
    runs: 2,
    version: "test",
    credentials: staging(sim, options.password),
    now: time.now,
    sleep: time.sleep,
    ...(options.patient !== undefined ? { patientMinutes: options.patient } : {}),
  });
  return { report, sleeps: time.sleeps, controlCalls: target.controlCalls, sim };
}

const statusOf = (report: Report) => Object.fromEntries(report.rules.map((r) => [r.id, r.status]));
const failures = (report: Report) =>
  report.rules
    .filter((r) => r.status !== "passed")
    .map((r) => `${r.id}: ${r.reason ?? `${r.counterexample?.expected} / ${r.counterexample?.observed}`}`);

describe("--patient: rules whose clock moves wait in real time without a control plane", () => {
  it("oauth.code-expiry waits the code's ten minutes with the run's sleep instead of moving the clock", async () => {
    const { report, sleeps, controlCalls } = await run("oauth.code-expiry", { patient: 20 });
    expect(failures(report)).toEqual([]);
    expect(sleeps).toEqual([601_000]);
    expect(controlCalls).toBe(0);
    expect(report.pacing.waited_ms).toBe(601_000);
  });

  it("the rate-limit windows of a minute and of five are checked by waiting, a given key's window waited out first", async () => {
    const rules = "limits.general-429,limits.customers-429,limits.failed-auth-429";
    const { report, sleeps, controlCalls } = await run(rules, { patient: 30 });
    expect(failures(report)).toEqual([]);
    expect(controlCalls).toBe(0);
    // Every wait is a Retry-After or a window, none longer than the five minutes of the failure window.
    expect(sleeps.length).toBeGreaterThanOrEqual(4);
    expect(Math.max(...sleeps)).toBeLessThanOrEqual(300_000);
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(
      CATALOG.filter((r) => rules.includes(r.id)).reduce((s, r) => s + (r.needs?.waits?.seconds ?? 0) * 1000, 0),
    );
  });

  it("with budget enough, every rule that can wait runs and holds, and no wait is longer than the rule declared", async () => {
    const waiting = CATALOG.filter((r) => r.needs?.waits).map((r) => r.id);
    expect(waiting.length).toBe(7);
    const { report, sleeps, controlCalls } = await run(waiting.join(","), { patient: 180 });
    expect(failures(report)).toEqual([]);
    expect(controlCalls).toBe(0);
    const declared = CATALOG.reduce((s, r) => s + (r.needs?.waits?.seconds ?? 0), 0) * 1000;
    expect(sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(declared);
  });

  it("a rule whose waits do not fit what is left of the budget is skipped, saying so, and waits nothing", async () => {
    const { report, sleeps } = await run("oauth.code-expiry,oauth.token-expiry", { patient: 20 });
    expect(statusOf(report)).toEqual({ "oauth.code-expiry": "passed", "oauth.token-expiry": "skipped" });
    const skipped = report.rules.find((r) => r.id === "oauth.token-expiry");
    expect(skipped?.reason).toContain("waits 60 min in real time (an access token's 1-hour lifetime)");
    expect(skipped?.reason).toContain("does not fit what is left of the --patient budget");
    expect(skipped?.unlock).toBe("a longer --patient");
    expect(sleeps).toEqual([601_000]);
    expect(report.not_checked).toContainEqual({ unlock: "needs a longer --patient", rules: ["oauth.token-expiry"] });
  });

  it("without --patient they are skipped naming it; moves of days still need the control plane", async () => {
    const { report, sleeps } = await run("oauth.code-expiry,idempotency.lapse-24h");
    expect(sleeps).toEqual([]);
    const by = Object.fromEntries(report.rules.map((r) => [r.id, r]));
    expect(by["oauth.code-expiry"]?.unlock).toBe("--control or --patient");
    expect(by["oauth.code-expiry"]?.reason).toContain("--patient MINUTES waits that long in real time");
    expect(by["idempotency.lapse-24h"]?.unlock).toBe("--control");
  });

  it("a stop during a wait ends it at once: the rule is reported as interrupted", async () => {
    const sim = createSimulator({ clock: "manual", seed: 1 });
    let release = () => {};
    const stop = { requested: false, stopped: new Promise<void>((r) => (release = r)) };
    const report = await runConformance({
      target: noControl(sim),
      token: sim.token("demo", "full"),
      rules: selectRules("oauth.code-expiry"),
      catalogSize: CATALOG.length,
      seed: 1,
      runs: 2,
      version: "test",
      credentials: staging(sim),
      patientMinutes: 20,
      stop,
      // A sleep that never ends by itself: only the stop ends the wait.
      sleep: () => new Promise<void>(() => {}),
      onWait: () => {
        stop.requested = true;
        release();
      },
    });
    expect(report.rules[0]?.status).toBe("skipped");
    expect(report.rules[0]?.reason).toContain("interrupted");
  });
});

describe("--patient's plan: each of the spec's time limits once before any twice, shortest first", () => {
  const rule = (id: string, seconds: number, limit: string): RuleInfo => ({
    id,
    area: "Limits",
    title: id,
    spec: { section: "", quote: "" },
    cost: 0,
    needs: { clock: true, waits: { seconds, for: limit } },
  });
  const rules = [
    rule("a.minute-long", 181, "minute"),
    rule("a.minute-short", 121, "minute"),
    rule("a.five", 300, "five"),
    rule("a.code", 601, "code"),
    rule("a.token", 3601, "token"),
  ];
  const plan = (minutes: number, from = rules[0] as RuleInfo) =>
    new Patience({
      budgetMs: minutes * 60_000,
      started: 0,
      now: () => 0,
      rules,
      plannedAs: () => "waits",
      perSecond: Number.POSITIVE_INFINITY,
      pacer: new Pacer({ sleep: async () => {}, now: () => 0 }),
      stop: { requested: false },
    }).plan(from);

  it("a budget of 20 minutes checks a minute window, a five-minute window and the code's lifetime", () => {
    expect([...plan(20)].sort()).toEqual(["a.code", "a.five", "a.minute-short"]);
  });

  it("a budget of 25 minutes adds the second minute rule; a long one takes the token's hour too", () => {
    expect([...plan(25)].sort()).toEqual(["a.code", "a.five", "a.minute-long", "a.minute-short"]);
    expect(plan(90).size).toBe(5);
  });
});

describe("the consent screen, headless (--oauth-user)", () => {
  it("reads the sign-in and consent forms of the simulator's page", async () => {
    const sim = createSimulator({ clock: "manual", seed: 1 });
    const client = sim.credentials(API_ROOT).oauth_clients[0];
    const url = `${API_ROOT}/oauth/authorize?response_type=code&client_id=${client?.client_id}&redirect_uri=${encodeURIComponent(client?.redirect_uris[0] as string)}&scope=catalog%3Aread&state=s1`;
    const page = await (await sim.fetch(url)).text();
    const [form] = readForms(page);
    expect(form?.method).toBe("post");
    expect(form?.action).toBe("/oauth/authorize");
    expect(form?.fields.map((f) => [f.name, f.type])).toContainEqual(["password", "password"]);
    expect(form?.fields.map((f) => [f.name, f.type])).toContainEqual(["email", "email"]);
    expect(form?.fields.find((f) => f.name === "state")?.value).toBe("s1");
  });

  it("signs in and allows: the redirect carries a code and the state", async () => {
    const sim = createSimulator({ clock: "manual", seed: 1 });
    const c = staging(sim);
    const ctx = contextFor(sim, c);
    const to = await consentByPage(ctx, c.oauthUser as NonNullable<Credentials["oauthUser"]>, {
      apiRoot: API_ROOT,
      clientId: c.oauthClient?.client_id as string,
      redirectUri: c.oauthClient?.redirect_uri as string,
      scope: "catalog:read",
      state: "st-1",
      decision: "allow",
    });
    const params = new URL(to).searchParams;
    expect(to.startsWith(c.oauthClient?.redirect_uri as string)).toBe(true);
    expect(params.get("state")).toBe("st-1");
    expect(params.get("code")).toMatch(/.{8,}/);
  });

  it("the OAuth flow's rules run from --oauth-client and --oauth-user; a wrong password skips them naming --oauth-user and stays out of the report", async () => {
    const rules = "oauth.code-exchange,oauth.cancel-access-denied,oauth.code-once,oauth.pkce,oauth.refresh-no-rotate";
    const ok = await run(rules);
    expect(failures(ok.report)).toEqual([]);
    expect(ok.controlCalls).toBe(0);
    const wrong = "wrong-Passw0rd:with%colons";
    const refused = await run("oauth.code-exchange", { password: wrong });
    expect(refused.report.rules[0]?.status).toBe("skipped");
    expect(refused.report.rules[0]?.unlock).toBe("--oauth-user");
    expect(JSON.stringify(refused.report)).not.toContain(wrong);
  });
});

function contextFor(sim: Simulator, credentials: Credentials): RuleContext {
  const target = noControl(sim);
  const now = () => Date.now();
  return new RuleContext(
    {
      target,
      apiRoot: API_ROOT,
      token: sim.token("demo", "full"),
      fullTokens: [sim.token("demo", "full")],
      credentials,
      seed: 1,
      runs: 1,
      runId: "t",
      pacer: new Pacer({ sleep: async () => {}, now }),
      cleanup: [],
      secrets: new Set(),
      timeoutMs: 30_000,
      stop: { requested: false },
      idempotency: new IdempotencyMemory(API_ROOT, now),
      clockMoved: 0,
      counter: 0,
      given: [],
      transport: { retried: 0, unanswered: 0, rerun: 0, server_errors: 0, answers: 0 },
      sleep: async () => {},
    },
    CATALOG[0] as RuleInfo,
  );
}
