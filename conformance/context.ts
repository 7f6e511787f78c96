import type fc from "fast-check";
import type { Exchange, RuleInfo } from "./types.js";
import type { RunState } from "./run-state.js";

export type { RunState, StopSwitch } from "./run-state.js";
import { judge, modelViolation } from "./ambient/judge.js";
import { BudgetExceeded, ChoiceBroken, Interrupted, Mismatch, NoAnswer, Skip } from "./outcomes.js";
import { runProperty } from "./property.js";
import { collectSecrets } from "./secrets.js";
import type { Asked, Divergence } from "./model/oracle.js";
import type { TargetRequest, TargetResponse } from "./target.js";
import { createdPaths } from "./created.js";
import { bodyOf, errorCode, errorFields, errorOf, isObject } from "./shapes.js";

// A rule's view of the run: requests to the target and its control plane (with pacing, the request
// budget and the ambient checks), the expectations a rule states, and its fast-check properties. How a
// rule ends is in outcomes.ts, the property runner in property.ts, the secrets of a run in secrets.ts.

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
  /**
   * Parsed JSON body, or undefined when the body is empty or not JSON. Read it through shapes.ts
   * (`dataOf`, `rowsOf`, `pageOf`, `errorCode`, `tokenAnswerOf`, ...), which check the envelope.
   */
  readonly json: unknown;
}

export interface CallOptions {
  readonly body?: unknown;
  /** A raw body, sent as is. */
  readonly raw?: string;
  readonly contentType?: string;
  readonly headers?: Record<string, string>;
  /** Another credential; null sends no Authorization header. */
  readonly token?: string | null;
  /** False for probes that must reach a limit on purpose (the Pacer would wait the window out first). */
  readonly paced?: boolean;
  /** The suite's own retry of a keyed request (the ambient replay check): never retried again. */
  readonly shadow?: boolean;
  /** For a generated request: what else the target may have answered it as (the model compares). */
  readonly asked?: Asked;
}

/** Requests a rule may send: a generous multiple of what it announces, so a looping server costs a failure, not hours. */
export function requestBudget(rule: RuleInfo, runs: number): number {
  return Math.max(300, Math.ceil(rule.cost * 8 * Math.max(1, runs / 20)));
}

const clockSeconds = (path: string, body: unknown): number => {
  if (!/\/clock$/.test(path) || typeof body !== "object" || body === null) return 0;
  const b = body as { advance_seconds?: unknown; set?: unknown };
  if (typeof b.advance_seconds === "number") return b.advance_seconds;
  return b.set !== undefined ? Infinity : 0;
};

export class RuleContext {
  readonly exchanges: Exchange[] = [];
  requests = 0;
  /** The full key this rule runs with (the one with most rate budget left when it started, or when its property case started). */
  token: string;
  /** Requests this rule may send. */
  budget: number;
  /** The first expectation that failed in this rule, kept when shrinking runs out of budget. */
  firstMismatch?: Mismatch;
  /** While faults are injected, answers come from the fault, not the API: ambient checks pause. */
  private faults = false;
  /** The run's own housekeeping (preflight, clean-up) is not judged. */
  ambientChecks = true;
  /** False for the clean-up, which runs after an interruption too. */
  interruptible = true;
  /** The credential options (`--key catalog:read`, ...) this rule's requests carried: its replay needs only these. */
  readonly used = new Set<string>();
  /** True for the run's own clean-up: every request of it is safe to repeat (a 404 on a delete is taken as gone). */
  retryable = false;

  constructor(
    readonly run: RunState,
    readonly rule: RuleInfo,
    token?: string,
  ) {
    this.token = token ?? run.token;
    this.budget = requestBudget(rule, run.runs);
  }

  /** A request to `{base_url}` + path. */
  call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
    return this.send(method, `${this.run.target.baseUrl}${path}`, options);
  }

  /** A request to the control plane; skips the rule when the target has none. */
  control(method: string, path: string, body?: unknown): Promise<Reply> {
    if (!this.run.target.controlUrl) throw new Skip("needs the target's control plane (--control)", "--control");
    return this.send(method, `${this.run.target.controlUrl}${path}`, {
      body,
      token: this.run.target.controlToken ?? null,
      // docs/interfaces.md, Control plane: every write sends a JSON content type, with an empty body too.
      headers: method === "GET" ? {} : { "content-type": "application/json" },
    });
  }

  get hasControl(): boolean {
    return this.run.target.controlUrl !== undefined;
  }

  /** The token a request carries: the rule's own unless the options name another (null: none). */
  private tokenOf(options: CallOptions): string | null {
    return options.token === undefined ? this.token : options.token;
  }

  async send(method: string, url: string, options: CallOptions = {}): Promise<Reply> {
    if (this.run.stop.requested && this.interruptible) throw new Interrupted("the run was interrupted");
    if (this.requests >= this.budget) {
      const first = this.firstMismatch
        ? `; the first mismatch seen: expected ${this.firstMismatch.expected}; observed ${this.firstMismatch.observed}`
        : "";
      throw new BudgetExceeded(
        `the rule to finish within ${this.budget} requests`,
        `it needed more: the target kept answering (a cursor that never ends, a list that keeps growing?)${first}`,
        this.firstMismatch,
      );
    }
    const headers: Record<string, string> = { ...options.headers };
    const token = this.tokenOf(options);
    if (token !== null && headers.authorization === undefined) headers.authorization = `Bearer ${token}`;
    if (token !== null && token.length >= 8) this.run.secrets.add(token);
    this.run.patience?.used(token);
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && headers["content-type"] === undefined)
      headers["content-type"] = options.contentType ?? "application/json";
    this.noteCredentials(url, headers, body);
    const controlUrl = this.run.target.controlUrl;
    const controlCall = controlUrl !== undefined && url.startsWith(controlUrl);
    const paced = !controlCall && options.paced !== false;
    const ticket = this.run.idempotency.sent();
    const oracle = this.run.oracle;
    const sent = { method, url, headers, ...(body === undefined ? {} : { body }) };
    // A request safe to repeat (a read, a keyed write, the run's own clean-up) is sent again when the
    // transport loses its answer (a dropped connection, a timeout), after a back-off: a load balancer's
    // hiccup is not the server's failure. Each try is paced and counted like any request.
    const safe = this.retryable || method === "GET" || method === "HEAD" || hasHeader(headers, "idempotency-key");
    let res: TargetResponse;
    let turn: Awaited<ReturnType<NonNullable<typeof oracle>["begin"]>> | undefined;
    for (let attempt = 0; ; attempt++) {
      if (paced) await this.run.pacer.before(token);
      // A wait for a rate-limit window ends early when the run is stopped.
      if (this.run.stop.requested && this.interruptible) throw new Interrupted("the run was interrupted");
      this.requests += 1;
      turn = await oracle?.begin();
      try {
        res = await this.answer({ method, url, headers, body });
        break;
      } catch (error) {
        if (turn) await oracle?.exchange(sent, undefined, turn.concurrent);
        if (error instanceof Interrupted) throw error;
        const lost = lostAnswer(method, url, error);
        if (safe && attempt < RETRIES[lost.how]) {
          this.run.transport.retried += 1;
          await this.run.sleep(BACK_OFF_MS * 2 ** attempt);
          continue;
        }
        this.run.transport.unanswered += 1;
        this.exchanges.push({
          method,
          url,
          requestHeaders: headers,
          requestBody: body,
          status: 0,
          responseHeaders: {},
          responseBody: "",
        });
        throw lost;
      }
    }
    this.run.transport.answers += 1;
    if (res.status >= 500) this.run.transport.server_errors += 1;
    if (paced) await this.run.pacer.after(token, res.status, res.headers);
    this.exchanges.push({
      method,
      url,
      requestHeaders: headers,
      requestBody: body,
      status: res.status,
      responseHeaders: res.headers,
      responseBody: res.body,
    });
    let json: unknown;
    try {
      json = res.body === "" ? undefined : JSON.parse(res.body);
    } catch {
      json = undefined;
    }
    collectSecrets(json, this.run.secrets);
    // Whatever a create's answer is later judged to be, the row it made is the run's to delete.
    if (!controlCall && res.status >= 200 && res.status < 300)
      for (const path of createdPaths(method, url, this.run.apiRoot, this.run.target.baseUrl, json)) this.track(path);
    const reply: Reply = { status: res.status, headers: res.headers, text: res.body, json };
    if (controlCall) {
      const path = url.slice((controlUrl as string).length);
      const divergence = turn ? await oracle?.control(method, path, body, res, turn.concurrent) : undefined;
      this.noteControl(method, path, options.body, res.status);
      if (divergence && this.ambientChecks) {
        const v = modelViolation(divergence);
        throw new Mismatch(v.expected, v.observed, v);
      }
      return reply;
    }
    const divergence = turn ? await oracle?.exchange(sent, res, turn.concurrent, options.asked) : undefined;
    if (!this.faults && this.ambientChecks) {
      const first = this.judgeAmbient(method, url, headers, body, token, reply, ticket, divergence);
      // Spec, Limits (Idempotency): a retry with the same key and body replays the answer. Any keyed
      // request a rule makes that succeeds is retried once, so every route's replays are judged.
      if (first && paced && !options.shadow) await this.send(method, url, { headers, raw: body, token, shadow: true });
    }
    return reply;
  }

  /** Which given credentials a request carries, in its URL, its Authorization (Basic decoded) or its body. */
  private noteCredentials(url: string, headers: Record<string, string>, body: string | undefined): void {
    if (this.run.given.length === 0) return;
    const auth = headers.authorization ?? "";
    const basic = /^Basic\s+(\S+)/i.exec(auth)?.[1];
    const carried = `${url}\n${auth}\n${basic ? Buffer.from(basic, "base64").toString("utf8") : ""}\n${body ?? ""}`;
    for (const g of this.run.given) if (carried.includes(g.secret)) this.used.add(g.option);
  }

  /** The target's answer within the run's timeout, or Interrupted as soon as the run is stopped. */
  private answer(req: TargetRequest): Promise<TargetResponse> {
    const answer = withTimeout(this.run.target.send(req), this.run.timeoutMs);
    const stopped = this.interruptible ? this.run.stop.stopped : undefined;
    if (!stopped) return answer;
    return Promise.race([
      answer,
      stopped.then((): never => {
        throw new Interrupted("the run was interrupted");
      }),
    ]);
  }

  /** Control calls that change what API answers mean: faults (answers not from the API) and the clock. */
  private noteControl(method: string, path: string, body: unknown, status: number): void {
    if (status < 200 || status > 299) return;
    if (/^\/faults/.test(path)) this.faults = method !== "DELETE" || path !== "/faults";
    if (/\/reset$/.test(path)) this.faults = false;
    if (method === "POST") this.run.clockMoved += clockSeconds(path, body);
  }

  /** The ambient checks: a violation fails the rule whatever it was about, naming the check. True for a keyed success seen first. */
  private judgeAmbient(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    token: string | null,
    reply: Reply,
    ticket: number,
    divergence: Divergence | undefined,
  ): boolean {
    const violations = judge({
      method,
      url,
      apiRoot: this.run.apiRoot,
      status: reply.status,
      headers: reply.headers,
      body: reply.text,
    });
    if (divergence) violations.push(modelViolation(divergence));
    const key = Object.entries(headers).find(([name]) => name.toLowerCase() === "idempotency-key")?.[1];
    const replay = this.run.idempotency.answer({
      token,
      key,
      method,
      url,
      body,
      reply,
      ticket,
      clock: this.run.clockMoved,
    });
    // With the model on, replays are judged by it (exactly, with the choices the spec leaves open): this
    // check of the ambient ones only decides which keyed successes the suite retries.
    if (replay.violation && !this.run.oracle) violations.push(replay.violation);
    const first = violations[0];
    if (first) throw new Mismatch(first.expected, first.observed, first);
    return replay.first;
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

  /** `value` itself when it is there (a check that narrows), else a Mismatch. */
  defined<T>(value: T | undefined, expected: string, observed: string): T {
    if (value === undefined) throw new Mismatch(expected, observed);
    return value;
  }

  status(reply: Reply, ...allowed: number[]): void {
    this.check(
      allowed.includes(reply.status),
      `status ${allowed.join(" or ")}`,
      `status ${reply.status}${errorSummary(reply)}`,
    );
  }

  /**
   * The strict profile: the simulator's own choice `topic` (declared in the rule's `choices`), checked
   * on a reply the rule already has; nothing unless the run is strict. Write `ok` so it cannot throw.
   */
  choice(topic: string, ok: boolean, expected: string, observed: string): void {
    if (!this.rule.choices?.includes(topic)) throw new Error(`${this.rule.id} does not declare the choice "${topic}"`);
    if (this.run.strict && !ok) throw new ChoiceBroken(topic, expected, observed);
  }

  /** The spec's error envelope with this status and code (and, when given, these field names). */
  error(reply: Reply, status: number, code: string, fields?: readonly string[]): void {
    this.check(
      reply.status === status && errorCode(reply) === code,
      `${status} ${code}`,
      `status ${reply.status}${errorSummary(reply)}`,
    );
    this.envelope(reply);
    if (fields) {
      const got = errorFields(reply);
      this.check(
        fields.every((f) => got.includes(f)),
        `fields naming ${fields.join(", ")}`,
        `fields ${JSON.stringify(got)}`,
      );
    }
  }

  /** Spec, Errors: `{"error": {"code", "message", "fields"?}}`. */
  envelope(reply: Reply): void {
    const e = errorOf(reply);
    const ok =
      e !== undefined &&
      typeof e.code === "string" &&
      typeof e.message === "string" &&
      (e.fields === undefined ||
        (Array.isArray(e.fields) &&
          e.fields.every((f: unknown) => isObject(f) && typeof f.field === "string" && typeof f.message === "string")));
    this.check(ok, "the error envelope {error: {code, message, fields?}}", reply.text.slice(0, 300));
  }

  /** Runs a fast-check property; a failure carries the minimal case, its seed and path, and its requests. */
  property<T>(
    arbitrary: fc.Arbitrary<T>,
    predicate: (value: T) => Promise<void>,
    numRuns = this.run.runs,
  ): Promise<void> {
    return runProperty(this, arbitrary, predicate, numRuns);
  }
}

/**
 * Tries after the first for a request safe to repeat, by how its answer was lost (a timeout has cost
 * the whole --timeout already), and the back-off before the first of them (doubling).
 */
const RETRIES = { dropped: 2, timeout: 1, refused: 0 } as const;
const BACK_OFF_MS = 500;

const hasHeader = (headers: Record<string, string>, name: string): boolean =>
  Object.keys(headers).some((h) => h.toLowerCase() === name);

/** A request the transport lost, named by how: a timeout, a refused connection, or a connection closed without an answer. */
function lostAnswer(method: string, url: string, error: unknown): NoAnswer {
  const message = (error as Error)?.message ?? String(error);
  const code = String((error as { code?: unknown })?.code ?? "");
  const how = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(`${code} ${message}`)
    ? "refused"
    : /timeout|within \d+ s/i.test(`${code} ${message}`)
      ? "timeout"
      : "dropped";
  return new NoAnswer(`an answer to ${method} ${url}`, `no answer: ${message}`, how);
}

/** A promise that rejects after `ms`: a target that never answers costs a failure, not a hang. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function errorSummary(reply: Reply): string {
  const e = bodyOf(reply)?.error;
  if (isObject(e)) return ` ${e.code ?? ""}${e.fields ? ` ${JSON.stringify(e.fields)}` : ""}`;
  if (typeof e === "string") return ` ${e}`;
  return "";
}
