// The request journal and the coverage of a test run, as data: what `GET {control_url}/requests` and
// `GET {control_url}/coverage` answer, `sim.journal()` and `sim.coverage()` return, the HAR export and the
// coverage reports read. docs/interfaces.md, Journal and coverage.

/** One side of an exchange as the journal keeps it: secrets and personal details redacted. */
export interface JournalMessage {
  /** Header names in lower case; a secret's value is `[redacted]`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text (UTF-8), redacted, cut to the journal's body cap; null when there was none. */
  readonly body: string | null;
  /** The body's whole length in bytes, as sent. */
  readonly body_bytes: number;
  /** True when `body` was cut to the cap. */
  readonly truncated: boolean;
}

/** One API or OAuth exchange (the control plane and stored images are not journaled). */
export interface JournalEntry {
  /** 1, 2, 3, ... per sandbox, never reused (not even after the journal is cleared). */
  readonly seq: number;
  /** When it arrived, on the sandbox's clock (ISO 8601, UTC). */
  readonly started_at: string;
  /** Real time spent answering it, in milliseconds. */
  readonly duration_ms: number;
  readonly method: string;
  /** The path as sent (percent-encoded), without the query. */
  readonly path: string;
  /** The query string without `?`, with secret and personal values redacted. */
  readonly query: string;
  /** The operation id of the contract (`updateProduct`), `createToken`, `authorize`; null when nothing matched. */
  readonly operation: string | null;
  readonly status: number;
  /** The error code of an error answer (`STALE_VERSION`, an OAuth `error`), else null. */
  readonly code: string | null;
  /** The rule branches it exercised: ids of `COVERAGE_BRANCHES` (`catalog.stale-version`). */
  readonly branches: readonly string[];
  /** True when a fault of the control plane made the answer. */
  readonly injected: boolean;
  readonly request: JournalMessage;
  readonly response: JournalMessage;
}

/** `GET {control_url}/requests`: the newest entries last. */
export interface JournalPage {
  readonly sandbox: string;
  /** Entries the journal holds now (all filters off). */
  readonly held: number;
  /** Entries recorded since the journal was made or last cleared, including those the ring let go. */
  readonly recorded: number;
  /** Entries let go by the ring's size or the process's memory budget since the last clear. */
  readonly dropped: number;
  /** The sequence number the next entry will have (pass it as `since` to read only newer ones). */
  readonly next_seq: number;
  readonly data: readonly JournalEntry[];
}

/** What a coverage item counts. */
export type CoverageKind = "operation" | "status" | "error_code" | "branch";

/** One behaviour a test run can meet, and how often it met it. */
export interface CoverageItem {
  readonly kind: CoverageKind;
  /**
   * `updateProduct` (operation), `updateProduct 409` (an operation's documented status),
   * `STALE_VERSION` (error code), `catalog.stale-version` (branch, a rule id of the conformance suite).
   */
  readonly id: string;
  /** Answers counted for it since the coverage was cleared. */
  readonly count: number;
  /** A one-line title (`PATCH /products/{id}`, `409 Conflict`, ...). */
  readonly title: string;
  /** The spec sentence it rests on: section (heading path) and a verbatim quote. */
  readonly spec?: { readonly section: string; readonly quote: string };
  /** How to make the simulator produce it (a request, a control route or a fault). */
  readonly provoke: string;
  /**
   * `"fault"`: only an injected fault produces it (the `INTERNAL` code, each operation's 500). Counted
   * when a fault produces it; while unmet it is left out of the totals and never listed as never met.
   * Absent on the items a request or a control route produces.
   */
  readonly reach?: "fault";
}

export interface CoverageTotals {
  /** Items met (of every reach). */
  readonly covered: number;
  /** Items met, and items not met that a request or a control route can produce (not those only a fault can). */
  readonly total: number;
  /** covered / total × 100, rounded to one decimal (100 when total is 0). */
  readonly percent: number;
}

/** `GET {control_url}/coverage`. Items are listed never met first, then by id. */
export interface CoverageReport {
  readonly sandbox: string;
  /** Exchanges counted since the coverage was last cleared. */
  readonly requests: number;
  readonly totals: {
    readonly operations: CoverageTotals;
    readonly statuses: CoverageTotals;
    readonly error_codes: CoverageTotals;
    readonly branches: CoverageTotals;
    /**
     * The overall figure: `covered` and `total` are the four kinds' sums; `percent` is the mean of the
     * four kinds' `percent`, rounded to one decimal, so each kind weighs the same whatever its size.
     */
    readonly all: CoverageTotals;
  };
  readonly items: readonly CoverageItem[];
  /** Answers that matched no documented item (an undocumented status, an unknown path), by `METHOD status`. */
  readonly unexpected: Readonly<Record<string, number>>;
}

/** What `GET /_sim/runs` says of one test run (its coverage: `GET /_sim/runs/{run}/coverage`). */
export interface RunView {
  readonly run: string;
  /** Sandboxes that carried its name, removed ones included. */
  readonly sandboxes: number;
  /** Exchanges counted toward it since its coverage was last cleared. */
  readonly requests: number;
}

/** Which entries `GET {control_url}/requests` answers: every filter given must hold. */
export interface JournalFilter {
  /** The method, any case. */
  readonly method?: string;
  /** Paths starting with this (as sent, percent-encoded). */
  readonly path?: string;
  /** A status (`409`) or a class (`4xx`). */
  readonly status?: string;
  /** Entries whose `seq` is this or later. */
  readonly since?: number;
  readonly operation?: string;
  readonly code?: string;
  /** At most this many (the newest of those that match), 1 to 10,000. */
  readonly limit?: number;
}

/** A sandbox's journal and coverage, as the control plane and the library reach them. */
export interface JournalView {
  page(filter: JournalFilter): JournalPage;
  /** The entries that match as a HAR 1.2 document; `apiRoot` makes their URLs absolute. */
  har(filter: JournalFilter, apiRoot: string): unknown;
  /** Forgets every entry (sequence numbers go on). */
  clear(): void;
  coverage(): CoverageReport;
  /** Sets every count back to 0. */
  clearCoverage(): void;
}

/** The query parameters of `GET {control_url}/requests` (and `requests.har`). */
export const JOURNAL_QUERY = ["method", "path", "status", "since", "operation", "code", "limit"] as const;

const INTEGER = /^(0|[1-9]\d{0,14})$/;

/**
 * A journal filter from the query's text: field errors name `query.<name>` like the API's (a status is
 * `100`..`599` or a class `1xx`..`5xx`; `since` a whole number; `limit` 1 to 10,000).
 */
export function journalFilter(
  query: Readonly<Record<string, string>>,
): { ok: true; value: JournalFilter } | { ok: false; fields: { field: string; message: string }[] } {
  const fields: { field: string; message: string }[] = [];
  const filter: { -readonly [K in keyof JournalFilter]: JournalFilter[K] } = {};
  for (const [name, value] of Object.entries(query)) {
    switch (name) {
      case "method":
      case "path":
      case "operation":
      case "code":
        filter[name] = value;
        break;
      case "status":
        if (/^[1-5](\d\d|xx)$/i.test(value)) filter.status = value.toLowerCase();
        else fields.push({ field: "query.status", message: "must be a status (409) or a class (4xx)" });
        break;
      case "since":
        if (INTEGER.test(value)) filter.since = Number(value);
        else fields.push({ field: "query.since", message: "must be a whole number" });
        break;
      case "limit":
        if (INTEGER.test(value) && Number(value) >= 1 && Number(value) <= 10_000) filter.limit = Number(value);
        else fields.push({ field: "query.limit", message: "must be an integer from 1 to 10000" });
        break;
      default:
        fields.push({ field: `query.${name}`, message: `unknown parameter; known: ${JOURNAL_QUERY.join(", ")}` });
    }
  }
  return fields.length > 0 ? { ok: false, fields } : { ok: true, value: filter };
}
