import { Mismatch, Pacer, PropertyFailure, RuleContext, Skip, type RunState } from "./context.js";
import { toCurl } from "./curl.js";
import type { Target } from "./target.js";
import type { Exchange, Report, Rule, RuleResult } from "./types.js";

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
  readonly onRule?: (result: RuleResult, index: number, total: number) => void;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** The run could not be carried out (unreachable target, refused credential): exit code 2. */
export class RunAborted extends Error {}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function runConformance(options: RunOptions): Promise<Report> {
  const now = options.now ?? Date.now;
  const started = now();
  const run: RunState = {
    target: options.target,
    token: options.token,
    seed: options.seed,
    runs: options.runs,
    replay: options.replay,
    runId: (options.seed >>> 0).toString(36) + Math.floor(started / 1000).toString(36),
    pacer: new Pacer(options.target.live ? options.rate : undefined, options.sleep ?? realSleep),
    cleanup: [],
    secrets: new Set([options.token]),
    counter: 0,
  };
  await preflight(run);
  const results: RuleResult[] = [];
  try {
    for (const [index, rule] of options.rules.entries()) {
      let result = await runRule(run, rule, now);
      if (result.status === "failed" && options.target.live) {
        // A failure on a live target runs once more: reproducible, or flaky.
        const again = await runRule(run, rule, now);
        result = { ...result, reproducible: again.status === "failed" };
      }
      results.push(result);
      options.onRule?.(result, index, options.rules.length);
    }
  } finally {
    // Whatever happened, the run leaves the target's data as it found it.
    await cleanUp(run);
  }
  const count = (s: RuleResult["status"]) => results.filter((r) => r.status === s).length;
  return {
    tool: { name: "retail-sim conformance", version: options.version },
    target: options.target.label,
    seed: options.seed,
    runs: options.runs,
    started_at: new Date(started).toISOString(),
    duration_ms: now() - started,
    summary: { passed: count("passed"), failed: count("failed"), skipped: count("skipped"), covered: count("passed") + count("failed"), catalog: options.catalogSize },
    rules: results,
  };
}

/** The target answers and the credential works, or there is no run to make. */
async function preflight(run: RunState): Promise<void> {
  const probe = new RuleContext(run, { id: "preflight", area: "Authentication", title: "", spec: { section: "", quote: "" }, cost: 1, run: async () => {} });
  let reply;
  try {
    reply = await probe.call("GET", "/me");
  } catch (error) {
    throw new RunAborted(`the target ${run.target.baseUrl} cannot be reached: ${(error as Error).message}`);
  }
  if (reply.status === 401 || reply.status === 402 || reply.status === 403) {
    throw new RunAborted(`GET ${run.target.baseUrl}/me with the given credential answered ${reply.status}${reply.json?.error?.code ? ` ${reply.json.error.code}` : ""}: the credential is refused`);
  }
  if (reply.status !== 200 || typeof reply.json?.data !== "object") {
    throw new RunAborted(`GET ${run.target.baseUrl}/me answered ${reply.status} without an Identity: is ${run.target.baseUrl} a store's base_url (…/{prefix}/v1)?`);
  }
  if (run.target.controlUrl) {
    const health = await probe.control("GET", "/health").catch(() => undefined);
    if (health?.status !== 200) throw new RunAborted(`the control plane ${run.target.controlUrl} does not answer /health`);
  }
}

async function runRule(run: RunState, rule: Rule, now: () => number): Promise<RuleResult> {
  const base = { id: rule.id, area: rule.area, title: rule.title, spec_ref: rule.spec.section, spec_quote: rule.spec.quote, ...(rule.leniency ? { leniency: rule.leniency } : {}) };
  // Without a control plane the target may be a shared deployment: rules that need one, or that would
  // change data the run did not create, are skipped with the reason rather than run or dropped.
  const missing = run.target.controlUrl
    ? undefined
    : rule.needs?.control || rule.needs?.clock
      ? "needs the target's control plane (--control)"
      : rule.needs?.destructive
        ? "changes shared data beyond what the run creates: runs only with the target's control plane (--control)"
        : undefined;
  if (missing) return { ...base, status: "skipped", reason: missing, duration_ms: 0, requests: 0 };
  const ctx = new RuleContext(run, rule);
  const started = now();
  const finish = (partial: Pick<RuleResult, "status"> & Partial<RuleResult>): RuleResult => ({ ...base, ...partial, duration_ms: now() - started, requests: ctx.requests });
  try {
    await rule.run(ctx);
    return finish({ status: "passed" });
  } catch (error) {
    if (error instanceof Skip) return finish({ status: "skipped", reason: error.message });
    if (error instanceof PropertyFailure) {
      return finish({ status: "failed", counterexample: counterexample(run, error.mismatch, error.exchanges, error.seed, error.path, error.input) });
    }
    if (error instanceof Mismatch) return finish({ status: "failed", counterexample: counterexample(run, error, ctx.exchanges.slice(-8), run.seed) });
    const mismatch = new Mismatch("the rule to run to the end", `it stopped: ${(error as Error).message}`);
    return finish({ status: "failed", counterexample: counterexample(run, mismatch, ctx.exchanges.slice(-8), run.seed) });
  }
}

function counterexample(run: RunState, m: Mismatch, exchanges: Exchange[], seed: number, path?: string, input?: string) {
  const scrub = scrubber(run.secrets);
  const requests = exchanges.map((e) => redact(e, scrub));
  return { expected: scrub(m.expected), observed: scrub(m.observed), seed, ...(path ? { path } : {}), ...(input ? { input: scrub(input) } : {}), requests, curl: requests.map(toCurl) };
}

/** Replaces every secret of the run, and anything sent as a Bearer or Basic credential, by `<redacted>`. */
function scrubber(secrets: ReadonlySet<string>): (text: string) => string {
  // Longest first, so a secret that contains another is replaced whole.
  const known = [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  const encoded = known.flatMap((s) => [encodeURIComponent(s)].filter((e) => e !== s));
  return (text) => {
    let out = text;
    for (const s of [...known, ...encoded]) out = out.split(s).join("<redacted>");
    return out.replace(/\b(Bearer|Basic) (?!<redacted>)[\x21-\x7E]+/gi, "$1 <redacted>");
  };
}

/** Credentials never reach a report: not in headers, URLs, bodies, nor in what a rule says it observed. */
function redact(e: Exchange, scrub: (text: string) => string): Exchange {
  const headers = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k, CREDENTIAL_HEADERS.has(k.toLowerCase()) ? redactCredential(v) : scrub(v)]));
  return {
    method: e.method,
    url: scrub(e.url),
    requestHeaders: headers(e.requestHeaders),
    ...(e.requestBody === undefined ? {} : { requestBody: scrub(e.requestBody) }),
    status: e.status,
    responseHeaders: headers(e.responseHeaders),
    responseBody: scrub(e.responseBody),
  };
}

const CREDENTIAL_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"]);

/** `Bearer abc` → `Bearer <redacted>`; a bare scheme word stays (it carries no credential); anything else is redacted whole. */
function redactCredential(value: string): string {
  const m = /^(\S+)\s+\S/.exec(value);
  if (m) return `${m[1]} <redacted>`;
  if (/^(Bearer|Basic|Digest)?$/i.test(value.trim())) return value;
  return "<redacted>";
}

/** Deletes what the run created, newest first, and checks each is gone. */
async function cleanUp(run: RunState): Promise<void> {
  const ctx = new RuleContext(run, { id: "cleanup", area: "Catalog", title: "", spec: { section: "", quote: "" }, cost: 0, run: async () => {} });
  for (const path of [...new Set(run.cleanup)].reverse()) {
    const done = await ctx.call("DELETE", path).catch(() => undefined);
    const gone = done === undefined ? undefined : await ctx.call("GET", path).catch(() => undefined);
    // Some resources refuse deletion by rule (409, 422); anything else left behind is reported.
    if (done === undefined || (gone !== undefined && gone.status !== 404 && done.status !== 409 && done.status !== 422)) {
      process.stderr.write(`conformance: could not delete ${path} (${done ? `status ${done.status}, then GET answered ${gone?.status}` : "no answer"}); delete it by hand\n`);
    }
  }
  run.cleanup.length = 0;
}
