import { COVERAGE_BRANCHES } from "../../src/contract/coverage-branches.js";
import { ERROR_STATUS } from "../../src/contract/errors.js";
import type { CoverageReport } from "../../src/contract/journal.js";
import { OPERATIONS } from "../../src/contract/operations/index.js";
import {
  ALTERNATIVES,
  PROJECTION,
  tierOf,
  type Alternative,
  type Outcome,
  type SpecQuote,
} from "../../src/contract/projection.js";
import { Router } from "../../src/contract/router.js";
import type { Snapshot } from "../../src/contract/schemas/snapshot.js";
import type { TargetResponse } from "../target.js";
import { comparePayload } from "./compare.js";
import { Opaque, Rows } from "./memory.js";
import { MODEL_ROOT, Model, type ModelAnswer } from "./model.js";
import { translate, type Sent, type Translated } from "./translate.js";

// The model in lockstep: every request the suite sends the target is sent to the model as well (after
// the target answered, with the target's opaque values replaced by the model's), and the two answers
// are compared on the projection (src/contract/projection.ts). Control-plane calls that change state
// are made on the model too. What the model cannot follow exactly (requests in flight together,
// injected faults, a server fault or no answer, a rate limit) is not compared: with a control plane
// the model starts again from the target's snapshot; without one, the rows concerned are set aside.

export interface Divergence {
  /** `PATCH /products/{id}`. */
  readonly operation: string;
  /** What differs, without values: failures with the same one are one problem. */
  readonly what: string;
  readonly predicted: string;
  readonly observed: string;
  readonly spec: SpecQuote;
}

/** What the suite knows of a generated request: the same request with each of its problems alone. */
export interface Asked {
  /** Requests the target may equally have answered as (each problem of a request with several). */
  readonly alternatives?: readonly Sent[];
}

export interface OracleStats {
  /** Answers compared with the model's. */
  compared: number;
  /** Answers not compared, by reason. */
  readonly skipped: Record<string, number>;
  /** Times the model started again from the target's state. */
  resyncs: number;
}

interface Route {
  readonly operation: string;
  /** `METHOD /path/template`. */
  readonly name: string;
}

const ROUTER = new Router<Route>();
for (const o of OPERATIONS) ROUTER.add(o.method, o.path, { operation: o.id, name: `${o.method} ${o.path}` });
const TOKEN: Route = { operation: "createToken", name: "POST {api_root}/oauth/token" };
const AUTHORIZE: Route = { operation: "authorize", name: "{auth_url}/oauth/authorize (the consent screen)" };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const WRITE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

const parse = (text: string): any => {
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
};
const is2xx = (status: number) => status >= 200 && status < 300;

/** An answer as the projection reads it: status, code (the envelope's or OAuth's), field names. */
function outcome(status: number, json: any): Outcome {
  const e = json?.error;
  const code = typeof e === "object" && e !== null ? e.code : typeof e === "string" ? e : undefined;
  const fields = Array.isArray(e?.fields) ? e.fields.map((f: any) => String(f?.field)) : undefined;
  return { status, ...(typeof code === "string" ? { code } : {}), ...(fields ? { fields } : {}) };
}

const describe = (o: Outcome) =>
  `${o.status}${o.code ? ` ${o.code}` : ""}${o.fields ? ` ${JSON.stringify(o.fields)}` : ""}`;

export interface OracleOptions {
  /** `{api_root}` of the target (its base URL without `/{prefix}/v1`). */
  readonly apiRoot: string;
  /** True when the model knows every row of the target (a control plane, no one else writing). */
  readonly wholeStore: boolean;
  /** Milliseconds date-times may differ. */
  readonly toleranceMs: number;
  /** The model knows the user who signs in at the consent screen (--oauth-user): it goes through the screen too. */
  readonly consents?: boolean;
  /** Takes the target's snapshot (control plane), for a fresh start; undefined without a control plane. */
  readonly snapshot?: () => Promise<Snapshot>;
}

export class Oracle {
  readonly stats: OracleStats = { compared: 0, skipped: {}, resyncs: 0 };
  private readonly opaque = new Opaque();
  private readonly rows = new Rows();
  /** Requests in flight, and whether any two overlapped since it was last zero. */
  private inFlight = 0;
  private overlapped = false;
  /** Set when the model may no longer match the target: it starts again before the next request. */
  private stale = false;
  private resyncing: Promise<boolean> | undefined;
  /** Faults are injected: answers are the fault's, and the target's state is not followed. */
  private faults = false;
  /** Target ids whose state the model does not know (written by a request it could not follow). */
  private readonly tainted = new Set<string>();
  /** Target ids seen in answers with no twin in the model: other people's rows. */
  private readonly seen = new Set<string>();
  /** Model ids of the rows the run created (without a control plane, lists are compared on these). */
  private readonly created = new Set<string>();
  /** Idempotency keys the target stored otherwise than the model (found when the model started again). */
  private readonly keysBefore = new Set<string>();
  /** The body the model was sent for each keyed request, by credential, key, request and the target's bytes. */
  private readonly keyed = new Map<string, string>();
  /** Fields the target adds to the rows it shows (`products:tags[].version`): left out of bodies the model is sent. */
  private readonly extras = new Set<string>();

  private constructor(
    private readonly model: Model,
    private readonly options: OracleOptions,
  ) {}

  /** A model started from this snapshot of the target (or of what the API shows of it). */
  static start(snapshot: Snapshot, options: OracleOptions, rateLimits: boolean): Oracle {
    const oracle = new Oracle(Model.from(snapshot, { rateLimits }), options);
    oracle.pairSnapshot(snapshot);
    return oracle;
  }

  coverage(): CoverageReport {
    return this.model.coverage();
  }

  /**
   * Call before the target is sent a request (then `exchange` or `control` once it answered, or did not).
   * A model that lost the target's state starts again here, before the target changes it further.
   */
  async begin(): Promise<{ concurrent: boolean }> {
    if (this.stale && this.inFlight === 0) {
      this.resyncing ??= this.resync().finally(() => {
        this.resyncing = undefined;
      });
      await this.resyncing;
    }
    this.inFlight += 1;
    if (this.inFlight > 1) this.overlapped = true;
    return { concurrent: this.overlapped };
  }

  private end(): boolean {
    this.inFlight -= 1;
    const overlapped = this.overlapped;
    if (this.inFlight === 0 && this.overlapped) {
      this.overlapped = false;
      // Without a control plane the rows those requests named are set aside (lose), and the rest goes on.
      if (this.options.snapshot) this.stale = true;
    }
    return overlapped;
  }

  private skip(reason: string, res?: TargetResponse): undefined {
    this.stats.skipped[reason] = (this.stats.skipped[reason] ?? 0) + 1;
    // Error codes the target answered where the model could not follow (faults, requests in flight together).
    const code = res && res.status >= 400 ? outcome(res.status, parse(res.body)).code : undefined;
    if (code !== undefined) this.observed.set(code, (this.observed.get(code) ?? 0) + 1);
    return undefined;
  }

  /** Error codes the target answered on exchanges the model did not follow, with how often. */
  readonly observed = new Map<string, number>();

  /**
   * Pairs every id and key of a snapshot with itself: the model holds the target's rows under their ids.
   * Versions and cursors keep their pairs: the model's are made of the target's sequence numbers.
   */
  private pairSnapshot(snapshot: Snapshot): void {
    const text = JSON.stringify(snapshot);
    this.opaque.rebase([
      ...new Set([...text.matchAll(UUID)].map((m) => m[0])),
      ...snapshot.credentials.flatMap((c) => (c.token ? [c.token] : [])),
    ]);
  }

  /** With a control plane, the model starts again from the target's state when it may have lost it. */
  private async resync(): Promise<boolean> {
    if (!this.options.snapshot) return false;
    const snapshot = await this.options.snapshot().catch(() => undefined);
    if (!snapshot) return false;
    // Keys the target stored otherwise than the model did (another spelling of the same request) cannot
    // be followed from here on; those stored alike can.
    const records = (doc: Snapshot) =>
      new Map(doc.idempotency.map((r) => [`${r.credential}\u0000${r.key}`, r.fingerprint]));
    const mine = records(this.model.snapshot());
    const theirs = records(snapshot);
    for (const [id, fingerprint] of theirs)
      if (mine.get(id) !== fingerprint) this.keysBefore.add(id.slice(id.indexOf("\u0000") + 1));
    this.model.restore(snapshot);
    this.pairSnapshot(snapshot);
    this.rows.restart();
    this.tainted.clear();
    this.stale = false;
    this.stats.resyncs += 1;
    return true;
  }

  /**
   * The model may have lost the target's state: start again, or (without a control plane) set the rows
   * aside. Only rows the run created can have changed: a request names reference rows too (an outlet, a
   * reason) that no API write changes, and setting those aside would stop the model at every later
   * write that names them.
   */
  private lose(ids: readonly string[]): void {
    if (this.options.snapshot) this.stale = true;
    for (const id of ids) if (this.created.has(this.opaque.model(id) ?? "")) this.tainted.add(id);
  }

  /**
   * A control-plane call the suite made on the target: the model makes it too when it changes state. The
   * back office is not the API, so its answers are not judged, but for the consent decision
   * (`/oauth/authorize`, the consent screen's): who may connect, with which scopes, PKCE and state.
   */
  async control(
    method: string,
    path: string,
    body: string | undefined,
    res: TargetResponse,
    concurrent: boolean,
  ): Promise<Divergence | undefined> {
    const overlapped = this.end() || concurrent;
    if (method === "GET") return undefined;
    if (/^\/faults/.test(path) && is2xx(res.status)) {
      this.faults = !(method === "DELETE" && path === "/faults");
      this.stale = true;
      return undefined;
    }
    const deciding = path === "/oauth/authorize";
    if (/^\/(reset|sandboxes)/.test(path) || overlapped || this.faults || (!is2xx(res.status) && !deciding)) {
      if (!/^\/sandboxes/.test(path)) this.stale = true;
      return undefined;
    }
    if (this.stale) return undefined;
    const json = parse(res.body);
    if (path === "/clock") {
      this.model.catchUp(Date.parse(json?.now));
      return undefined;
    }
    this.model.catchUp(instantOf(res));
    const mapped = translate(
      { method, url: `${MODEL_ROOT}/_sim${path}`, headers: { "content-type": "application/json" }, body },
      MODEL_ROOT,
      this.opaque,
      this.rows,
    );
    if (!mapped) return undefined;
    const answer = await this.model.send(mapped.request);
    const consent = deciding ? consentDivergence(answer, res, json) : undefined;
    if (consent || (answer.status !== res.status && !(is2xx(answer.status) && is2xx(res.status)))) {
      this.stale = true;
      return consent;
    }
    learnPairs(this.opaque, answer.json, json);
    for (const id of modelIdsCreated(answer.json)) this.created.add(id);
    return undefined;
  }

  /**
   * An API or token-endpoint exchange: the model is sent the same request and the answers compared.
   * A divergence when the target's answer is not one the spec allows where the model answers as it does.
   */
  async exchange(
    sent: Sent,
    res: TargetResponse | undefined,
    concurrent: boolean,
    asked: Asked = {},
  ): Promise<Divergence | undefined> {
    const overlapped = this.end() || concurrent;
    const apiRoot = this.options.apiRoot;
    if (!sent.url.startsWith(`${apiRoot}/`)) return undefined;
    const route = this.routeOf(sent.method, sent.url.slice(apiRoot.length).split("?")[0] as string);
    if (route === undefined) return undefined;
    if (res !== undefined) for (const m of res.body.matchAll(UUID)) this.seen.add(m[0].toLowerCase());
    const ids = (sent.url + (sent.body ?? "")).match(UUID)?.map((id) => id.toLowerCase()) ?? [];
    const write = WRITE.has(sent.method) && route.operation !== "createToken";
    if (this.faults) return this.skip("faults injected", res);
    if (overlapped) {
      if (write) this.lose(ids);
      return this.skip("requests in flight together", res);
    }
    if (res === undefined || res.status >= 500) {
      if (write || route.operation === "createToken") this.lose(ids);
      return this.skip(res === undefined ? "no answer" : "server error", res);
    }
    // Without a control plane the target's limits are its own (other credentials, real time): not followed.
    if (res.status === 429 && !this.options.wholeStore) return this.skip("rate limited");
    if (this.stale) return this.skip("the model lost the target's state");
    // A write the model does not follow leaves every row it names unknown to the model too: a stock
    // write at an outlet the model lost still made a level for the product it names.
    if (ids.some((id) => this.tainted.has(id))) {
      if (write) this.lose(ids);
      return this.skip("rows the model could not follow");
    }
    if (!this.options.wholeStore && ids.some((id) => this.seen.has(id) && this.opaque.model(id) === undefined)) {
      if (write) this.lose(ids);
      return this.skip("other people's rows");
    }
    this.model.catchUp(instantOf(res));
    const kind = /^\/[^/]+\/v1\/([^/?]+)/.exec(sent.url.slice(apiRoot.length))?.[1] ?? "";
    const strip = new Set(
      [...this.extras].filter((e) => e.startsWith(`${kind}:`)).map((e) => e.slice(kind.length + 1)),
    );
    // A key used before the model last started again is remembered as the target stored it, in its own
    // spelling of the request: the model cannot tell a retry of it from a reuse.
    const key = Object.entries(sent.headers).find(([k]) => k.toLowerCase() === "idempotency-key")?.[1];
    if (key !== undefined && this.keysBefore.has(key)) {
      this.lose(ids);
      return this.skip("a key the target stored otherwise than the model");
    }
    const mapped = this.sameBytes(sent, translate(sent, apiRoot, this.opaque, this.rows, strip));
    if (!mapped) return undefined;
    const before = write && !this.options.snapshot ? this.model.snapshot() : undefined;
    const answer = await this.model.send({ ...mapped.request, path: mapped.request.path });
    this.stats.compared += 1;
    const judged = await this.judge(route, sent, mapped, res, answer, asked);
    // A divergence in an answer both sides gave as a success (a header, a field) leaves the write made on
    // both: the model keeps it, and sets the rows it names aside.
    const bothDid = judged.divergence !== undefined && is2xx(answer.status) && is2xx(res.status);
    const kept = !(judged.undo || judged.divergence) || bothDid;
    if (kept && write && is2xx(answer.status)) for (const id of modelIdsCreated(answer.json)) this.created.add(id);
    if (!kept) {
      if (before) this.model.restore(before);
      else if (this.options.snapshot) this.stale = true;
    } else if (bothDid && this.options.snapshot) this.stale = true;
    if (judged.divergence && !this.options.snapshot)
      this.lose([...ids, ...(res.body.match(UUID) ?? []).map((id) => id.toLowerCase())]);
    return judged.divergence;
  }

  /**
   * A keyed request sent again with the same bytes is sent to the model with the same bytes it was
   * first (pairs learnt in between could otherwise spell its ids anew): "same body" is the bytes.
   */
  private sameBytes(sent: Sent, mapped: Translated | undefined): Translated | undefined {
    const header = (h: Record<string, string>, name: string) =>
      Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];
    const key = header(sent.headers, "idempotency-key");
    if (!mapped || key === undefined || sent.body === undefined) return mapped;
    const id = `${header(sent.headers, "authorization") ?? ""}\u0000${key}\u0000${sent.method} ${sent.url}\u0000${sent.body}`;
    const first = this.keyed.get(id);
    if (first !== undefined) return { ...mapped, request: { ...mapped.request, body: first } };
    if (this.keyed.size < 50_000 && mapped.request.body !== undefined) this.keyed.set(id, mapped.request.body);
    return mapped;
  }

  private routeOf(method: string, path: string): Route | undefined {
    if (path === "/oauth/token") return method === "POST" ? TOKEN : undefined;
    // The consent screen is a page for a person: the model goes through it too (with a control plane,
    // where it knows the users), and only where it sends the browser is compared.
    if (path === "/oauth/authorize") return this.options.wholeStore || this.options.consents ? AUTHORIZE : undefined;
    const m = /^\/[^/]+\/v1(\/.*)$/.exec(path);
    if (!m) return undefined;
    return (
      ROUTER.match(method, m[1] as string)?.route ?? { operation: "unknown", name: `${method} (no such operation)` }
    );
  }

  /** The target's answer against the model's: allowed, allowed with the model's write undone, or a divergence. */
  private async judge(
    route: Route,
    sent: Sent,
    mapped: Translated,
    res: TargetResponse,
    answer: ModelAnswer,
    asked: Asked,
  ): Promise<{ divergence?: Divergence; undo?: boolean }> {
    if (route === AUTHORIZE) {
      // The sign-in's ticket the page carries is the server's: paired like any opaque value.
      const ticket = (html: string) => /name="ticket" value="([^"]*)"/.exec(html)?.[1];
      const [mt, tt] = [ticket(answer.text), ticket(res.body)];
      if (mt !== undefined && tt !== undefined) this.opaque.pair(mt, tt);
      const location = (headers: Record<string, string>) => ({ redirect_to: headers.location ?? null });
      const page = consentDivergence(
        {
          ...answer,
          status: answer.status >= 300 && answer.status < 400 ? 200 : answer.status,
          json: location(answer.headers),
        },
        { ...res, status: res.status >= 300 && res.status < 400 ? 200 : res.status },
        location(res.headers),
      );
      if (page) return { divergence: { ...page, operation: route.name } };
      // The code the screen sends the browser to the app with is the server's: paired like any opaque value.
      learnPairs(this.opaque, answer.headers.location ?? null, res.headers.location ?? null);
      return {};
    }
    const tJson = parse(res.body);
    const m = outcome(answer.status, answer.json);
    const t = outcome(res.status, tJson);
    const diverge = (
      what: string,
      predicted: string,
      observed: string,
      spec?: SpecQuote,
    ): { divergence: Divergence } => ({
      divergence: {
        operation: route.name,
        what,
        predicted,
        observed,
        spec: spec ?? this.specOf(route, m),
      },
    });
    const sameOutcome =
      (is2xx(m.status) && is2xx(t.status) && (m.status === 204) === (t.status === 204)) ||
      (m.status === t.status && m.code === t.code);
    if (!sameOutcome) {
      // A path the model does not serve that the target does: one the spec does not show (it may have moved
      // a "not shown" path). Nothing to predict, and the target's state may have changed.
      if (route.operation === "unknown" && m.status === 404 && t.status !== 404) {
        this.lose(mapped.ids);
        this.stats.compared -= 1;
        return { undo: false };
      }
      const alternative = this.alternative(route, mapped, m, t);
      if (alternative?.ignores && !is2xx(m.status)) {
        // The target ignored fields the spec lets it ignore: the model is asked without them.
        const body = parse(mapped.request.body ?? "");
        for (const field of alternative.ignores) delete body[field];
        const again = await this.model.send({ ...mapped.request, body: JSON.stringify(body) });
        return this.judge(
          route,
          sent,
          { ...mapped, request: { ...mapped.request, body: JSON.stringify(body) } },
          res,
          again,
          asked,
        );
      }
      if (alternative) return { undo: alternative.effect === "none" && is2xx(m.status) };
      if (!is2xx(m.status) && !is2xx(t.status) && (await this.otherProblem(route, m, t, asked))) return {};
      return diverge(
        is2xx(m.status) || is2xx(t.status) ? "success or refusal" : "status and error code",
        describe(m),
        describe(t),
      );
    }
    // Same outcome: the details the spec fixes.
    if (m.status === 429) {
      // Spec, Limits: "A 429 carries Retry-After (seconds)": waiting that long must be enough.
      const wait = Number(res.headers["retry-after"]);
      const least = Number(answer.headers["retry-after"]);
      if (!(wait >= least))
        return diverge("Retry-After", `at least ${least} s (the window's end)`, String(res.headers["retry-after"]), {
          section: "Limits",
          quote: "A 429 carries Retry-After (seconds).",
        });
    }
    if (!is2xx(m.status)) {
      const fields = compareFields(m.fields, t.fields);
      if (fields && !(await this.otherProblem(route, m, t, asked)))
        return diverge(
          "error fields",
          JSON.stringify(m.fields ?? []),
          JSON.stringify(t.fields ?? []),
          this.specOf(route, m),
        );
      if (m.code !== "IMAGE_FETCH_FAILED") return {};
    }
    const replayed = answer.headers["idempotent-replayed"] === "true";
    if (is2xx(m.status) && replayed !== (res.headers["idempotent-replayed"]?.trim() === "true"))
      return diverge(
        "Idempotent-Replayed",
        replayed ? "Idempotent-Replayed: true" : "no Idempotent-Replayed: true",
        String(res.headers["idempotent-replayed"] ?? "(none)"),
        {
          section: "Limits",
          quote:
            "A retry with the same key and same body returns the same status and data with header Idempotent-Replayed: true.",
        },
      );
    const projection = PROJECTION[route.operation] ?? { spec: this.specOf(route, m) };
    const written = WRITE.has(sent.method) ? mapped.ids.find((id) => mapped.path.includes(id)) : undefined;
    const sentBody = parse(sent.body ?? "");
    const sentKeys =
      sentBody && typeof sentBody === "object" && !Array.isArray(sentBody) ? new Set(Object.keys(sentBody)) : undefined;
    const ctx = {
      projection,
      opaque: this.opaque,
      rows: this.rows,
      ...(written ? { written } : {}),
      ...(sentKeys && WRITE.has(sent.method) ? { sent: sentKeys } : {}),
      toleranceMs: this.options.toleranceMs,
      roots: [MODEL_ROOT, this.options.apiRoot] as const,
      isWalkIn: (id: string) => this.isWalkIn(id),
      replay: replayed,
      ...(mapped.ids[0] !== undefined && mapped.path.includes(mapped.ids[0]) ? { pathRow: mapped.ids[0] } : {}),
      extra: (field: string) => this.extras.add(`${/^\/[^/]+\/v1\/([^/?]+)/.exec(mapped.path)?.[1] ?? ""}:${field}`),
    };
    let modelData = answer.json?.data;
    let targetData = tJson?.data;
    if (route.operation === "createToken") {
      modelData = answer.json;
      targetData = tJson;
    }
    if (answer.json && "has_more" in answer.json) {
      const list = this.compareList(answer.json, tJson);
      if (list) return diverge(list.what, list.predicted, list.observed, PAGINATION);
      if (!this.options.wholeStore) {
        const own = this.ownRows(await this.fullList(mapped), targetData);
        if (typeof own === "string")
          return diverge("rows of the list", "the run's rows the model lists, in its order", own, ORDER);
        [modelData, targetData] = own;
      }
    }
    this.remember(route, sentBody, answer.json?.data, tJson?.data, written);
    for (const [field, { prefix, spec }] of Object.entries(projection.generated ?? {})) {
      const value = tJson?.data?.[field];
      if (
        is2xx(t.status) &&
        sentBody &&
        !Object.hasOwn(sentBody, field) &&
        !(typeof value === "string" && value.startsWith(prefix))
      )
        return diverge(`data.${field} (generated)`, `a value that starts with ${prefix}`, JSON.stringify(value), spec);
    }
    const differences = comparePayload(ctx, modelData, targetData);
    const first = differences[0];
    if (!first) return {};
    return diverge(
      `${first.path} (${first.kind})${differences.length > 1 ? ` and ${differences.length - 1} more` : ""}`,
      `${first.expected}`,
      differences
        .slice(0, 3)
        .map((d) => `${d.path}: ${JSON.stringify(d.observed)?.slice(0, 120) ?? "(absent)"}`)
        .join("; "),
      first.kind === "version" ? VERSION : projection.spec,
    );
  }

  /** The paging fields of a list: has_more exactly, next_cursor null on an empty page and a cursor when more follow. */
  private compareList(m: any, t: any): { what: string; predicted: string; observed: string } | undefined {
    if (typeof t !== "object" || t === null || !Array.isArray(t.data))
      return {
        what: "list envelope",
        predicted: "{data: [...], next_cursor, has_more}",
        observed: JSON.stringify(t)?.slice(0, 120) ?? "",
      };
    if (this.options.wholeStore && t.has_more !== m.has_more)
      return { what: "has_more", predicted: String(m.has_more), observed: String(t.has_more) };
    if (t.data.length === 0 && t.next_cursor !== null)
      return { what: "next_cursor of an empty page", predicted: "null", observed: JSON.stringify(t.next_cursor) };
    if (t.has_more === true && typeof t.next_cursor !== "string")
      return {
        what: "next_cursor when more rows follow",
        predicted: "a cursor",
        observed: JSON.stringify(t.next_cursor),
      };
    if (typeof m.next_cursor === "string" && typeof t.next_cursor === "string")
      this.opaque.pair(m.next_cursor, t.next_cursor);
    return undefined;
  }

  /**
   * Without a control plane a page also holds other people's rows and ends elsewhere: each of the run's
   * rows the target lists must be one the model lists for the same query, in the model's order.
   */
  private ownRows(full: unknown[], t: unknown): [unknown[], unknown[]] | string {
    const mine: unknown[] = [];
    const theirs: unknown[] = [];
    let last = -1;
    for (const row of Array.isArray(t) ? t : []) {
      const id = (row as { id?: unknown })?.id;
      if (typeof id !== "string" || this.tainted.has(id)) continue;
      const twin = this.opaque.model(id);
      if (twin === undefined || !this.created.has(twin)) continue;
      const at = full.findIndex((m) => (m as { id?: unknown })?.id === twin);
      if (at < 0) return `${id}, which the model does not list for this query`;
      if (at < last) return `${id} before a row the model lists ahead of it`;
      last = at;
      mine.push(full[at]);
      theirs.push(row);
    }
    return [mine, theirs];
  }

  /** Every row the model lists for a query, all pages (on a copy of the model, which this leaves as it was). */
  private async fullList(mapped: Translated): Promise<unknown[]> {
    const fork = this.model.fork();
    const query = new URLSearchParams(mapped.request.query);
    query.delete("cursor");
    query.set("limit", "200");
    const rows: unknown[] = [];
    for (let page = 0; page < 100; page++) {
      const a = await fork.send({ ...mapped.request, method: "GET", query: query.toString() });
      if (!Array.isArray(a.json?.data)) break;
      rows.push(...a.json.data);
      if (a.json.has_more !== true || typeof a.json.next_cursor !== "string") break;
      query.set("cursor", a.json.next_cursor);
    }
    return rows;
  }

  /** After a write's answers were compared: the fields the server chose on the rows it wrote. */
  private remember(route: Route, body: any, m: any, t: any, written: string | undefined): void {
    const projection = PROJECTION[route.operation];
    if (!projection) return;
    const rowOf = (doc: any) => (typeof doc?.id === "string" ? doc.id : undefined);
    if (projection.defaults && body && typeof body === "object") {
      if (projection.learnIds) {
        // The variants call: its children are paired by their place in the answer, whatever its shape.
        const mine = objectsWithIds(m);
        const theirs = objectsWithIds(t);
        const asked: any[] = Array.isArray(body.variants) ? body.variants : [];
        mine.forEach((child, i) => {
          const twin = theirs[i];
          if (!twin) return;
          this.opaque.pair(child.id, twin.id);
          this.created.add(child.id);
          for (const field of Object.keys(child))
            if (
              !["id", "version", "created_at", "updated_at", "variant_parent_id", "variant_options"].includes(field) &&
              !Object.hasOwn(asked[i] ?? {}, field)
            )
              this.rows.choose(twin.id, field);
        });
      } else if (rowOf(t) !== undefined && m && typeof m === "object") {
        for (const field of Object.keys(m))
          if (!Object.hasOwn(body, field) && !["id", "version", "created_at", "updated_at"].includes(field))
            this.rows.choose(rowOf(t), field);
      }
    }
    if (projection.chosen && written) for (const field of projection.chosen) this.rows.choose(written, field);
  }

  /** An allowed alternative answer (src/contract/projection.ts, ALTERNATIVES), if one fits. */
  private alternative(route: Route, mapped: Translated, m: Outcome, t: Outcome, last = true): Alternative | undefined {
    const sub = mapped.path.replace(/^\/[^/]+\/v1/, "");
    const headers = Object.fromEntries(Object.entries(mapped.request.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const text = mapped.request.body ?? "";
    const body = /x-www-form-urlencoded/i.test(headers["content-type"] ?? "")
      ? Object.fromEntries(new URLSearchParams(text))
      : parse(text);
    const asked = { method: mapped.request.method, path: sub, body, headers };
    let branches: readonly string[] | undefined;
    const matches = (want: { status?: number | "2xx"; code?: string }, o: Outcome) =>
      (want.status === undefined || (want.status === "2xx" ? is2xx(o.status) : want.status === o.status)) &&
      (want.code === undefined || want.code === o.code);
    return ALTERNATIVES.find((a) => {
      if (a.operations && !a.operations.includes(route.operation)) return false;
      if (!matches(a.model, m) || !a.target.some((want) => matches(want, t))) return false;
      if (a.model.branch) {
        // The rule branch of the model's own answer: not known for a question put to a copy of it.
        if (!last) return false;
        branches ??= this.model.lastBranches();
        if (!branches.includes(a.model.branch)) return false;
      }
      return a.when === undefined || a.when(asked, m);
    });
  }

  /**
   * Two refusals of different problems: allowed where the spec does not fix which answers first, and
   * the target's is one the request has (a problem of the generated request, or one of its tier).
   */
  private async otherProblem(route: Route, m: Outcome, t: Outcome, asked: Asked): Promise<boolean> {
    const tm = tierOf(m.status, m.code);
    const tt = tierOf(t.status, t.code);
    if (tm !== tt || tm === 1) return false;
    if (route.operation === "unknown" || m.code === undefined || t.code === undefined) return false;
    if ((ERROR_STATUS as Record<string, number>)[t.code] !== t.status) return false;
    // A rule's own request: the rule says what it expects; here only that the problem is of the same tier.
    if (!asked.alternatives) return true;
    const fork = this.model.fork();
    for (const [i, alternative] of asked.alternatives.entries()) {
      // The request itself is recorded under its key by now: each alternative is asked under a key of its own.
      const key = Object.keys(alternative.headers).find((k) => k.toLowerCase() === "idempotency-key");
      const other =
        key && /^[\x21-\x7E]{1,240}$/.test(alternative.headers[key] as string)
          ? { ...alternative, headers: { ...alternative.headers, [key]: `${alternative.headers[key]}~${i}` } }
          : alternative;
      const mapped = translate(other, this.options.apiRoot, this.opaque, this.rows);
      if (!mapped) continue;
      const a = await fork.send(mapped.request);
      const o = outcome(a.status, a.json);
      // The target's answer to this problem alone, or one the spec allows in its place.
      const same = o.status === t.status && o.code === t.code && compareFields(o.fields, t.fields) === undefined;
      if (same || this.alternative(route, mapped, o, t, false)) return true;
    }
    return false;
  }

  private isWalkIn(modelId: string): boolean {
    for (const store of this.model.sim.world.stores.values()) if (store.customers.walkInId === modelId) return true;
    return false;
  }

  /** The spec sentence behind the model's answer: the rule branches it took, else the operation's. */
  private specOf(route: Route, m: Outcome): SpecQuote {
    const branch = this.model.lastBranches()[0];
    const found = branch ? COVERAGE_BRANCHES.find((b) => b.id === branch) : undefined;
    if (found) return found.spec;
    if (m.code && m.code in ERROR_STATUS)
      return { section: "Errors", quote: `${m.code} | ${(ERROR_STATUS as Record<string, number>)[m.code]}` };
    return PROJECTION[route.operation]?.spec ?? { section: "Endpoints", quote: route.name };
  }
}

const VERSION: SpecQuote = {
  section: "Resources and their fields",
  quote: "Every resource row carries version, an opaque string that increases with every change to that row.",
};
const ORDER: SpecQuote = {
  section: "Endpoints: Pagination and polling rules",
  quote: "Rows come oldest change first.",
};
const PAGINATION: SpecQuote = {
  section: "Endpoints",
  quote: "Response: {data: [...], next_cursor: string or null, has_more: boolean}.",
};

/**
 * `fields` of two refusals: the target names problems the model found (a name, or one of its parents or
 * children: `lines.2` for `lines.2.sku`), in any order. Undefined when they agree.
 */
function compareFields(m: readonly string[] | undefined, t: readonly string[] | undefined): string | undefined {
  if (m === undefined || m.length === 0) return t === undefined ? undefined : "fields on a refusal that names none";
  if (t === undefined || t.length === 0) return "no fields";
  const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
  const modelRoots = m.filter((f) => f !== "body" && f !== "query");
  if (t.some((f) => !modelRoots.some((g) => related(f, g)) && f !== "body" && f !== "query"))
    return "a field the request has no problem with";
  return undefined;
}

/** The first array of objects with ids in an answer (a variants call answers in a shape of its own). */
function objectsWithIds(v: unknown): { id: string; [k: string]: unknown }[] {
  if (Array.isArray(v)) {
    if (v.length > 0 && v.every((x) => typeof x?.id === "string")) return v;
    return [];
  }
  if (v !== null && typeof v === "object")
    for (const child of Object.values(v)) {
      const found = objectsWithIds(child);
      if (found.length > 0) return found;
    }
  return [];
}

/** Ids of the rows a successful write's answer shows (the run's own rows). */
function modelIdsCreated(json: any): string[] {
  const data = json?.data ?? json;
  if (Array.isArray(data))
    return data.map((d) => d?.id ?? d?.product_id).filter((id): id is string => typeof id === "string");
  return typeof data?.id === "string" ? [data.id] : [];
}

const DATE_TIME = /"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)"/g;

/**
 * When the target answered, as closely as its answer tells: its `Date` (to the second), or a later
 * date-time the answer carries (a row it wrote then, to the millisecond), never past the `Date`'s second.
 */
function instantOf(res: TargetResponse): number {
  const date = Date.parse(res.headers.date ?? "");
  let at = date;
  for (const m of res.body.matchAll(DATE_TIME)) {
    const t = Date.parse(m[1] as string);
    if (t > (Number.isNaN(at) ? -Infinity : at) && (Number.isNaN(date) || t < date + 1000)) at = t;
  }
  return at;
}

const CONSENT: SpecQuote = {
  section: "Authentication",
  quote:
    "Step 2: the merchant allows or cancels; the redirect carries code and the echoed state, or error=access_denied.",
};

/**
 * The consent decision (the headless consent screen): refused or not as the model decides, and the
 * redirect carrying what the model's does (`code` or `error`, the echoed `state`); a code's value is opaque.
 */
function consentDivergence(model: ModelAnswer, res: TargetResponse, json: any): Divergence | undefined {
  const op = "POST {control}/oauth/authorize (the consent screen)";
  const diverge = (what: string, predicted: string, observed: string): Divergence => ({
    operation: op,
    what,
    predicted,
    observed,
    spec: CONSENT,
  });
  if (is2xx(model.status) !== is2xx(res.status))
    return diverge(
      "the decision",
      `${model.status} ${model.text.slice(0, 120)}`,
      `${res.status} ${res.body.slice(0, 120)}`,
    );
  if (!is2xx(model.status)) return undefined;
  const at = (text: unknown) => {
    try {
      return new URL(String(text));
    } catch {
      return undefined;
    }
  };
  const m = at(model.json?.redirect_to);
  const t = at(json?.redirect_to);
  if (!m || !t)
    return m === t ? undefined : diverge("redirect_to", String(model.json?.redirect_to), String(json?.redirect_to));
  for (const name of new Set([...m.searchParams.keys(), ...t.searchParams.keys()])) {
    const mv = m.searchParams.get(name);
    const tv = t.searchParams.get(name);
    if ((mv === null) !== (tv === null) || (name !== "code" && mv !== tv))
      return diverge(`the redirect's ${name}`, JSON.stringify(mv), JSON.stringify(tv));
  }
  return undefined;
}

/** Pairs the opaque values of two answers of the same shape (a control call's: keys, sales, codes in URLs). */
function learnPairs(opaque: Opaque, m: unknown, t: unknown): void {
  if (typeof m === "string" && typeof t === "string") {
    if (m === t) return;
    if (/^https?:\/\//.test(m) && /^https?:\/\//.test(t)) {
      const mq = new URL(m).searchParams;
      const tq = new URL(t).searchParams;
      for (const [k, v] of mq) {
        const w = tq.get(k);
        if (w !== null && w !== v) opaque.pair(v, w);
      }
      return;
    }
    if (!/\s/.test(m)) opaque.pair(m, t);
    return;
  }
  if (Array.isArray(m) && Array.isArray(t)) {
    m.forEach((item, i) => {
      learnPairs(opaque, item, t[i]);
    });
    return;
  }
  if (m !== null && typeof m === "object" && t !== null && typeof t === "object")
    for (const [k, v] of Object.entries(m)) learnPairs(opaque, v, (t as Record<string, unknown>)[k]);
}
