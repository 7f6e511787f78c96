import { type BranchExchange, COVERAGE_BRANCHES, type CoverageBranch } from "../contract/coverage-branches.js";
import { ERROR_STATUS, isErrorCode } from "../contract/errors.js";
import type { JournalEntry, JournalMessage } from "../contract/journal.js";
import { iso } from "../kernel/clock.js";
import { PERSONAL as ERASED } from "../engine/customers/operations.js";
import { bodyParts } from "./respond.js";
import { BRANCHES, type SimRequest, type SimResponse } from "./types.js";

// One exchange as the journal keeps it: the start of each body, secrets and personal details redacted,
// the error code, and the rule branches it exercised (contract/coverage-branches.ts).

export const REDACTED = "[redacted]";

/** Headers whose whole value is a secret (an Authorization header keeps its scheme). */
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie"]);

/** Form fields and query parameters that carry secrets (the token endpoint's, the consent redirect's). */
const FORM_SECRETS = ["code", "code_verifier", "client_secret", "refresh_token", "access_token", "password"];

/** JSON properties that carry secrets or a customer's personal details (spec, Customer). */
const JSON_SECRETS = ["access_token", "refresh_token", "client_secret", "password"];
/** A customer's personal details: those erasure scrubs, and the code and first name it replaces. */
const PERSONAL = [...ERASED, "customer_code", "first_name"];

const JSON_VALUE = new RegExp(`"(${[...JSON_SECRETS, ...PERSONAL].join("|")})"(\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, "g");
const FORM_VALUE = new RegExp(`(^|[?&])(${[...FORM_SECRETS, ...PERSONAL].join("|")})=[^&#]*`, "g");

/** A JSON text with every secret or personal string value replaced (also in a body cut short). */
export function redactJson(text: string): string {
  return text.replace(JSON_VALUE, `"$1"$2"${REDACTED}"`);
}

/** A query string, form body or URL with every secret or personal value replaced. */
export function redactForm(text: string): string {
  return text.replace(FORM_VALUE, `$1$2=${REDACTED}`);
}

/** Request headers with their secrets replaced, as cheaply as the common case allows (one spread). */
function withoutSecrets(headers: Readonly<Record<string, string | undefined>>): Readonly<Record<string, string>> {
  const { authorization, cookie } = headers;
  if (authorization === undefined && cookie === undefined && headers["proxy-authorization"] === undefined)
    return headers as Readonly<Record<string, string>>;
  const out = { ...headers } as Record<string, string>;
  if (authorization !== undefined) out.authorization = `${/^\S+/.exec(authorization)?.[0] ?? ""} ${REDACTED}`.trim();
  if (cookie !== undefined) out.cookie = REDACTED;
  if (headers["proxy-authorization"] !== undefined) out["proxy-authorization"] = REDACTED;
  return out;
}

function redactHeaders(headers: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (name === "authorization") out[name] = `${/^\S+/.exec(value)?.[0] ?? ""} ${REDACTED}`.trim();
    else if (SECRET_HEADERS.has(name)) out[name] = REDACTED;
    else if (name === "location") out[name] = redactForm(value);
    else out[name] = value;
  }
  return out;
}

const utf8 = new TextDecoder();

/**
 * The start of a body as captured when the exchange is answered, without decoding it: a short string
 * as it is, bytes (a copy when the body is longer than the cap, so the rest can be collected), or the
 * parts of a page assembled from cached rows that cover the cap. Decoded only when the journal is read.
 */
type Captured = {
  readonly head: string | Uint8Array | readonly Uint8Array[] | null;
  readonly bytes: number;
  /** True when `head` is the final, redacted text (and `bytes` the body's whole length). */
  readonly text?: true;
};

function capture(body: Uint8Array | string | null, cap: number): Captured {
  if (body === null) return { head: null, bytes: 0 };
  if (typeof body === "string") {
    if (body.length <= cap) return { head: body, bytes: -1 };
    return { head: Buffer.from(body.slice(0, cap)), bytes: Buffer.byteLength(body) };
  }
  // A copy (a view would keep the whole body alive).
  return { head: body.length > cap ? Uint8Array.prototype.slice.call(body, 0, cap) : body, bytes: body.length };
}

function captureAnswer(response: SimResponse, cap: number): Captured {
  const parts = bodyParts(response);
  if (!parts) return capture(response.body, cap);
  const head: Uint8Array[] = [];
  let taken = 0;
  for (const part of parts.parts) {
    if (taken >= cap) break;
    head.push(part);
    taken += part.length;
  }
  return { head, bytes: parts.length };
}

/** The captured start as text and the body's whole length in bytes. */
function decoded(captured: Captured, cap: number): { text: string | null; bytes: number } {
  const { head } = captured;
  if (head === null) return { text: null, bytes: 0 };
  if (captured.text) return { text: head as string, bytes: captured.bytes };
  if (typeof head === "string") {
    const bytes = Buffer.byteLength(head);
    return { text: bytes <= cap ? head : utf8.decode(Buffer.from(head).subarray(0, cap)), bytes };
  }
  const bytes = head instanceof Uint8Array ? head : Buffer.concat(head as Uint8Array[]);
  return { text: utf8.decode(bytes.subarray(0, cap)), bytes: captured.bytes };
}

/** About what a capture holds in memory. */
const capturedBytes = (c: Captured): number =>
  c.head === null
    ? 0
    : typeof c.head === "string"
      ? 2 * c.head.length
      : c.head instanceof Uint8Array
        ? c.head.length
        : (c.head as Uint8Array[]).reduce((sum, part) => sum + part.length, 0);

/** A body's text with its secret and personal values redacted, read by its content type. */
function redactBody(headers: Readonly<Record<string, string | undefined>>, text: string): string {
  const type = headers["content-type"] ?? "";
  if (type.includes("x-www-form-urlencoded")) return redactForm(text);
  return type.includes("json") ? redactJson(text) : text;
}

function message(
  headers: Readonly<Record<string, string | undefined>>,
  start: { text: string | null; bytes: number },
  cap: number,
): JournalMessage {
  const text = start.text === null ? null : redactBody(headers, start.text);
  return { headers: redactHeaders(headers), body: text, body_bytes: start.bytes, truncated: start.bytes > cap };
}

const API_CODE = /"error":\{"code":"([A-Za-z_]{1,64})"/;
const OAUTH_CODE = /^\{"error":"([a-z_]{1,64})"/;

/** The branches of the catalogue that can happen on each operation (null: on any). */
/**
 * The branches that can happen on each operation (null: on any), by status (0: on any), so an exchange
 * is tested only against the few that could be it.
 */
/** The status of an API error code; an OAuth error's statuses vary (0: any). */
const ERROR_STATUS_OF = (code: string): number => (isErrorCode(code) ? ERROR_STATUS[code] : 0);

const INDEX = new Map<string | null, Map<number, CoverageBranch[]>>();
for (const branch of COVERAGE_BRANCHES) {
  if (branch.marked) continue;
  const status = branch.status ?? (branch.code === undefined ? 0 : ERROR_STATUS_OF(branch.code));
  for (const op of branch.operations ?? [null]) {
    const byStatus = INDEX.get(op) ?? new Map<number, CoverageBranch[]>();
    byStatus.set(status, [...(byStatus.get(status) ?? []), branch]);
    INDEX.set(op, byStatus);
  }
}

const NONE: readonly CoverageBranch[] = [];
const candidates = (operation: string | null, status: number): readonly CoverageBranch[][] => {
  const byStatus = INDEX.get(operation);
  return byStatus
    ? [byStatus.get(status) ?? (NONE as CoverageBranch[]), byStatus.get(0) ?? (NONE as CoverageBranch[])]
    : [];
};

function matches(branch: CoverageBranch, x: BranchExchange): boolean {
  if (branch.status !== undefined && branch.status !== x.status) return false;
  if (branch.code !== undefined && branch.code !== x.code) return false;
  return branch.when === undefined || branch.when(x);
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

export interface ExchangeFacts {
  readonly seq: number;
  /** When it arrived, on the sandbox's clock (epoch ms). */
  readonly startedAt: number;
  readonly durationMs: number;
  readonly operation: string | null;
  /** Bytes of each body kept. */
  readonly bodyCap: number;
}

/**
 * One exchange as recorded: what coverage needs (its status, error code and rule branches) worked out
 * at once, the rest kept raw (the start of each body, the headers) and turned into a redacted
 * `JournalEntry` only when the journal is read, so that recording costs little per request.
 */
export class RecordedExchange {
  readonly code: string | null;
  readonly branches: readonly string[];
  /** About what it holds in memory, in bytes. */
  readonly bytes: number;
  readonly status: number;
  readonly injected: boolean;
  readonly method: string;
  readonly path: string;
  private readonly query: string;
  private readonly sent: Captured;
  private readonly answer: Captured;
  private readonly requestHeaders: Readonly<Record<string, string>>;
  private readonly responseHeaders: Readonly<Record<string, string>>;
  private entry?: JournalEntry;

  constructor(
    req: SimRequest,
    response: SimResponse,
    readonly facts: ExchangeFacts,
  ) {
    const cap = facts.bodyCap;
    // Nothing secret is kept raw: the request's headers are redacted at once, and the bodies of the
    // exchanges that carry personal details or secrets (customers, the OAuth endpoints, paths no route
    // matched) are decoded and redacted at once too, so an erasure leaves no detail in the journal.
    const eager = facts.operation === null || SENSITIVE.has(facts.operation);
    this.sent = capture(req.body, cap);
    this.answer = captureAnswer(response, cap);
    this.requestHeaders = withoutSecrets(req.headers);
    this.responseHeaders = eager ? redactHeaders(response.headers) : response.headers;
    this.method = req.method;
    this.path = req.path;
    this.query = req.query === "" ? "" : redactForm(req.query);
    this.status = response.status;
    this.injected = response.injected === true;
    let text: string | undefined;
    const answerText = () => (text ??= decoded(this.answer, cap).text ?? "");
    this.code = response.status < 400 ? null : errorCode(answerText());
    this.branches = branchesOf(
      req,
      response,
      facts.operation,
      this.code,
      answerText,
      () => decoded(this.sent, cap).text,
    );
    if (eager) {
      this.sent = redacted(req.headers, this.sent, cap);
      this.answer = redacted(response.headers, this.answer, cap);
    }
    let headerChars = 0;
    for (const name in this.requestHeaders) headerChars += name.length + (this.requestHeaders[name]?.length ?? 0);
    for (const name in this.responseHeaders) headerChars += name.length + (this.responseHeaders[name]?.length ?? 0);
    const chars = req.path.length + req.query.length + headerChars;
    this.bytes = 2 * chars + capturedBytes(this.sent) + capturedBytes(this.answer) + 400;
  }

  get operation(): string | null {
    return this.facts.operation;
  }

  get seq(): number {
    return this.facts.seq;
  }

  /** The redacted entry, made at the first read. */
  toEntry(): JournalEntry {
    if (this.entry) return this.entry;
    const { facts } = this;
    const cap = facts.bodyCap;
    this.entry = {
      seq: facts.seq,
      started_at: iso(facts.startedAt),
      duration_ms: Math.round(facts.durationMs * 1000) / 1000,
      method: this.method,
      path: this.path,
      query: this.query,
      operation: facts.operation,
      status: this.status,
      code: this.code,
      branches: this.branches,
      injected: this.injected,
      request: message(this.requestHeaders, decoded(this.sent, cap), cap),
      response: message(this.responseHeaders, decoded(this.answer, cap), cap),
    };
    return this.entry;
  }
}

/** The operations whose exchanges carry a customer's personal details or OAuth secrets. */
const SENSITIVE = new Set([
  "listCustomers",
  "createCustomer",
  "getCustomer",
  "updateCustomer",
  "deleteCustomer",
  "createToken",
  "authorize",
]);

/** A capture decoded and redacted now, kept as text (with the body's whole length). */
function redacted(headers: Readonly<Record<string, string | undefined>>, captured: Captured, cap: number): Captured {
  const start = decoded(captured, cap);
  if (start.text === null) return captured;
  return { head: redactBody(headers, start.text), bytes: start.bytes, text: true };
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
  answerText: () => string,
  sentText: () => string | null,
): readonly string[] {
  const named = response[BRANCHES];
  let branches: string[] | undefined = named ? [...named] : undefined;
  let exchange: Exchange | undefined;
  const lists =
    operation === null
      ? candidates(null, response.status)
      : [...candidates(operation, response.status), ...candidates(null, response.status)];
  for (const list of lists)
    for (const branch of list) {
      exchange ??= new Exchange(req, response, operation, code, answerText, sentText);
      if (matches(branch, exchange)) (branches ??= []).push(branch.id);
    }
  return branches ?? NO_BRANCHES;
}

const NO_BRANCHES: readonly string[] = [];
