import { Queue } from "../kernel/queue.js";
import type { JournalEntry, JournalFilter, JournalPage, JournalView } from "../contract/journal.js";
import { DEFAULT_RUN } from "../contract/schemas/control.js";
import { CoverageCounts, RunCoverage } from "./coverage.js";
import { carriesSecrets, RecordedExchange } from "./exchange.js";
import { toHar } from "./har.js";
import type { SimRequest, SimResponse } from "./types.js";

// The request journal of a sandbox: a ring of its newest exchanges, and the coverage counts of every
// exchange since they were cleared. Bounded whatever the traffic: at most `entries` entries per sandbox,
// each body kept to `bodyBytes`, and every journal of the process together within the ledger's byte
// budget (the oldest entry of the process goes first). docs/interfaces.md, Journal and coverage.

export interface JournalLimits {
  /** Entries a sandbox's journal holds. */
  readonly entries: number;
  /** Bytes of each request and response body kept. */
  readonly bodyBytes: number;
}

/**
 * Every journal's entries of one process, oldest first, against one byte budget. An entry its journal
 * let go (its ring was full, or it was cleared) stays in the order, released, until the order is
 * compacted (when such entries outnumber the held ones) or reaches the front.
 *
 * Exchanges are recorded in batches: the ledger keeps each exchange a journal is handed as it is
 * (`hand`), and has them recorded, in the order they came, when the event loop's turn ends, or at once
 * when anything reads a journal, its coverage or the ledger. Done together, the work of many exchanges
 * runs with its code and tables in the processor's caches rather than evicted by the HTTP stack between
 * requests, and a request pays only for being put in a list (docs/performance.md, The journal).
 */
export class JournalLedger {
  private readonly order = new Queue<RecordedExchange>();
  private bytes = 0;
  private stale = 0;
  /**
   * Exchanges waiting to be recorded: four values each (journal, request, response, operation) here, and
   * two in `times` (start, duration: no number boxed for the collector). Cleared as they are recorded.
   */
  private readonly waiting: unknown[] = new Array(4 * WAITING_MAX).fill(undefined);
  private readonly times = new Float64Array(2 * WAITING_MAX);
  private count = 0;
  private scheduled = false;
  /** The coverage of each test run, which its sandboxes' journals add to (and which outlives them). */
  readonly runs = new RunCoverage();

  constructor(
    readonly budget: number,
    /** Where a failure to record an exchange is told (it never reaches the request or the process). */
    readonly log?: (line: string) => void,
  ) {}

  /** A run's coverage, its waiting exchanges recorded first; undefined for a run no sandbox carried. */
  runCoverage(run: string) {
    this.settle();
    return this.runs.report(run);
  }

  /** Every run with its requests, its waiting exchanges recorded first. */
  runList() {
    this.settle();
    return this.runs.list();
  }

  /** Sets a run's coverage back to 0, its waiting exchanges recorded first; false for an unknown run. */
  clearRunCoverage(run: string): boolean {
    this.settle();
    return this.runs.clear(run);
  }

  /** The bytes every journal holds, its waiting exchanges recorded first. */
  get heldBytes(): number {
    this.settle();
    return this.bytes;
  }

  /** Entries in the process's order, released ones included (at most the held ones and 1,025 more). */
  get queued(): number {
    this.settle();
    return this.order.size;
  }

  /**
   * Takes one answered exchange for a journal to record. It waits, as it is, until this turn of the
   * event loop ends, anything reads a journal or WAITING_MAX exchanges wait: no longer than the turn's
   * own request objects hold its credential. One whose bodies may carry personal details or OAuth
   * secrets, or whose request body is longer than the journal's cap, is recorded at once (so no such
   * detail waits, and what waits is little beyond what the turn's requests held anyway).
   */
  hand(
    journal: Journal,
    req: SimRequest,
    response: SimResponse,
    operation: string | null,
    startedAt: number,
    ms: number,
  ): void {
    if (carriesSecrets(operation) || (req.body !== null && req.body.length > journal.bodyCap)) {
      this.settle();
      journal.recordNow(req, response, operation, startedAt, ms);
      return;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.settle).unref();
    }
    const at = this.count++;
    const waiting = this.waiting;
    waiting[4 * at] = journal;
    waiting[4 * at + 1] = req;
    waiting[4 * at + 2] = response;
    waiting[4 * at + 3] = operation;
    this.times[2 * at] = startedAt;
    this.times[2 * at + 1] = ms;
    if (this.count === WAITING_MAX) this.settle();
  }

  /** Exchanges handed and not yet recorded. */
  get unsettled(): number {
    return this.count;
  }

  /** Has each waiting exchange recorded by its journal, in the order they were handed. */
  readonly settle = (): void => {
    this.scheduled = false;
    const n = this.count;
    if (n === 0) return;
    this.count = 0;
    const { waiting, times } = this;
    for (let i = 0; i < n; i++) {
      const journal = waiting[4 * i] as Journal;
      const req = waiting[4 * i + 1] as SimRequest;
      const response = waiting[4 * i + 2] as SimResponse;
      const operation = waiting[4 * i + 3] as string | null;
      // Let go at once: a waiting request holds its credential.
      waiting[4 * i] = waiting[4 * i + 1] = waiting[4 * i + 2] = waiting[4 * i + 3] = undefined;
      try {
        journal.recordNow(req, response, operation, times[2 * i] as number, times[2 * i + 1] as number);
      } catch (error) {
        this.log?.(`internal error recording an exchange: ${(error as Error).stack ?? String(error)}`);
      }
    }
  };

  /** Adds an entry already in its journal's ring, then lets the process's oldest go while over budget. */
  add(entry: RecordedExchange): void {
    this.bytes += entry.bytes;
    this.order.push(entry);
    while (this.bytes > this.budget) {
      const oldest = this.order.shift();
      if (oldest === undefined) break;
      // The oldest held entry of the process is its journal's oldest.
      if (oldest.held) oldest.owner.dropOldest(true);
      else this.stale -= 1;
    }
  }

  /**
   * An entry its journal let go; `byLedger` when the ledger itself took it out of the order. True when
   * the entry is out of the order, so its journal may fill it again.
   */
  released(entry: RecordedExchange, byLedger: boolean): boolean {
    this.bytes -= entry.bytes;
    if (byLedger) return true;
    // The process's oldest (one journal's traffic alone): out of the order at once, with any released
    // entries behind it, so the order stays as long as what is held and needs no compacting.
    if (this.order.first === entry) {
      this.order.shift();
      while (this.order.first?.held === false) {
        this.order.shift();
        this.stale -= 1;
      }
      return true;
    }
    this.stale += 1;
    if (this.stale > 1024 && 2 * this.stale > this.order.size) {
      this.order.retain((e) => e.held);
      this.stale = 0;
    }
    return false;
  }
}

/** Exchanges the process lets wait at most before they are recorded. */
const WAITING_MAX = 64;

/** The version reported in a HAR export's `creator`. */
const CREATOR_VERSION = "1";

export class Journal implements JournalView {
  private readonly ring = new Queue<RecordedExchange>();
  private nextSeq = 1;
  private recorded = 0;
  private dropped = 0;
  private readonly counts = new CoverageCounts();
  /** The coverage of the test run its sandbox belongs to, which every exchange counts toward as well. */
  private readonly runCounts: CoverageCounts;

  constructor(
    readonly sandbox: string,
    private readonly limits: JournalLimits,
    private readonly ledger: JournalLedger,
    run: string = DEFAULT_RUN,
  ) {
    this.runCounts = ledger.runs.join(run);
  }

  /**
   * Records one answered exchange; `operation` is its operation id (or `createToken`, `authorize`). It is
   * in the journal and its coverage by the time anything reads them (JournalLedger.hand).
   */
  record(req: SimRequest, response: SimResponse, operation: string | null, startedAt: number, ms: number): void {
    this.ledger.hand(this, req, response, operation, startedAt, ms);
  }

  /** Bytes of each body kept. */
  get bodyCap(): number {
    return this.limits.bodyBytes;
  }

  /** Records one exchange now (the ledger's `settle`, in the order exchanges were handed). */
  recordNow(req: SimRequest, response: SimResponse, operation: string | null, startedAt: number, ms: number): void {
    const newest = this.ring.last;
    // A full ring's oldest entry is filled again when nothing else refers to it (RecordedExchange).
    const entry =
      (this.ring.size >= this.limits.entries ? this.takeOldest(false) : undefined) ??
      new RecordedExchange(this, this.limits.bodyBytes);
    entry.fill(req, response, this.nextSeq++, startedAt, ms, operation, newest);
    this.counts.count(entry);
    this.runCounts.count(entry);
    this.recorded += 1;
    this.ring.push(entry);
    this.ledger.add(entry);
    while (this.ring.size > this.limits.entries) this.dropOldest(false);
  }

  /** Lets the oldest entry go (the ring is full, or the process's budget is spent), and all it holds. */
  dropOldest(byLedger: boolean): void {
    this.takeOldest(byLedger)?.release();
  }

  /**
   * Takes the oldest entry out of the ring, to be filled again with the newest exchange at once (so
   * what it holds is not let go first): undefined when the process's order still refers to it (it is
   * then let go, and a new entry is made).
   */
  private takeOldest(byLedger: boolean): RecordedExchange | undefined {
    const oldest = this.ring.shift();
    if (oldest === undefined) return undefined;
    oldest.held = false;
    this.dropped += 1;
    if (this.ledger.released(oldest, byLedger)) return oldest;
    oldest.release();
    return undefined;
  }

  page(filter: JournalFilter): JournalPage {
    this.ledger.settle();
    return {
      sandbox: this.sandbox,
      held: this.ring.size,
      recorded: this.recorded,
      dropped: this.dropped,
      next_seq: this.nextSeq,
      data: this.select(filter),
    };
  }

  har(filter: JournalFilter, apiRoot: string): unknown {
    this.ledger.settle();
    return toHar(this.select(filter), { apiRoot, creatorVersion: CREATOR_VERSION });
  }

  clear(): void {
    this.ledger.settle();
    while (this.ring.size > 0) this.dropOldest(false);
    this.recorded = 0;
    this.dropped = 0;
  }

  coverage() {
    this.ledger.settle();
    return this.counts.report(this.sandbox);
  }

  clearCoverage(): void {
    this.ledger.settle();
    this.counts.clear();
  }

  /** Gives its bytes back to the ledger (its sandbox is gone). */
  discard(): void {
    this.clear();
  }

  private select(filter: JournalFilter): JournalEntry[] {
    return this.matching(filter).map((e) => e.toEntry());
  }

  private matching(filter: JournalFilter): RecordedExchange[] {
    const method = filter.method?.toUpperCase();
    const status = filter.status;
    const out: RecordedExchange[] = [];
    for (const entry of this.ring.values()) {
      if (filter.since !== undefined && entry.seq < filter.since) continue;
      if (method !== undefined && entry.method.toUpperCase() !== method) continue;
      if (filter.path !== undefined && !entry.path.startsWith(filter.path)) continue;
      if (filter.operation !== undefined && entry.operation !== filter.operation) continue;
      if (filter.code !== undefined && entry.code !== filter.code) continue;
      if (status !== undefined && !statusMatches(status, entry.status)) continue;
      out.push(entry);
    }
    return filter.limit === undefined ? out : out.slice(Math.max(0, out.length - filter.limit));
  }
}

function statusMatches(filter: string, status: number): boolean {
  return filter.endsWith("xx") ? String(status)[0] === filter[0] : Number(filter) === status;
}
