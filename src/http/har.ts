import { STATUS_CODES } from "node:http";
import type { JournalEntry, JournalMessage } from "../contract/journal.js";

// The request journal as an HTTP Archive (HAR 1.2): a pure conversion of journal entries, in the order given
// (the journal's, oldest first). docs/interfaces.md, Journal and coverage (HAR export).

export interface HarRecord {
  readonly name: string;
  readonly value: string;
}

export interface HarPostData {
  readonly mimeType: string;
  readonly text: string;
  readonly comment?: string;
}

/** What a HAR request and response both have. */
export interface HarMessage {
  readonly httpVersion: string;
  readonly cookies: readonly HarRecord[];
  readonly headers: readonly HarRecord[];
  /** -1: the journal keeps no header sizes. */
  readonly headersSize: number;
  /** The whole body's bytes (0 without one). */
  readonly bodySize: number;
}

export interface HarRequest extends HarMessage {
  readonly method: string;
  readonly url: string;
  readonly queryString: readonly HarRecord[];
  readonly postData?: HarPostData;
}

export interface HarContent {
  readonly size: number;
  readonly mimeType: string;
  readonly text?: string;
  readonly comment?: string;
}

export interface HarResponse extends HarMessage {
  readonly status: number;
  readonly statusText: string;
  readonly content: HarContent;
  readonly redirectURL: string;
}

export interface HarTimings {
  readonly send: number;
  readonly wait: number;
  readonly receive: number;
}

export interface HarEntry {
  /** The entry's `started_at`: on the sandbox's clock. */
  readonly startedDateTime: string;
  /** The entry's `duration_ms`: real time spent answering. */
  readonly time: number;
  readonly request: HarRequest;
  readonly response: HarResponse;
  readonly cache: Readonly<Record<string, never>>;
  readonly timings: HarTimings;
  // Custom fields (HAR 1.2, Custom Fields: names start with an underscore): the journal's own facts.
  readonly _seq: number;
  readonly _operation: string | null;
  readonly _code: string | null;
  readonly _branches: readonly string[];
  readonly _injected: boolean;
}

/** A HAR 1.2 document. */
export interface Har {
  readonly log: {
    readonly version: "1.2";
    readonly creator: { readonly name: "retail-sim"; readonly version: string };
    readonly comment: string;
    readonly entries: readonly HarEntry[];
  };
}

export interface HarOptions {
  /** `{api_root}` (`http://127.0.0.1:4010`, no trailing slash): the origin the entries' paths are under. */
  readonly apiRoot: string;
  /** The simulator's version, named as the log's creator. */
  readonly creatorVersion: string;
}

const HTTP_VERSION = "HTTP/1.1";
const LOG_COMMENT =
  "startedDateTime is on the simulator's clock (the sandbox's, which tests may move); time and timings.wait are real milliseconds spent answering. Secrets and personal details are redacted; bodies may be cut to the journal's cap.";

/** The journal entries as one HAR 1.2 log. */
export function toHar(entries: readonly JournalEntry[], options: HarOptions): Har {
  return {
    log: {
      version: "1.2",
      creator: { name: "retail-sim", version: options.creatorVersion },
      comment: LOG_COMMENT,
      entries: entries.map((entry) => harEntry(entry, options.apiRoot)),
    },
  };
}

function harEntry(entry: JournalEntry, apiRoot: string): HarEntry {
  const { request, response } = entry;
  const postData = request.body === null ? undefined : harPostData(request, request.body);
  return {
    startedDateTime: entry.started_at,
    time: entry.duration_ms,
    request: {
      method: entry.method,
      url: apiRoot + entry.path + (entry.query === "" ? "" : `?${entry.query}`),
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: harHeaders(request.headers),
      queryString: parseQuery(entry.query),
      ...(postData === undefined ? {} : { postData }),
      headersSize: -1,
      bodySize: request.body_bytes,
    },
    response: {
      status: entry.status,
      statusText: STATUS_CODES[entry.status] ?? "",
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: harHeaders(response.headers),
      content: harContent(response),
      redirectURL: response.headers["location"] ?? "",
      headersSize: -1,
      bodySize: response.body_bytes,
    },
    cache: {},
    timings: { send: 0, wait: entry.duration_ms, receive: 0 },
    _seq: entry.seq,
    _operation: entry.operation,
    _code: entry.code,
    _branches: entry.branches,
    _injected: entry.injected,
  };
}

function harPostData(request: JournalMessage, text: string): HarPostData {
  return {
    mimeType: request.headers["content-type"] ?? "",
    text,
    ...(request.truncated ? { comment: truncation(request.body_bytes) } : {}),
  };
}

function harContent(response: JournalMessage): HarContent {
  const { body } = response;
  return {
    size: response.body_bytes,
    mimeType: response.headers["content-type"] ?? "",
    ...(body === null ? {} : { text: body }),
    ...(response.truncated ? { comment: truncation(response.body_bytes) } : {}),
  };
}

/** What a cut body's comment says. */
function truncation(wholeBytes: number): string {
  return `truncated to the journal's body cap (the whole body was ${wholeBytes} bytes)`;
}

function harHeaders(headers: Readonly<Record<string, string>>): HarRecord[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/**
 * The query string's parameters, read form-style as a server reads them: pairs split at `&`, empty pieces
 * skipped, name and value at the first `=`, `+` is a space, percent escapes decoded as UTF-8. An escape that
 * is not one (`%zz`) or whose bytes are not UTF-8 (`%E9` alone) is kept as written.
 */
export function parseQuery(query: string): HarRecord[] {
  const pairs: HarRecord[] = [];
  for (const piece of query.split("&")) {
    if (piece === "") continue;
    const eq = piece.indexOf("=");
    const name = eq === -1 ? piece : piece.slice(0, eq);
    const value = eq === -1 ? "" : piece.slice(eq + 1);
    pairs.push({ name: formDecode(name), value: formDecode(value) });
  }
  return pairs;
}

const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** A form field's name or value as URLSearchParams reads it: `+` a space, percent escapes decoded. */
export function formDecode(text: string): string {
  return text.replace(/\+/g, " ").replace(ESCAPES, decodeEscapes);
}

/** A run of `%XX` escapes decoded as UTF-8, each byte that starts no well-formed character kept as written. */
function decodeEscapes(run: string): string {
  const bytes = new Uint8Array(run.length / 3);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const length = sequenceLength(bytes[i]!);
    const char = length === 0 ? undefined : decodeOne(bytes.subarray(i, i + length), length);
    if (char === undefined) {
      out += run.slice(i * 3, i * 3 + 3);
      i += 1;
    } else {
      out += char;
      i += length;
    }
  }
  return out;
}

/** How many bytes a UTF-8 sequence starting with this byte has; 0 when it cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

function decodeOne(bytes: Uint8Array, length: number): string | undefined {
  if (bytes.length < length) return undefined;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
