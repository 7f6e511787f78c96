import { RuleContext, type RunState, type StopSwitch } from "./context.js";
import { Interrupted, Mismatch, PropertyFailure, Skip } from "./outcomes.js";
import { NO_CREDENTIALS, credentialSecrets, type Credentials } from "./credentials.js";
import { Pacer, type WaitNotice } from "./pacer.js";
import { IdempotencyMemory } from "./ambient/replay.js";
import { buildCounterexample, failureCause } from "./counterexample.js";
import { missingNeed, plannedAs } from "./needs.js";
import { Patience } from "./patience.js";
import { summarize } from "./verdict.js";
import { startOracle } from "./model/start.js";
import { modelSection, notStarted } from "./model/section.js";
import { apiRootOf, type Target } from "./target.js";
import type { Report, ReportOptions, RuleResult } from "./types.js";
import type { Rule } from "./rule.js";

export interface RunOptions {
  readonly target: Target;
  readonly token: string;
  readonly rules: readonly Rule[];
  /** Rules in the whole catalog, for the coverage count. */
  readonly catalogSize: number;
  readonly seed: number;
  readonly runs: number;
  readonly replay?: string;
  /** Requests per minute at most (live targets). */
  readonly rate?: number;
  readonly version: string;
  /** Extra credentials (staging): keys by scope, more full keys, another store's key, ... */
  readonly credentials?: Credentials;
  /** Milliseconds a request may take (default 30 s). */
  readonly timeoutMs?: number;
  /** The options of the run as a replay command must repeat them (secrets left out). */
  readonly options?: ReportOptions;
  /** Set `requested` to stop the run at the next request (SIGINT); the report says what was done. */
  readonly stop?: StopSwitch;
  readonly onRule?: (result: RuleResult, index: number, total: number) => void;
  /** Called with the report so far after every rule, so a run that dies still leaves one. */
  readonly onReport?: (report: Report) => void;
  /** While the run waits for a rate-limit window: what for, where the run is, and about how long it has left. */
  readonly onWait?: (notice: WaitNotice & { rule: string; index: number; total: number; left_seconds: number }) => void;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Compare every answer with the model's (conformance/model/); default true. */
  readonly model?: boolean;
  /** --patient: minutes the whole run may take, the rules whose clock moves waiting in real time (no control plane). */
  readonly patientMinutes?: number;
  /** The target is the simulator itself: the model's comparisons prove nothing (the report says so). */
  readonly selfCheck?: boolean;
}

/** The run could not be carried out (unreachable target, refused credential): exit code 2. */
export class RunAborted extends Error {}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function runConformance(options: RunOptions): Promise<Report> {
  const now = options.now ?? Date.now;
  const started = now();
  const credentials = options.credentials ?? NO_CREDENTIALS;
  const stop = options.stop ?? { requested: false };
  let current = { rule: "preflight", index: 0 };
  const target = options.target;
  const apiRoot = apiRootOf(target.baseUrl);
  const pacer = new Pacer({
    perMinute: target.live ? options.rate : undefined,
    // A stop (SIGINT) cuts a wait for a window short.
    sleep: (ms) => Promise.race([(options.sleep ?? realSleep)(ms), ...(stop.stopped ? [stop.stopped] : [])]),
    now,
    advance: target.controlUrl ? (seconds) => advanceClock(run, seconds) : undefined,
    onWait: (n) =>
      options.onWait?.({ ...n, ...current, total: options.rules.length, left_seconds: timeLeft(n.seconds) }),
  });
  const run: RunState = {
    target,
    apiRoot,
    token: options.token,
    fullTokens: [options.token, ...credentials.extra],
    credentials,
    seed: options.seed,
    runs: options.runs,
    replay: options.replay,
    runId: (options.seed >>> 0).toString(36) + Math.floor(started / 1000).toString(36),
    pacer,
    ...(options.patientMinutes !== undefined && !target.controlUrl
      ? {
          patience: new Patience({
            budgetMs: options.patientMinutes * 60_000,
            started,
            now,
            rules: options.rules,
            plannedAs: (rule) => plannedAs(run, rule),
            // What the keys' windows allow (110 of 120 a minute each); an in-process target does not pace.
            perSecond: target.live ? ((1 + credentials.extra.length) * 110) / 60 : Number.POSITIVE_INFINITY,
            pacer,
            stop,
          }),
        }
      : {}),
    cleanup: [],
    secrets: new Set([options.token, ...credentialSecrets(credentials)]),
    timeoutMs: options.timeoutMs ?? 30_000,
    stop,
    idempotency: new IdempotencyMemory(apiRoot, now),
    clockMoved: 0,
    counter: 0,
  };
  if (target.controlToken) run.secrets.add(target.controlToken);
  // The time left: the requests the remaining rules should need (their announced cost, scaled by how
  // many requests the rules so far needed per unit of cost), at what the keys' windows allow per
  // second; never less than the pace of the rules so far gives.
  const done = { cost: 0, requests: 0 };
  const timeLeft = (waiting: number): number => {
    const rest = options.rules.slice(current.index);
    const cost = rest.reduce((n, r) => n + (missingNeed(run, r) ? 0 : r.cost), 0);
    const perCost = done.cost > 0 ? done.requests / done.cost : 1;
    const perSecond = (run.fullTokens.length * 110) / 60;
    const byPace = current.index > 0 ? ((now() - started) / 1000 / current.index) * rest.length : 0;
    return Math.round(Math.max(waiting + (cost * perCost) / perSecond, byPace));
  };
  await preflight(run, options.rules);
  if (options.model !== false) run.oracle = await startModel(run);
  const results: RuleResult[] = [];
  const report = (): Report => ({
    tool: { name: "retail-sim conformance", version: options.version },
    target: target.label,
    seed: options.seed,
    runs: options.runs,
    ...(options.options ? { options: options.options } : {}),
    started_at: new Date(started).toISOString(),
    duration_ms: now() - started,
    ...summarize(results, options.rules, options.catalogSize, stop.requested),
    pacing: { waited_ms: run.pacer.waitedMs, unrequested_429: run.pacer.unrequested429 },
    ...(run.oracle ? { model: modelSection(run.oracle, run.target.controlUrl !== undefined, options.selfCheck) } : {}),
    ...(run.modelFailure ? { model: notStarted(run.modelFailure) } : {}),
    rules: [...results],
  });
  try {
    for (const [index, rule] of options.rules.entries()) {
      current = { rule: rule.id, index };
      let result: RuleResult;
      if (stop.requested) result = notRun(rule, "not run: the run was interrupted (SIGINT) before this rule");
      else {
        result = await runRule(run, rule, now);
        if (result.status === "failed" && target.live && !stop.requested)
          result = await runAgain(run, rule, now, result);
      }
      results.push(result);
      if (result.requests > 0) {
        done.cost += rule.cost;
        done.requests += result.requests;
      }
      notify(() => options.onRule?.(result, index, options.rules.length));
      notify(() => options.onReport?.(report()));
    }
  } finally {
    // Whatever happened, the run leaves the target's data as it found it.
    current = { rule: "the clean-up", index: options.rules.length - 1 };
    await cleanUp(run).catch((error) =>
      process.stderr.write(`conformance: the clean-up stopped: ${(error as Error).message}\n`),
    );
  }
  return report();
}

/** A reporter or progress callback that throws must not end the run. */
function notify(f: () => void): void {
  try {
    f();
  } catch (error) {
    process.stderr.write(`conformance: ${(error as Error).message}\n`);
  }
}

async function advanceClock(run: RunState, seconds: number): Promise<boolean> {
  const ctx = new RuleContext(run, internalRule("pacer"));
  ctx.ambientChecks = false;
  const moved = await ctx.control("POST", "/clock", { advance_seconds: seconds }).catch(() => undefined);
  return moved?.status === 200;
}

const internalRule = (id: string): Rule => ({
  id,
  area: "Envelope",
  title: "",
  spec: { section: "", quote: "" },
  cost: 1000,
  run: async () => {},
});

/** The model, started from the target's snapshot or (without a control plane) from what the API shows. */
async function startModel(run: RunState) {
  const reader = new RuleContext(run, internalRule("model"));
  reader.ambientChecks = false;
  reader.budget = Number.MAX_SAFE_INTEGER;
  try {
    return await startOracle(run, async (url, token) => {
      const reply = await reader.send("GET", url, { token });
      return { status: reply.status, json: reply.json, date: reply.headers.date };
    });
  } catch (error) {
    if (error instanceof Interrupted) throw error;
    // The rules judge the target whatever the model can do: the run goes on without it, and says so.
    run.modelFailure = `the model could not be started, so no answer was compared with it: ${(error as Error).message}`;
    process.stderr.write(`conformance: ${run.modelFailure}\n`);
    return undefined;
  }
}

/** The spec's scopes a full-scope credential holds (a write scope satisfies its read scope). */
const FULL = ["catalog:write", "inventory:write", "customers:write", "sales:read"];

/** The target answers and the credential is accepted, or there is no run to make. */
async function preflight(run: RunState, rules: readonly Rule[]): Promise<void> {
  const probe = new RuleContext(run, internalRule("preflight"));
  // What the answers are like is the rules' business; here only whether a run can be made.
  probe.ambientChecks = false;
  let reply;
  try {
    reply = await probe.call("GET", "/me");
  } catch (error) {
    throw new RunAborted(
      `the target ${run.target.baseUrl} cannot be reached: ${error instanceof Mismatch ? error.observed : (error as Error).message}`,
    );
  }
  if (reply.status === 401 || reply.status === 402 || reply.status === 403) {
    const code = reply.json?.error?.code;
    throw new RunAborted(
      `GET ${run.target.baseUrl}/me with the given credential answered ${reply.status}${typeof code === "string" ? ` ${code}` : ""}: the credential is refused`,
    );
  }
  if (reply.status === 404)
    throw new RunAborted(
      `GET ${run.target.baseUrl}/me answered 404: is ${run.target.baseUrl} a store's base_url (…/{prefix}/v1)?`,
    );
  // Spec, Identity: GET /me lists the key's scopes. A key short of what the rules need would fail
  // them one by one with 403s; one clear message instead.
  const scopes = reply.json?.data?.scopes;
  if (Array.isArray(scopes) && rules.some((r) => !r.needs?.control || run.target.controlUrl)) {
    const held = new Set(scopes.filter((s: unknown): s is string => typeof s === "string"));
    const missing = FULL.filter((s) => !held.has(s) && !(s === "sales:read" && held.has("sales:write")));
    if (missing.length > 0) {
      throw new RunAborted(
        `the credential given to --token lacks ${missing.join(", ")} (GET /me lists ${[...held].join(", ") || "no scope"}): the rules write and read every area, so they need a key with every scope. Give a full-scope key to --token, and keys with fewer scopes to --key SCOPES=TOKEN.`,
      );
    }
  }
  if (run.target.controlUrl) {
    const health = await probe.control("GET", "/health").catch(() => undefined);
    if (health?.status !== 200)
      throw new RunAborted(`the control plane ${run.target.controlUrl} does not answer /health`);
  }
}

function base(rule: Rule) {
  return {
    id: rule.id,
    area: rule.area,
    title: rule.title,
    spec_ref: rule.spec.section,
    spec_quote: rule.spec.quote,
    ...(rule.leniency ? { leniency: rule.leniency } : {}),
  };
}

function notRun(rule: Rule, reason: string, unlock?: string): RuleResult {
  return { ...base(rule), status: "skipped", reason, ...(unlock ? { unlock } : {}), duration_ms: 0, requests: 0 };
}

async function runRule(run: RunState, rule: Rule, now: () => number): Promise<RuleResult> {
  // Without a control plane the target may be a shared deployment: rules that need one, or that would
  // change data the run did not create, are skipped with the reason rather than run or dropped.
  const missing = missingNeed(run, rule);
  if (missing) return notRun(rule, missing.reason, missing.unlock);
  const ctx = new RuleContext(run, rule, run.pacer.pick(run.fullTokens, Math.min(rule.cost, 100)));
  const started = now();
  const finish = (partial: Pick<RuleResult, "status"> & Partial<RuleResult>): RuleResult => ({
    ...base(rule),
    ...partial,
    duration_ms: now() - started,
    requests: ctx.requests,
  });
  try {
    await rule.run(ctx);
    return finish({ status: "passed" });
  } catch (error) {
    if (error instanceof Interrupted)
      return finish({ status: "skipped", reason: "not finished: the run was interrupted (SIGINT) during this rule" });
    if (error instanceof Skip)
      return finish({ status: "skipped", reason: error.message, ...(error.unlock ? { unlock: error.unlock } : {}) });
    try {
      const found =
        error instanceof PropertyFailure
          ? {
              mismatch: error.mismatch,
              exchanges: error.exchanges,
              seed: error.seed,
              path: error.path,
              input: error.input,
            }
          : {
              mismatch:
                error instanceof Mismatch
                  ? error
                  : new Mismatch(
                      "the rule to run to the end",
                      `it stopped: ${(error as Error)?.message ?? String(error)}`,
                    ),
              exchanges: ctx.exchanges,
              seed: run.seed,
            };
      const counterexample = buildCounterexample(run, found);
      return finish({ status: "failed", counterexample, ...failureCause(found.mismatch) });
    } catch (broken) {
      // Even a failure the report cannot describe in full is a failure, never a crash.
      return finish({
        status: "failed",
        counterexample: {
          expected: "the rule to run to the end",
          observed: `it stopped: ${String((error as Error)?.message ?? error).slice(0, 300)} (and its report could not be built: ${(broken as Error).message})`,
          seed: run.seed,
          requests: [],
          curl: [],
        },
      });
    }
  }
}

/**
 * A failure on a live target runs again. "Flaky" only when the run again passes; a run again that
 * cannot run (the first one used up what it needed, such as an outlet it deleted) proves nothing
 * either way, and the failure stands as found.
 */
async function runAgain(run: RunState, rule: Rule, now: () => number, first: RuleResult): Promise<RuleResult> {
  const again = await runRule(run, rule, now);
  if (again.status === "passed") return { ...first, reproducible: false };
  if (again.status === "failed") return { ...first, reproducible: true };
  return { ...first, rerun: `could not run again from a clean set-up: ${again.reason}` };
}

/**
 * Deletes what the run created, newest first. A 204 (or a 404: already gone) is taken at its word,
 * spending no request on a read-back (the delete rules check that deletes delete); any other answer
 * is checked with a read and reported when the resource is still there.
 */
async function cleanUp(run: RunState): Promise<void> {
  const ctx = new RuleContext(run, internalRule("cleanup"));
  ctx.budget = Number.MAX_SAFE_INTEGER;
  ctx.ambientChecks = false;
  ctx.interruptible = false;
  // Any full key deletes: each request takes the one with the most rate budget left.
  const key = () => ({ token: run.pacer.pick(run.fullTokens) });
  // A delete refused for a row still in use (a component of a composite made later, a parent whose
  // children were made later) is tried again once the others are gone, while that frees anything.
  let left = [...new Set(run.cleanup)].reverse();
  for (let pass = 0; left.length > 0 && pass < 4; pass++) {
    const refused: string[] = [];
    for (const path of left) {
      const done = await ctx.call("DELETE", path, key()).catch(() => undefined);
      if (done?.status === 204 || done?.status === 404) continue;
      if (done?.status === 409) refused.push(path);
      else {
        const gone = done === undefined ? undefined : await ctx.call("GET", path, key()).catch(() => undefined);
        // Some resources refuse deletion by rule (422: a gift card); anything else left behind is reported.
        if (done === undefined || (gone !== undefined && gone.status !== 404 && done.status !== 422))
          process.stderr.write(
            `conformance: could not delete ${path} (${done ? `status ${done.status}, then GET answered ${gone?.status}` : "no answer"}); delete it by hand\n`,
          );
      }
    }
    if (refused.length === left.length) break;
    left = refused;
  }
  run.cleanup.length = 0;
}
