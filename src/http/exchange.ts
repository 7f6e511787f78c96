import { type BranchExchange, COVERAGE_BRANCHES, type CoverageBranch } from "../contract/coverage-branches.js";
import { ERROR_STATUS, isErrorCode } from "../contract/errors.js";
import { OPERATIONS_BY_ID } from "../contract/operations/index.js";
import type { JournalEntry, JournalMessage } from "../contract/journal.js";
import { iso } from "../kernel/clock.js";
import {
  answerText,
  type Captured,
  capture,
  captureAnswer,
  capturedBytes,
  cut,
  decoded,
  type Head,
  kept,
  NO_BODY,
} from "./capture.js";
import { HeaderPairs } from "./header-pairs.js";
import { redactBody, redactForm, redactHeaders } from "./redact.js";
import { BRANCHES, type SimRequest, type SimResponse } from "./types.js";

// One exchange as the journal keeps it: the start of each body, secrets and personal details redacted,
// the error code, and the rule branches it exercised (contract/coverage-branches.ts).

/** `RecordedExchange.finals`: which captures are final, redacted text. */
const SENT_FINAL = 1;
const ANSWER_FINAL = 2;

/** One side of an entry; its body redacted now unless `redact` is false (it was when recorded, or needs not be). */
function message(
  headers: Readonly<Record<string, string | undefined>>,
  start: { text: string | null; bytes: number },
  cap: number,
  redact: boolean,
): JournalMessage {
  const text = start.text === null || !redact ? start.text : cut(redactBody(headers["content-type"], start.text), cap);
  return { headers: redactHeaders(headers), body: text, body_bytes: start.bytes, truncated: start.bytes > cap };
}

const API_CODE = /"error":\{"code":"([A-Za-z_]{1,64})"/;
const OAUTH_CODE = /^\{"error":"([a-z_]{1,64})"/;

/** The status of an API error code; an OAuth error's statuses vary (0: any). */
const ERROR_STATUS_OF = (code: string): number => (isErrorCode(code) ? ERROR_STATUS[code] : 0);

/**
 * The branches that can happen on each operation (null: on any), by status (0: on any), so an exchange
 * is tested only against the few that could be it.
 */
const INDEX = new Map<string | null, Map<number, CoverageBranch[]>>();
for (const branch of COVERAGE_BRANCHES) {
  if (branch.marked) continue;
  const codes = branch.code === undefined ? branch.codeIn : [branch.code];
  const statuses =
    branch.status !== undefined
      ? [branch.status]
      : codes === undefined
        ? [0]
        : [...new Set(codes.map(ERROR_STATUS_OF))];
  for (const op of branch.operations ?? [null]) {
    const byStatus = INDEX.get(op) ?? new Map<number, CoverageBranch[]>();
    for (const status of statuses) byStatus.set(status, [...(byStatus.get(status) ?? []), branch]);
    INDEX.set(op, byStatus);
  }
}

const NONE: readonly CoverageBranch[] = [];

/**
 * Whether a branch can be met on an operation at all: a replay only where an Idempotency-Key is taken,
 * and a branch that needs a text in the query only on an exchange that has a query.
 */
function canMeet(branch: CoverageBranch, operation: string | null, hasQuery: boolean): boolean {
  if (branch.queryHas !== undefined && !hasQuery) return false;
  const op = operation === null ? undefined : OPERATIONS_BY_ID.get(operation);
  return !(branch.replayed && op?.idempotency === "none");
}

/**
 * The candidates of an operation and status, for an exchange with a query or without, merged once and
 * kept: most have none (a `GET /products/{id}` answered 200 has none).
 */
const MERGED = [new Map<string | null, Map<number, readonly CoverageBranch[]>>(), new Map()];
function candidates(operation: string | null, status: number, hasQuery: boolean): readonly CoverageBranch[] {
  const merged = MERGED[hasQuery ? 1 : 0] as Map<string | null, Map<number, readonly CoverageBranch[]>>;
  let byStatus = merged.get(operation);
  if (byStatus === undefined) merged.set(operation, (byStatus = new Map()));
  let list = byStatus.get(status);
  if (list === undefined) {
    const of = (op: string | null) => [...(INDEX.get(op)?.get(status) ?? []), ...(INDEX.get(op)?.get(0) ?? [])];
    const all = operation === null ? of(null) : [...of(operation), ...of(null)];
    const met = all.filter((branch) => canMeet(branch, operation, hasQuery));
    list = met.length === 0 ? NONE : met;
    byStatus.set(status, list);
  }
  return list;
}

/** What can be told of a branch without reading the exchange: false when it cannot be this one. */
function possible(branch: CoverageBranch, req: SimRequest, response: SimResponse, code: string | null): boolean {
  if (branch.status !== undefined && branch.status !== response.status) return false;
  if (branch.code !== undefined && branch.code !== code) return false;
  if (branch.codeIn !== undefined && (code === null || !branch.codeIn.includes(code))) return false;
  if (branch.queryHas !== undefined && !req.query.includes(branch.queryHas)) return false;
  return branch.replayed === undefined || response.headers["idempotent-replayed"] === "true";
}

/** An exchange as the catalogue's tests read it: each part worked out at its first use. */
class Exchange implements BranchExchange {
  private query?: URLSearchParams;
  private formFields?: URLSearchParams;
  private text?: string;

  constructor(
    private readonly req: SimRequest,
    private readonly response: SimResponse,
    readonly operation: string | null,
    readonly code: string | null,
    private readonly answerText: () => string,
    private readonly sentText: () => string | null,
  ) {}

  get status(): number {
    return this.response.status;
  }

  get replayed(): boolean {
    return this.response.headers["idempotent-replayed"] === "true";
  }

  get responseText(): string {
    this.text ??= this.answerText();
    return this.text;
  }

  param(name: string): string | undefined {
    if (!this.req.query.includes(name)) return undefined;
    this.query ??= new URLSearchParams(this.req.query);
    return this.query.get(name) ?? undefined;
  }

  header(name: string): string | undefined {
    return this.req.headers[name];
  }

  answerHeader(name: string): string | undefined {
    return this.response.headers[name];
  }

  form(name: string): string | undefined {
    this.formFields ??= new URLSearchParams(this.sentText() ?? "");
    return this.formFields.get(name) ?? undefined;
  }
}

/** What holds a recorded exchange: asked to let its oldest go (see `JournalLedger`). */
export interface ExchangeOwner {
  dropOldest(byLedger: boolean): void;
}

/**
 * One exchange as recorded: what coverage needs (its status, error code and rule branches) worked out
 * at once, the rest kept raw (the start of each body, the headers) and turned into a redacted
 * `JournalEntry` only when the journal is read, so that recording costs little per request.
 *
 * What an entry keeps alive is what the collector copies while it is young and marks once it is old
 * (docs/performance.md, The journal), so an entry keeps as little that is new as it can: a full
 * ring's oldest entry is filled again with the newest exchange (`fill`), with its own arrays for the
 * headers and the parts of an answer assembled from cached rows; and a header value, path or query
 * equal to the one the journal's newest entry holds is kept as that entry's string, the way HTTP/2's
 * header compression refers to a value already sent. The fresh strings of a request then die young.
 */
export class RecordedExchange {
  code: string | null = null;
  branches: readonly string[] = NO_BRANCHES;
  /** About what it holds in memory, in bytes. */
  bytes = 0;
  status = 0;
  injected = false;
  method = "";
  path = "";
  /** False once its journal let it go (its parts are then released). */
  held = false;
  seq = 0;
  /** When it arrived, on the sandbox's clock (epoch ms). */
  startedAt = 0;
  /** Real time spent answering it, in whole microseconds. */
  durationUs = 0;
  operation: string | null = null;
  private query = "";
  // The captures of the bodies as fields (no object of their own for the collector to copy).
  private sentHead: Head = null;
  private sentBytes = 0;
  private answerHead: Head = null;
  private answerBytes = 0;
  /** SENT_FINAL | ANSWER_FINAL: which capture is final, redacted text. */
  private finals = 0;
  /** The request's headers, redacted. */
  private readonly requestHeaders = new HeaderPairs();
  /** The answer's headers (redacted at once when the exchange may carry secrets, else when read). */
  private readonly responseHeaders = new HeaderPairs();
  /** The parts of an answer assembled from cached rows (the first `partCount`), when `answerHead` is them. */
  private parts: Uint8Array[] = [];
  private partCount = 0;

  constructor(
    readonly owner: ExchangeOwner,
    /** Bytes of each body kept. */
    readonly bodyCap: number,
  ) {}

  /**
   * Records one answered exchange into this entry (a new one, or its journal's oldest let go), sharing
   * the strings equal to those of `newest`, the journal's newest entry.
   */
  fill(
    req: SimRequest,
    response: SimResponse,
    seq: number,
    startedAt: number,
    durationMs: number,
    operation: string | null,
    newest: RecordedExchange | undefined,
  ): void {
    const bodyCap = this.bodyCap;
    // Nothing secret is kept raw: the request's headers and query are redacted at once, and so are the
    // bodies of the exchanges that carry personal details or secrets (customers, the OAuth endpoints,
    // paths no route matched) and a request body longer than the cap, whole, before they are cut, so an
    // erasure leaves no detail in the journal. Such an exchange is recorded as soon as it is answered;
    // any other waits until its event loop's turn ends (JournalLedger.hand), and its request body (all
    // of it within the cap) is redacted when read. The answers of the other operations hold neither.
    const eager = carriesSecrets(operation);
    const sentNow = eager || (req.body !== null && req.body.length > bodyCap);
    let sent = capture(req.body, bodyCap);
    let answer = captureAnswer(response, bodyCap);
    const prior = newest?.held === true ? newest : undefined;
    this.held = true;
    this.seq = seq;
    this.startedAt = startedAt;
    this.operation = operation;
    this.durationUs = Math.round(durationMs * 1000);
    this.method = shared(req.method, prior?.method);
    this.path = shared(req.path, prior?.path);
    const query = req.query === "" ? "" : redactForm(req.query);
    this.query = shared(query, prior?.query);
    this.status = response.status;
    this.injected = response.injected === true;
    this.code = response.status < 400 ? null : errorCode(answerText(response, answer, bodyCap));
    this.branches = branchesOf(req, response, operation, this.code, answer, sent, bodyCap);
    if (sentNow) sent = redacted(req.headers, req.body, bodyCap);
    if (eager) answer = redacted(response.headers, response.body, bodyCap);
    this.finals = (sent.text ? SENT_FINAL : 0) | (answer.text ? ANSWER_FINAL : 0);
    this.sentHead = sent.head;
    this.sentBytes = sent.bytes;
    this.answerHead = this.keepParts(answer.head);
    this.answerBytes = answer.bytes;
    let chars = req.path.length + query.length;
    chars += this.requestHeaders.fill(req.headers, true, prior?.requestHeaders);
    chars += this.responseHeaders.fill(response.headers, eager, prior?.responseHeaders);
    this.bytes = 2 * chars + capturedBytes(sent) + capturedBytes(answer) + 400;
  }

  /** Lets go of its headers and bodies (its journal no longer holds it). */
  release(): void {
    this.held = false;
    this.sentHead = null;
    this.answerHead = this.keepParts(null);
    this.requestHeaders.clear();
    this.responseHeaders.clear();
  }

  /** The redacted entry, made at each read (the journal keeps only what it recorded). */
  toEntry(): JournalEntry {
    const cap = this.bodyCap;
    const answerHead = this.answerHead === this.parts ? this.parts.slice(0, this.partCount) : this.answerHead;
    return {
      seq: this.seq,
      started_at: iso(this.startedAt),
      duration_ms: this.durationUs / 1000,
      method: this.method,
      path: this.path,
      query: this.query,
      operation: this.operation,
      status: this.status,
      code: this.code,
      branches: this.branches,
      injected: this.injected,
      request: message(
        this.requestHeaders.record(),
        decoded(kept(this.sentHead, this.sentBytes, (this.finals & SENT_FINAL) !== 0), cap),
        cap,
        (this.finals & SENT_FINAL) === 0,
      ),
      response: message(
        this.responseHeaders.record(),
        decoded(kept(answerHead, this.answerBytes, (this.finals & ANSWER_FINAL) !== 0), cap),
        cap,
        false,
      ),
    };
  }

  /** An answer's parts copied into the entry's own array (the answer's list then dies young); the head kept. */
  private keepParts(head: Head): Head {
    const kept = this.parts;
    if (!Array.isArray(head)) {
      kept.fill(EMPTY_PART, 0, this.partCount);
      this.partCount = 0;
      return head;
    }
    const parts = head as readonly Uint8Array[];
    if (parts.length > kept.length) {
      // An array of the exact length, the first time (or when more parts come than it has room for).
      this.parts = parts.slice();
    } else {
      for (let i = 0; i < parts.length; i++) kept[i] = parts[i] as Uint8Array;
      kept.fill(EMPTY_PART, parts.length, this.partCount);
    }
    this.partCount = parts.length;
    return this.parts;
  }
}

const EMPTY_PART = new Uint8Array(0);

/** `value`, or `before` when equal to it: the string an older entry already keeps (its own then dies young). */
const shared = (value: string, before: string | undefined): string => (before === value ? before : value);

/**
 * Whether an exchange's bodies may carry personal details or secrets (the customers' operations, the
 * OAuth endpoints, a path no route matched): they are redacted as it is recorded, which is then at once.
 * A switch over the names (asked of every exchange as it is answered, it reads no table).
 */
export function carriesSecrets(operation: string | null): boolean {
  switch (operation) {
    case null:
    case "listCustomers":
    case "createCustomer":
    case "getCustomer":
    case "updateCustomer":
    case "deleteCustomer":
    case "createToken":
    case "authorize":
      return true;
    default:
      return false;
  }
}

const utf8 = new TextDecoder();

/** A whole body redacted now, then cut to the cap, kept as text (with the body's whole length). */
function redacted(
  headers: Readonly<Record<string, string | undefined>>,
  body: string | Uint8Array | null,
  cap: number,
): Captured {
  if (body === null) return NO_BODY;
  const whole = typeof body === "string" ? body : utf8.decode(body);
  const text = cut(redactBody(headers["content-type"], whole), cap);
  const bytes = typeof body === "string" ? Buffer.byteLength(body) : body.length;
  return { head: text, bytes, held: text.length, text: true };
}

function errorCode(text: string): string | null {
  return API_CODE.exec(text)?.[1] ?? OAUTH_CODE.exec(text)?.[1] ?? null;
}

/** The rule branches of an exchange: those its maker named, then the catalogue's that match it. */
function branchesOf(
  req: SimRequest,
  response: SimResponse,
  operation: string | null,
  code: string | null,
  answer: Captured,
  sent: Captured,
  cap: number,
): readonly string[] {
  const named = response[BRANCHES];
  const list = candidates(operation, response.status, req.query !== "");
  if (list.length === 0) return named ?? NO_BRANCHES;
  let branches: string[] | undefined;
  let exchange: Exchange | undefined;
  for (const branch of list) {
    if (!possible(branch, req, response, code)) continue;
    exchange ??= new Exchange(
      req,
      response,
      operation,
      code,
      () => answerText(response, answer, cap),
      () => decoded(sent, cap).text,
    );
    if (branch.when === undefined || branch.when(exchange)) (branches ??= named ? [...named] : []).push(branch.id);
  }
  return branches ?? named ?? NO_BRANCHES;
}

const NO_BRANCHES: readonly string[] = [];
