import { STATUS_CODES } from "node:http";
import { COVERAGE_BRANCHES, provokeCode } from "../contract/coverage-branches.js";
import { ERROR_CODES, ERROR_STATUS } from "../contract/errors.js";
import type { CoverageItem, CoverageKind, CoverageReport, CoverageTotals, RunView } from "../contract/journal.js";
import { operationStatuses } from "../contract/operation-errors.js";
import { OPERATIONS } from "../contract/operations/index.js";

// The coverage of a test run: which operations, documented statuses, error codes and rule branches its
// exchanges met, counted against every one there is, so what was never met can be listed first.

/** The token endpoint's and the consent screen's ids beside the API's operation ids. */
export const OAUTH_OPERATIONS = {
  createToken: { title: "POST {api_root}/oauth/token", statuses: [200, 400, 401, 429] },
  authorize: { title: "GET {auth_url}/oauth/authorize", statuses: [200, 302, 400] },
} as const;

/**
 * Spec, Authentication 3 rule 8: the token endpoint's errors (the OAuth shape). A bad scope is refused at
 * the authorization request, by a redirect (RFC 6749 4.1.2.1), never by the token endpoint.
 */
const OAUTH_CODES: Readonly<Record<string, number>> = {
  invalid_request: 400,
  invalid_grant: 400,
  unsupported_grant_type: 400,
  invalid_client: 401,
};

type Universal = Omit<CoverageItem, "count">;

/** What coverage counts of one exchange. */
export interface Counted {
  readonly operation: string | null;
  readonly status: number;
  readonly code: string | null;
  readonly branches: readonly string[];
  readonly injected: boolean;
}

function universe(): Universal[] {
  const items: Universal[] = [];
  const operation = (id: string, title: string, statuses: readonly number[]) => {
    items.push({ kind: "operation", id, title, provoke: title });
    for (const status of statuses) {
      const provoke = status < 300 ? title : `${title} answering ${status}`;
      items.push({
        kind: "status",
        id: `${id} ${status}`,
        title: `${status} ${STATUS_CODES[status] ?? ""}`.trim(),
        provoke,
      });
    }
  };
  for (const op of OPERATIONS) operation(op.id, `${op.method} ${op.path}`, operationStatuses(op));
  for (const [id, { title, statuses }] of Object.entries(OAUTH_OPERATIONS)) operation(id, title, statuses);
  for (const code of ERROR_CODES)
    items.push({
      kind: "error_code",
      id: code,
      title: `${ERROR_STATUS[code]} ${code}`,
      spec: { section: "Errors", quote: `${code} | ${ERROR_STATUS[code]}` },
      provoke: COVERAGE_BRANCHES.find((b) => b.code === code)?.provoke ?? provokeCode(ERROR_STATUS[code], code),
    });
  for (const [code, status] of Object.entries(OAUTH_CODES))
    items.push({
      kind: "error_code",
      id: code,
      title: `${status} ${code} (token endpoint)`,
      provoke: COVERAGE_BRANCHES.find((b) => b.code === code)?.provoke ?? "a token exchange the endpoint refuses",
    });
  for (const branch of COVERAGE_BRANCHES)
    items.push({ kind: "branch", id: branch.id, title: branch.spec.quote, spec: branch.spec, provoke: branch.provoke });
  return items;
}

/** The universe in its order, and each item's place in it by its kind and id. */
let ALL:
  | { readonly items: readonly Universal[]; readonly places: ReadonlyMap<CoverageKind, ReadonlyMap<string, number>> }
  | undefined;
function all() {
  if (!ALL) {
    const items = universe();
    const places = new Map<CoverageKind, Map<string, number>>();
    items.forEach((item, i) => {
      const ofKind = places.get(item.kind) ?? new Map<string, number>();
      places.set(item.kind, ofKind.set(item.id, i));
    });
    ALL = { items, places };
  }
  return ALL;
}

/** Each operation's places in the universe, found once: its own and its documented statuses'. */
let OPERATION_KEYS: Map<string, { operation: number; statuses: Map<number, number> }> | undefined;
function operationKeys(id: string) {
  if (!OPERATION_KEYS) {
    OPERATION_KEYS = new Map();
    all().items.forEach((item, i) => {
      if (item.kind === "operation") OPERATION_KEYS?.set(item.id, { operation: i, statuses: new Map() });
      if (item.kind === "status") {
        const [op, status] = item.id.split(" ");
        OPERATION_KEYS?.get(op as string)?.statuses.set(Number(status), i);
      }
    });
  }
  return OPERATION_KEYS.get(id);
}

/** An error code's or a branch's place in the universe (undefined for one it does not name), by its id. */
const placeOf = (kind: "error_code" | "branch", id: string): number | undefined => all().places.get(kind)?.get(id);

/** Distinct unexpected answers kept (a client can make any number of them); the rest are counted under one. */
const MAX_UNEXPECTED = 100;
const OTHER = "(other)";

export class CoverageCounts {
  /** By each item's place in the universe: one flat array, so counting is a store (no sparse writes). */
  private counts = new Float64Array(all().items.length);
  private unexpected = new Map<string, number>();
  private requests = 0;

  count(entry: Counted): void {
    this.requests += 1;
    // A path no route matched has no operation: its answer (404, or what authentication answers first)
    // counts toward codes and branches only. An injected fault's status is whatever the fault said.
    let expected = true;
    if (entry.operation !== null) {
      const keys = operationKeys(entry.operation);
      if (keys) {
        this.add(keys.operation);
        if (!entry.injected) {
          const status = keys.statuses.get(entry.status);
          if (status !== undefined) this.add(status);
          else expected = false;
        }
      } else expected = false;
    }
    if (entry.code !== null) {
      const code = placeOf("error_code", entry.code);
      if (code !== undefined) this.add(code);
      else expected = false;
    }
    for (const branch of entry.branches) {
      const place = placeOf("branch", branch);
      if (place !== undefined) this.add(place);
    }
    if (!expected && !entry.injected) this.unexpect(`${entry.operation ?? "(no operation)"} ${entry.status}`);
  }

  /** Exchanges counted since the last clear. */
  get requestCount(): number {
    return this.requests;
  }

  private add(place: number): void {
    this.counts[place] = (this.counts[place] as number) + 1;
  }

  private unexpect(what: string): void {
    const name = this.unexpected.has(what) || this.unexpected.size < MAX_UNEXPECTED ? what : OTHER;
    this.unexpected.set(name, (this.unexpected.get(name) ?? 0) + 1);
  }

  clear(): void {
    this.counts = new Float64Array(all().items.length);
    this.unexpected = new Map();
    this.requests = 0;
  }

  report(sandbox: string): CoverageReport {
    const items: CoverageItem[] = all().items.map((item, i) => ({ ...item, count: this.counts[i] ?? 0 }));
    const totals = (of: readonly CoverageItem[]): CoverageTotals => {
      const covered = of.filter((i) => i.count > 0).length;
      const percent = of.length === 0 ? 100 : Math.round((covered / of.length) * 1000) / 10;
      return { covered, total: of.length, percent };
    };
    const kind = (k: CoverageKind) => items.filter((i) => i.kind === k);
    items.sort((a, b) => Number(a.count > 0) - Number(b.count > 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return {
      sandbox,
      requests: this.requests,
      totals: {
        operations: totals(kind("operation")),
        statuses: totals(kind("status")),
        error_codes: totals(kind("error_code")),
        branches: totals(kind("branch")),
        all: totals(items),
      },
      items,
      unexpected: Object.fromEntries(this.unexpected),
    };
  }
}

/** Test runs whose coverage is kept (the ones that most recently made a sandbox); older ones are forgotten. */
export const MAX_RUNS = 1000;

/** One run's coverage: every exchange of every sandbox that carried its name, live or removed. */
interface Run {
  readonly counts: CoverageCounts;
  /** Sandboxes that carried it, removed ones included. */
  sandboxes: number;
}

/**
 * The coverage of test runs (docs/interfaces.md, Journal and coverage): a sandbox made with `run: "ci"` counts
 * each exchange toward its own coverage and toward the run's, which outlives the sandbox, so one report covers
 * a parallel test run whose workers each removed their sandbox when done.
 */
export class RunCoverage {
  private readonly runs = new Map<string, Run>();

  /** The counts a new sandbox of `run` adds to; the run becomes the newest (the oldest beyond MAX_RUNS is forgotten). */
  join(run: string): CoverageCounts {
    const known = this.runs.get(run);
    this.runs.delete(run);
    const joined = known ?? { counts: new CoverageCounts(), sandboxes: 0 };
    joined.sandboxes += 1;
    this.runs.set(run, joined);
    for (const oldest of this.runs.keys()) {
      if (this.runs.size <= MAX_RUNS) break;
      this.runs.delete(oldest);
    }
    return joined.counts;
  }

  /** The run's report; undefined for a run no sandbox carried (or one forgotten). */
  report(run: string): CoverageReport | undefined {
    const known = this.runs.get(run);
    if (!known) return undefined;
    const sandboxes = known.sandboxes === 1 ? "1 sandbox" : `${known.sandboxes} sandboxes`;
    return known.counts.report(`run ${run} (${sandboxes})`);
  }

  /** Sets the run's counts back to 0; false for a run it does not know. */
  clear(run: string): boolean {
    const known = this.runs.get(run);
    known?.counts.clear();
    return known !== undefined;
  }

  list(): RunView[] {
    return [...this.runs].map(([run, { counts, sandboxes }]) => ({ run, sandboxes, requests: counts.requestCount }));
  }
}
