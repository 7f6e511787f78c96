import fc from "fast-check";
import type { Exchange, Rule } from "./types.js";
import type { Target } from "./target.js";

/** A rule's expectation did not hold. `expected` and `observed` are what the report shows. */
export class Mismatch extends Error {
  constructor(
    readonly expected: string,
    readonly observed: string,
  ) {
    super(`expected ${expected}; observed ${observed}`);
  }
}

/** The rule cannot run against this target (a choice the target made differently, a missing capability). */
export class Skip extends Error {}

/** A property failed: the minimal case fast-check found, with what to replay it. */
export class PropertyFailure extends Error {
  constructor(
    readonly mismatch: Mismatch,
    readonly seed: number,
    readonly path: string | undefined,
    readonly input: string,
    readonly exchanges: Exchange[],
  ) {
    super(mismatch.message);
  }
}

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  readonly json: any;
}

export interface CallOptions {
  readonly body?: unknown;
  /** A raw body, sent as is. */
  readonly raw?: string;
  readonly contentType?: string;
  readonly headers?: Record<string, string>;
  /** Another credential; null sends no Authorization header. */
  readonly token?: string | null;
}

/** State shared by every rule of one run. */
export interface RunState {
  readonly target: Target;
  readonly token: string;
  readonly seed: number;
  readonly runs: number;
  /** fast-check's path of a case to replay (--replay). */
  readonly replay?: string;
  /** Tags everything the run creates, so it only ever touches its own data. */
  readonly runId: string;
  readonly pacer: Pacer;
  /** Paths of resources the run created, deleted (and checked gone) at the end. */
  readonly cleanup: string[];
  /** Every credential the run sends or receives (the run's token, tokens rules use or are handed): reports redact them. */
  readonly secrets: Set<string>;
  counter: number;
}

/** Response fields that hold a credential: their values are remembered as secrets of the run. */
const SECRET_FIELDS = /^(token|access_token|refresh_token|id_token|client_secret|password|api_key|secret)$/i;

/** Remembers credentials found in a JSON body (a created key, a token exchange) so reports can redact them. */
export function collectSecrets(value: unknown, into: Set<string>, depth = 0): void {
  if (depth > 8 || typeof value !== "object" || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) collectSecrets(item, into, depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === "string" && SECRET_FIELDS.test(k) && v.length >= 8) into.add(v);
    else collectSecrets(v, into, depth + 1);
  }
}

export class RuleContext {
  readonly exchanges: Exchange[] = [];
  requests = 0;

  constructor(
    readonly run: RunState,
    readonly rule: Rule,
  ) {}

  /** A request to `{base_url}` + path. */
  call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
    return this.send(method, `${this.run.target.baseUrl}${path}`, options);
  }

  /** A request to the control plane; skips the rule when the target has none. */
  control(method: string, path: string, body?: unknown): Promise<Reply> {
    if (!this.run.target.controlUrl) throw new Skip("needs the target's control plane (--control)");
    return this.send(method, `${this.run.target.controlUrl}${path}`, { body, token: this.run.target.controlToken ?? null });
  }

  get hasControl(): boolean {
    return this.run.target.controlUrl !== undefined;
  }

  async send(method: string, url: string, options: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? this.run.token : options.token;
    if (token !== null && headers.authorization === undefined) headers.authorization = `Bearer ${token}`;
    if (token !== null && token.length >= 8) this.run.secrets.add(token);
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && headers["content-type"] === undefined) headers["content-type"] = options.contentType ?? "application/json";
    const controlCall = this.run.target.controlUrl !== undefined && url.startsWith(this.run.target.controlUrl);
    if (!controlCall) await this.run.pacer.before(this);
    const res = await this.run.target.send({ method, url, headers, body });
    this.requests += 1;
    if (!controlCall) await this.run.pacer.after(this, res.status, res.headers);
    this.exchanges.push({ method, url, requestHeaders: headers, requestBody: body, status: res.status, responseHeaders: res.headers, responseBody: res.body });
    let json: unknown;
    try {
      json = res.body === "" ? undefined : JSON.parse(res.body);
    } catch {
      json = undefined;
    }
    collectSecrets(json, this.run.secrets);
    return { status: res.status, headers: res.headers, text: res.body, json };
  }

  /** A name no other data has: every resource the run creates carries the run id. */
  name(what: string): string {
    this.run.counter += 1;
    return `rsconf-${this.run.runId}-${what}-${this.run.counter}`;
  }

  /** Remembers a created resource (a path under base_url) for the cleanup at the end of the run. */
  track(path: string): void {
    this.run.cleanup.push(path);
  }

  // Expectations: each throws a Mismatch naming what the spec wants and what came back.

  check(ok: boolean, expected: string, observed: string): void {
    if (!ok) throw new Mismatch(expected, observed);
  }

  status(reply: Reply, ...allowed: number[]): void {
    this.check(allowed.includes(reply.status), `status ${allowed.join(" or ")}`, `status ${reply.status}${errorSummary(reply)}`);
  }

  /** The spec's error envelope with this status and code (and, when given, these field names). */
  error(reply: Reply, status: number, code: string, fields?: readonly string[]): void {
    this.check(reply.status === status && reply.json?.error?.code === code, `${status} ${code}`, `status ${reply.status}${errorSummary(reply)}`);
    this.envelope(reply);
    if (fields) {
      const got = ((reply.json.error.fields ?? []) as { field: string }[]).map((f) => f.field);
      this.check(fields.every((f) => got.includes(f)), `fields naming ${fields.join(", ")}`, `fields ${JSON.stringify(got)}`);
    }
  }

  /** Spec, Errors: `{"error": {"code", "message", "fields"?}}`. */
  envelope(reply: Reply): void {
    const e = reply.json?.error;
    const ok = typeof e === "object" && e !== null && typeof e.code === "string" && typeof e.message === "string" && (e.fields === undefined || (Array.isArray(e.fields) && e.fields.every((f: any) => typeof f?.field === "string" && typeof f?.message === "string")));
    this.check(ok, "the error envelope {error: {code, message, fields?}}", reply.text.slice(0, 300));
  }

  /** Runs a fast-check property; a failure carries the minimal case, its seed and path, and its requests. */
  async property<T>(arbitrary: fc.Arbitrary<T>, predicate: (value: T) => Promise<void>, numRuns = this.run.runs): Promise<void> {
    const result = await fc.check(
      fc.asyncProperty(arbitrary, async (value) => {
        await predicate(value);
      }),
      { seed: this.run.seed, numRuns, path: this.run.replay, endOnFailure: false },
    );
    if (!result.failed || !result.counterexample) return;
    const value = result.counterexample[0] as T;
    this.exchanges.length = 0;
    try {
      await predicate(value);
    } catch (error) {
      if (error instanceof Skip) throw error;
      // A case that breaks the rule's own code (a body it cannot read) still carries its seed and path.
      const mismatch = error instanceof Mismatch ? error : new Mismatch("the rule to run to the end", `it stopped: ${(error as Error)?.message ?? String(error)}`);
      throw new PropertyFailure(mismatch, this.run.seed, result.counterexamplePath ?? undefined, fc.stringify(value), [...this.exchanges]);
    }
    const first = result.errorInstance;
    const mismatch = first instanceof Mismatch ? first : new Mismatch("the property to hold", String(first));
    throw new PropertyFailure(new Mismatch(mismatch.expected, `${mismatch.observed} (the minimal case passed when run again: flaky)`), this.run.seed, result.counterexamplePath ?? undefined, fc.stringify(value), [...this.exchanges]);
  }
}

function errorSummary(reply: Reply): string {
  const e = reply.json?.error;
  if (typeof e === "object" && e !== null) return ` ${e.code ?? ""}${e.fields ? ` ${JSON.stringify(e.fields)}` : ""}`;
  if (typeof e === "string") return ` ${e}`;
  return "";
}

/**
 * Keeps a run within the target's limits: it reads `RateLimit` and waits out a window before it is
 * exhausted (moving the simulator's clock when the control plane allows, else real time), and spaces
 * requests to `--rate` per minute on live targets.
 */
export class Pacer {
  private nextAt = 0;

  constructor(
    private readonly perMinute: number | undefined,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {}

  async before(_ctx: RuleContext): Promise<void> {
    if (!this.perMinute) return;
    const now = Date.now();
    if (now < this.nextAt) await this.sleep(this.nextAt - now);
    this.nextAt = Math.max(now, this.nextAt) + 60_000 / this.perMinute;
  }

  async after(ctx: RuleContext, status: number, headers: Record<string, string>): Promise<void> {
    const fields = /remaining=(\d+)\s*,\s*reset=(\d+)/.exec(headers["ratelimit"] ?? "");
    const policy = headers["ratelimit-policy"] ?? "";
    const failedAuthWindow = policy.includes("w=300");
    const remaining = fields ? Number(fields[1]) : undefined;
    const reset = fields ? Number(fields[2]) : 60;
    // Keep a reserve: a rule that probes limits on purpose asks for its own 429s.
    const low = remaining !== undefined && remaining <= (failedAuthWindow ? 8 : 10);
    if (!low && status !== 429) return;
    const wait = status === 429 ? Number(headers["retry-after"] ?? reset) : reset;
    await this.waitOut(ctx, Math.max(1, wait));
  }

  /** Lets a window pass: the simulator's clock when it can be moved, otherwise real time. */
  async waitOut(ctx: RuleContext, seconds: number): Promise<void> {
    if (ctx.hasControl) {
      await ctx.control("POST", "/clock", { advance_seconds: seconds });
      return;
    }
    await this.sleep(seconds * 1000);
  }
}
