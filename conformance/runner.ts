import { RuleContext, type RunState, type StopSwitch } from "./context.js";
import { stopSwitch } from "./run-state.js";
import { Interrupted, Mismatch, PropertyFailure, Skip } from "./outcomes.js";
import { NO_CREDENTIALS, credentialOptions, credentialSecrets, type Credentials } from "./credentials.js";
import { Pacer, type WaitNotice } from "./pacer.js";
import { IdempotencyMemory } from "./ambient/replay.js";
import { buildCounterexample, failureCause, NO_ANSWER_CAUSE } from "./counterexample.js";
import { missingNeed, plannedAs } from "./needs.js";
import { Patience } from "./patience.js";
import { summarize } from "./verdict.js";
import { startOracle } from "./model/start.js";
import { modelSection, notStarted } from "./model/section.js";
import { apiRootOf, type Target } from "./target.js";
import { replayCommand } from "./report/replay.js";
import type { Report, ReportOptions, RuleResult } from "./types.js";
import type { Rule } from "./rule.js";
import { dataOf, errorCode, type Identity, isObject, rowsOf } from "./shapes.js";

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
  /** The strict profile (the in-process simulator only): rules hold it to its own choices too. */
  readonly strict?: boolean;
  /** Whether a flaky rule (failed, then passed when run again) fails the run: `warn` (default) reports it only. */
  readonly flaky?: "fail" | "warn";
  /** Stop after this many failed rules (fail fast); the rest are reported as not run. */
  readonly maxFailures?: number;
  /** Stop starting rules after this many milliseconds; the clean-up and the reports still happen. */
  readonly maxTimeMs?: number;
}

/** The run could not be carried out (unreachable target, refused credential): exit code 2. */
export class RunAborted extends Error {}

/** The options ask for no run at all (no rule selected, no credential for a target): exit code 2, no reports. */
export class UsageError extends RunAborted {}

/** The report of a run that stopped before any rule, so every exit leaves reports (JUnit included) that say why. */
export function abortedReport(
  reason: string,
  what: { target: string; seed: number; runs: number; version: string },
): Report {
  return {
    tool: { name: "retail-sim conformance", version: what.version },
    target: what.target,
    seed: what.seed,
    runs: what.runs,
    started_at: new Date().toISOString(),
    duration_ms: 0,
    ...summarize([], [], 0, { couldNotRun: reason }),
    pacing: { waited_ms: 0, unrequested_429: 0 },
    rules: [],
  };
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function runConformance(options: RunOptions): Promise<Report> {
  const now = options.now ?? Date.now;
  const started = now();
  const credentials = options.credentials ?? NO_CREDENTIALS;
  const stop = options.stop ?? stopSwitch();
  const requestStop = (reason: string) => {
    if (stop.request) stop.request(reason);
    else if (!stop.requested) Object.assign(stop, { requested: true, reason });
  };
  let current = { rule: "preflight", index: 0 };
  const target = options.target;
  const apiRoot = apiRootOf(target.baseUrl);
  const sleep = (ms: number) =>
    Promise.race([(options.sleep ?? realSleep)(ms), ...(stop.stopped ? [stop.stopped] : [])]);
  const pacer = new Pacer({
    perMinute: target.live ? options.rate : undefined,
    // A stop (SIGINT) cuts a wait for a window short.
    sleep,
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
    given: credentialOptions(credentials),
    seed: options.seed,
    runs: options.runs,
    replay: options.replay,
    runId: runIdOf(options.seed, started),
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
    ...(options.strict ? { strict: true } : {}),
    clockMoved: 0,
    counter: 0,
    transport: { retried: 0, unanswered: 0, rerun: 0, server_errors: 0, answers: 0 },
    sleep,
  };
  if (target.controlToken) run.secrets.add(target.controlToken);
  // The time left: the requests the remaining rules should need (their announced cost, scaled by how
  // many requests the rules so far needed per unit of cost), at what the keys' windows allow per
  // second, plus the waits for windows at the pace the run has waited so far; never less than the pace
  // of the rules so far gives.
  const done = { cost: 0, requests: 0 };
  const timeLeft = (waiting: number): number => {
    const rest = options.rules.slice(current.index);
    const cost = rest.reduce((n, r) => n + (missingNeed(run, r) ? 0 : r.cost), 0);
    const perCost = done.cost > 0 ? done.requests / done.cost : 1;
    const requests = cost * perCost;
    const perSecond = (run.fullTokens.length * 110) / 60;
    const waitPerRequest = done.requests > 0 ? run.pacer.waitedMs / 1000 / done.requests : 0;
    const byPace = current.index > 0 ? ((now() - started) / 1000 / current.index) * rest.length : 0;
    return Math.round(Math.max(waiting + requests / perSecond + requests * waitPerRequest, byPace));
  };
  // --max-time: no rule starts after it, and the rule running then stops at its next request.
  const overTime = `--max-time ${Math.round((options.maxTimeMs ?? 0) / 1000)} s`;
  const deadline =
    options.maxTimeMs === undefined ? undefined : setTimeout(() => requestStop(overTime), options.maxTimeMs);
  const results: RuleResult[] = [];
  let couldNotRun: string | undefined;
  let leftBehind: { path: string; status: string }[] = [];
  let prefix: string | undefined;
  const report = (): Report => {
    const base: Report = {
      tool: { name: "retail-sim conformance", version: options.version },
      target: target.label,
      seed: options.seed,
      runs: options.runs,
      ...(options.options ? { options: options.options } : {}),
      started_at: new Date(started).toISOString(),
      duration_ms: now() - started,
      ...summarize(results, options.rules, options.catalogSize, {
        ...(stop.requested ? { stoppedBy: stop.reason ?? "SIGINT" } : {}),
        ...(couldNotRun ? { couldNotRun } : {}),
      }),
      flaky_policy: options.flaky ?? "warn",
      ...(prefix ? { api_root: prefix } : {}),
      pacing: { waited_ms: run.pacer.waitedMs, unrequested_429: run.pacer.unrequested429 },
      transport: { ...run.transport },
      ...(leftBehind.length > 0 ? { left_behind: leftBehind } : {}),
      ...(run.oracle
        ? { model: modelSection(run.oracle, run.target.controlUrl !== undefined, options.selfCheck) }
        : {}),
      ...(run.modelFailure ? { model: notStarted(run.modelFailure) } : {}),
      rules: [],
    };
    const rules = results.map((r) =>
      r.status === "failed" || r.status === "flaky" ? { ...r, replay: replayCommand(base, r) } : r,
    );
    return { ...base, rules };
  };
  try {
    prefix = await preflight(run, options.rules);
    if (options.model !== false) run.oracle = await startModel(run);
    for (const [index, rule] of options.rules.entries()) {
      current = { rule: rule.id, index };
      if (options.maxTimeMs !== undefined && now() - started >= options.maxTimeMs) requestStop(overTime);
      let result: RuleResult;
      if (stop.requested)
        result = notRun(rule, `not run: the run was interrupted (${stop.reason ?? "SIGINT"}) before this rule`);
      else {
        result = await runRule(run, rule, now);
        if (target.live && !stop.requested) result = await runAgain(run, rule, now, result);
      }
      results.push(result);
      if (result.requests > 0) {
        done.cost += rule.cost;
        done.requests += result.requests;
      }
      notify(() => options.onRule?.(result, index, options.rules.length));
      if (
        options.maxFailures !== undefined &&
        results.filter((r) => r.status === "failed").length >= options.maxFailures
      )
        requestStop(`--max-failures ${options.maxFailures}`);
      const outage = outageOf(run);
      if (outage) {
        couldNotRun = outage;
        requestStop("an outage");
      }
      notify(() => options.onReport?.(report()));
    }
    if (!couldNotRun && !stop.requested && results.length > 0 && results.every((r) => r.status === "skipped"))
      couldNotRun = "no rule could run with what the run was given (see not checked)";
  } catch (error) {
    if (!(error instanceof RunAborted)) throw error;
    couldNotRun = error.message;
  } finally {
    if (deadline) clearTimeout(deadline);
    // Whatever happened, the run leaves the target's data as it found it.
    current = { rule: "the clean-up", index: options.rules.length - 1 };
    leftBehind = await cleanUp(run).catch((error) => {
      process.stderr.write(`conformance: the clean-up stopped: ${(error as Error).message}\n`);
      return [{ path: "(the clean-up)", status: `stopped: ${(error as Error).message}` }];
    });
  }
  return report();
}

/**
 * An outage, not a server to judge: most of the run's requests (at least 20 of them) had a server fault
 * or no answer at all. The run stops, and says it could not run.
 */
function outageOf(run: RunState): string | undefined {
  const t = run.transport;
  const sent = t.answers + t.unanswered;
  const lost = t.server_errors + t.unanswered;
  if (sent < 20 || lost * 2 <= sent) return undefined;
  return `an outage: ${lost} of ${sent} requests had a server fault (5xx) or no answer`;
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

/** Runs this process started: two runs in the same millisecond still get ids of their own. */
let runsStarted = 0;

/**
 * The tag in every name and Idempotency-Key a run writes (`rsconf-<run id>-`): the seed, the start to
 * the millisecond and, after the first, the process's count of runs. Two runs one after the other
 * against the same target (the same seed, within a second) never share a key, which the target would
 * refuse as IDEMPOTENCY_KEY_REUSED for a different body.
 */
function runIdOf(seed: number, started: number): string {
  const n = runsStarted++;
  return `${(seed >>> 0).toString(36)}${Math.floor(started).toString(36)}${n === 0 ? "" : n.toString(36)}`;
}

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

/**
 * The target answers and the credential is accepted, or there is no run to make. Returns the path the
 * API is served under before the store prefix (`/stg/eu`), if any: every check reads paths under it.
 */
async function preflight(run: RunState, rules: readonly Rule[]): Promise<string | undefined> {
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
  const type = reply.headers["content-type"] ?? "";
  if (reply.status >= 500 || /^text\/html\b/i.test(type))
    throw new RunAborted(
      `GET ${run.target.baseUrl}/me answered ${reply.status}${/^text\/html\b/i.test(type) ? " with an HTML page" : ""}: the API is not there to judge (an outage, or a gateway in front of it)`,
    );
  if (reply.status === 401 || reply.status === 402 || reply.status === 403) {
    const code = errorCode(reply);
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
  const scopes: unknown = dataOf<Identity>(reply)?.scopes;
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
  const under = new URL(run.apiRoot).pathname.replace(/\/+$/, "");
  return under === "" ? undefined : under;
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
    ...(partial.status === "failed" ? { credentials: [...ctx.used] } : {}),
    duration_ms: now() - started,
    requests: ctx.requests,
  });
  try {
    await rule.run(ctx);
    return finish({ status: "passed" });
  } catch (error) {
    if (error instanceof Interrupted)
      return finish({
        status: "skipped",
        reason: `not finished: the run was interrupted (${run.stop.reason ?? "SIGINT"}) during this rule`,
      });
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

const failedForLostAnswer = (r: RuleResult): boolean =>
  (Object.values(NO_ANSWER_CAUSE) as string[]).includes(r.cause ?? "");
const serverFault = (r: RuleResult): boolean => r.ambient === "ambient.server-error";

/**
 * A failure on a live target runs again. A rule whose request the transport lost (after the request's
 * own retries) is run again: it passes (a transport fault, not the server's), fails on what it
 * checks, or loses an answer again (a server that never answers that request: a failure). Any other failure is run once more: "flaky" when it then
 * passes, except a server fault, which is a failure however rare. A run again that cannot run (the
 * first one used up what it needed, such as an outlet it deleted) proves nothing either way, and the
 * failure stands as found.
 */
async function runAgain(run: RunState, rule: Rule, now: () => number, first: RuleResult): Promise<RuleResult> {
  if (first.status !== "failed") return first;
  if (failedForLostAnswer(first)) {
    run.transport.rerun += 1;
    const again = await runRule(run, rule, now);
    if (again.status === "passed") return { ...again, transport: `passed when run again: first ${first.cause}` };
    if (again.status === "failed" && !failedForLostAnswer(again)) return again;
    return again.status === "failed" ? { ...first, reproducible: true } : first;
  }
  const again = await runRule(run, rule, now);
  if (again.status === "passed")
    return serverFault(first) ? { ...first, reproducible: false } : { ...first, status: "flaky", reproducible: false };
  if (again.status === "failed") return { ...first, reproducible: true };
  return { ...first, rerun: `could not run again from a clean set-up: ${again.reason}` };
}

/**
 * Deletes what the run created, newest first, then sweeps the lists that can be read back for rows
 * carrying the run's name tag that nothing recorded (a create whose answer was lost). A 204 (or a 404:
 * already gone) is taken at its word, spending no request on a read-back (the delete rules check that
 * deletes delete); a delete refused while other rows still point at a row (409), a server fault or no
 * answer is tried again once the others are gone; anything else is checked with a read. Returns what
 * is still there, for the report.
 */
async function cleanUp(run: RunState): Promise<{ path: string; status: string }[]> {
  const ctx = new RuleContext(run, internalRule("cleanup"));
  ctx.budget = Number.MAX_SAFE_INTEGER;
  ctx.ambientChecks = false;
  ctx.interruptible = false;
  ctx.retryable = true;
  // Any full key deletes: each request takes the one with the most rate budget left.
  const key = () => ({ token: run.pacer.pick(run.fullTokens) });
  const left = new Map<string, string>();
  const remove = async (paths: readonly string[]) => {
    let todo = [...new Set(paths)];
    for (let pass = 0; todo.length > 0 && pass < 4; pass++) {
      const again: string[] = [];
      for (const path of todo) {
        const done = await ctx.call("DELETE", path, key()).catch(() => undefined);
        left.delete(path);
        if (done?.status === 204 || done?.status === 404) continue;
        if (done === undefined || done.status === 409 || done.status === 429 || done.status >= 500) {
          left.set(path, done ? `DELETE answered ${done.status}` : "DELETE had no answer");
          again.push(path);
          continue;
        }
        const gone = await ctx.call("GET", path, key()).catch(() => undefined);
        // Some resources refuse deletion by rule (422: a gift card); anything else still there is left behind.
        if (gone?.status !== 404 && done.status !== 422)
          left.set(path, `DELETE answered ${done.status}, then GET answered ${gone?.status ?? "nothing"}`);
      }
      if (again.length === todo.length && pass > 0) break;
      todo = again;
    }
  };
  await remove([...run.cleanup].reverse());
  run.cleanup.length = 0;
  if (run.target.live) await remove(await sweep(ctx, key));
  const leftovers = [...left].map(([path, status]) => ({ path, status }));
  for (const l of leftovers)
    process.stderr.write(`conformance: could not delete ${l.path} (${l.status}); delete it by hand\n`);
  return leftovers;
}

/** The lists the run's rows can be found in by name, and the fields that carry the run's name tag. */
const SWEPT = [
  { path: "/products", fields: ["name", "sku"] },
  { path: "/customers", fields: ["first_name", "last_name", "email", "company_name", "note"] },
] as const;

/**
 * Rows of the run that nothing recorded: the newest changes of each list (`order=desc`, one page), those
 * whose name tag is the run's (`rsconf-<run id>-`). Rows the run recorded are already gone by now.
 */
async function sweep(ctx: RuleContext, key: () => { token: string }): Promise<string[]> {
  const tag = `rsconf-${ctx.run.runId}-`;
  const found: string[] = [];
  for (const list of SWEPT) {
    const page = await ctx.call("GET", `${list.path}?order=desc&limit=200`, key()).catch(() => undefined);
    const rows = (page?.status === 200 ? rowsOf<unknown>(page) : undefined) ?? [];
    for (const r of rows) {
      if (!isObject(r) || typeof r.id !== "string" || r.deleted_at) continue;
      if (
        list.fields.some((f) => {
          const value = r[f];
          return typeof value === "string" && value.includes(tag);
        })
      )
        found.push(`${list.path}/${r.id}`);
    }
  }
  return found;
}
