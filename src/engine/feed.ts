import { Bits } from "../kernel/bits.js";

// A table whose rows are ordered by the store's change sequence (spec, Pagination and polling rules 1:
// rows come oldest change first). Every change gives the row a new sequence number, which is its
// `version`, and moves it to the end of the feed. Paging starts with a binary search, so a page deep
// in the feed costs what a first page costs. Secondary indexes keep, per key, the same kind of list,
// so a selective filter (sales of one customer) pages its own rows instead of walking the feed.

export interface Row<T> {
  readonly id: string;
  /** The store-wide change sequence number of the row's latest change; its `version`. */
  seq: number;
  /** Set when the row is (soft) deleted; a deleted row stays in the feed. */
  deletedAt: number | null;
  value: T;
}

export interface SeqSource {
  nextSeq(): number;
}

export interface PageQuery<T> {
  /** Rows with a sequence number above this one; 0 for the start of the feed. */
  readonly afterSeq: number;
  readonly limit: number;
  readonly order: "asc" | "desc";
  readonly includeDeleted: boolean;
  /** Further filter (for example sales by outlet); applied while walking, never on the whole table. */
  readonly filter?: (row: Row<T>) => boolean;
  /**
   * Walk only these slot lists (buckets of one secondary index, which never share a row), merged in
   * change order; the whole feed when absent. The filter must still hold for every row returned.
   */
  readonly sources?: readonly SlotList<T>[];
}

export interface Page<T> {
  readonly rows: Row<T>[];
  readonly hasMore: boolean;
  /** Slots the page looked at: what a page costs, whatever the size of the feed. */
  readonly visited: number;
}

/**
 * Rows in change order. A row is appended at each change; its older slot goes stale (the slot's sequence
 * number no longer matches the row's) and is marked so in two bit rows, one of the slots holding a row's
 * latest change and one of those whose row is also live (not deleted). A walk finds the next slot it
 * wants through them in a few steps, however many stale slots or deleted rows lie between, so a page
 * costs the rows it looks at. A list that is mostly stale is compacted, so memory follows the live rows.
 */
export class SlotList<T> {
  private rows: Row<T>[] = [];
  private seqs: number[] = [];
  /** Slots holding a row's latest change, and those whose row is also live; null while every slot is both. */
  private bits: { current: Bits; live: Bits } | null = null;
  private stale = 0;

  /** Slots holding a row's latest change: what walking the whole list would cost. */
  get length(): number {
    return this.rows.length - this.stale;
  }

  push(row: Row<T>): void {
    const live = row.deletedAt === null;
    if (!live && !this.bits) this.bits = marks(this.rows.length);
    this.rows.push(row);
    this.seqs.push(row.seq);
    this.bits?.current.push(true);
    this.bits?.live.push(live);
  }

  /**
   * The row whose latest change was slot `seq` changed again (maybe into another list): that slot is
   * stale from now on. A list more than half stale is compacted.
   */
  left(seq: number): void {
    const i = this.firstAfter(seq - 1);
    if (i >= this.seqs.length || this.seqs[i] !== seq) return;
    this.bits ??= marks(this.rows.length);
    this.bits.current.clear(i);
    this.bits.live.clear(i);
    this.stale++;
    if (this.stale > 32 && this.stale * 2 > this.rows.length) this.compact();
  }

  rowAt(i: number): Row<T> {
    return this.rows[i] as Row<T>;
  }

  seqAt(i: number): number {
    return this.seqs[i] as number;
  }

  /** The first slot at `i` or after holding a row's latest change (with a live row unless `withDeleted`), or -1. */
  nextSlot(i: number, withDeleted: boolean): number {
    if (!this.bits) return i >= 0 && i < this.rows.length ? i : -1;
    return (withDeleted ? this.bits.current : this.bits.live).next(i);
  }

  /** The last such slot at `i` or before, or -1. */
  previousSlot(i: number, withDeleted: boolean): number {
    if (!this.bits) return Math.min(i, this.rows.length - 1);
    return (withDeleted ? this.bits.current : this.bits.live).previous(i);
  }

  get end(): number {
    return this.rows.length;
  }

  /** Index of the first slot whose sequence number is above `seq` (they only rise). */
  firstAfter(seq: number): number {
    let lo = 0;
    let hi = this.seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.seqs[mid] as number) <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  *currentRows(): IterableIterator<Row<T>> {
    for (let i = this.nextSlot(0, true); i !== -1; i = this.nextSlot(i + 1, true)) yield this.rows[i] as Row<T>;
  }

  private compact(): void {
    const rows = [...this.currentRows()];
    this.rows = [];
    this.seqs = [];
    this.bits = null;
    this.stale = 0;
    for (const row of rows) this.push(row);
  }
}

/** Bits for `n` slots that all hold their row's latest change, a live row. */
function marks(n: number): { current: Bits; live: Bits } {
  const current = new Bits();
  const live = new Bits();
  for (let i = 0; i < n; i++) {
    current.push(true);
    live.push(true);
  }
  return { current, live };
}

/** A secondary index of a feed: for each key, that key's rows in change order. A row has at most one key. */
export class FeedIndex<T> {
  private readonly buckets = new Map<string, SlotList<T>>();

  constructor(readonly keyOf: (value: T) => string | null) {}

  /** The rows of one key (an empty list for a key no row has). */
  bucket(key: string): SlotList<T> | undefined {
    return this.buckets.get(key);
  }

  /** Number of keys that have a list. */
  get size(): number {
    return this.buckets.size;
  }

  /** Keys that have a list (some rows may since have moved to other keys). */
  keys(): IterableIterator<string> {
    return this.buckets.keys();
  }

  /** Adds the row under `key`, its value's key unless given (a row whose value is made on first read). */
  add(row: Row<T>, key: string | null = this.keyOf(row.value)): void {
    if (key === null) return;
    let list = this.buckets.get(key);
    if (!list) this.buckets.set(key, (list = new SlotList()));
    list.push(row);
  }

  /** The row's change `seq` under `value` is stale; a key left without rows is dropped. */
  leave(value: T, seq: number): void {
    const key = this.keyOf(value);
    if (key === null) return;
    const list = this.buckets.get(key);
    list?.left(seq);
    if (list?.length === 0) this.buckets.delete(key);
  }
}

export class Feed<T> {
  private readonly rows = new Map<string, Row<T>>();
  private readonly slots = new SlotList<T>();
  private readonly indexes: FeedIndex<T>[] = [];

  constructor(
    readonly name: string,
    private readonly seq: SeqSource,
  ) {}

  get size(): number {
    return this.rows.size;
  }

  /** Adds a secondary index; it sees every row put from then on (add indexes before any row). */
  index(keyOf: (value: T) => string | null): FeedIndex<T> {
    const index = new FeedIndex(keyOf);
    for (const row of this.slots.currentRows()) index.add(row);
    this.indexes.push(index);
    return index;
  }

  /** The row, deleted or not. Ids are matched case-insensitively (UUIDs are stored lower case). */
  row(id: string): Row<T> | undefined {
    // Ids the simulator made are already lower case: one lookup, no new string, in the common case.
    return this.rows.get(id) ?? this.rows.get(id.toLowerCase());
  }

  /** The value of a live (not deleted) row. */
  live(id: string): T | undefined {
    const row = this.row(id);
    return row && row.deletedAt === null ? row.value : undefined;
  }

  /** Inserts or replaces a row; the change gets the next sequence number. */
  put(id: string, value: T): Row<T> {
    const key = id.toLowerCase();
    const existing = this.rows.get(key);
    if (existing) {
      const before = existing.value;
      const seq = existing.seq;
      existing.value = value;
      this.touch(existing);
      this.left(before, seq);
      return existing;
    }
    const row: Row<T> = { id: key, seq: 0, deletedAt: null, value };
    this.touch(row);
    this.rows.set(key, row);
    return row;
  }

  /**
   * Appends a new row whose index keys are known (`keys[k]` for the k-th index added, exactly what its
   * value's keys will be), so its value is not read: a row whose value is made on first read stays unmade.
   * Its sequence number is the next one, or `seq`, one reserved earlier (above every slot of the feed).
   */
  insert(row: Row<T>, keys: readonly (string | null)[], seq?: number): Row<T> {
    if (keys.length !== this.indexes.length || this.rows.has(row.id) || row.id !== row.id.toLowerCase())
      throw new Error(`feed ${this.name}: insert needs a new lower-case id and one key per index`);
    if (seq !== undefined && this.slots.end > 0 && this.slots.seqAt(this.slots.end - 1) >= seq)
      throw new Error(`feed ${this.name}: a reserved sequence number must be above every slot's`);
    row.seq = seq ?? this.seq.nextSeq();
    this.slots.push(row);
    for (let k = 0; k < keys.length; k++) (this.indexes[k] as FeedIndex<T>).add(row, keys[k] as string | null);
    this.rows.set(row.id, row);
    return row;
  }

  /** Soft delete: the row keeps its value, is hidden from live reads and moves to the end of the feed. */
  markDeleted(id: string, at: number): Row<T> | undefined {
    const row = this.row(id);
    if (!row || row.deletedAt !== null) return undefined;
    const seq = row.seq;
    row.deletedAt = at;
    this.touch(row);
    this.left(row.value, seq);
    return row;
  }

  /** All rows in feed order (oldest change first). For fixtures and control views, not request paths. */
  all(): IterableIterator<Row<T>> {
    return this.slots.currentRows();
  }

  /** A saved row put back (snapshot restore): rows come in change order, each with its own sequence number. */
  restore(row: Row<T>): void {
    this.rows.set(row.id, row);
    this.slots.push(row);
    for (const index of this.indexes) index.add(row);
  }

  // rule pagination.each-row-once: a page walks the rows in change order from the cursor's sequence number, each row at its latest slot only.
  page(query: PageQuery<T>): Page<T> {
    const keep = (row: Row<T>): boolean =>
      (query.includeDeleted || row.deletedAt === null) && (!query.filter || query.filter(row));
    const walk = walker(query.sources ?? [this.slots], query.order, query.afterSeq, query.includeDeleted);
    const rows: Row<T>[] = [];
    let visited = 0;
    for (let row = walk(); row !== undefined; row = walk()) {
      visited++;
      if (!keep(row)) continue;
      // rule pagination.has-more-exactly-full: has_more is true only when a row follows a full page: the walk looks one row past it.
      if (rows.length === query.limit) return { rows, hasMore: true, visited };
      rows.push(row);
      // rule pagination.desc-one-page: desc returns one first page only (has_more false).
      if (query.order === "desc" && rows.length === query.limit) break;
    }
    return { rows, hasMore: false, visited };
  }

  /** After a change: the row's previous slot `seq` (in the feed, and in its indexes under its old value) is stale. */
  private left(before: T, seq: number): void {
    this.slots.left(seq);
    for (const index of this.indexes) index.leave(before, seq);
  }

  private touch(row: Row<T>): void {
    row.seq = this.seq.nextSeq();
    this.slots.push(row);
    for (const index of this.indexes) index.add(row);
  }
}

/**
 * The slots of some lists merged in change order, one row per call, undefined at the end: rising from
 * above `afterSeq` (asc), or falling from the newest (desc). Only slots holding a row's latest change
 * are walked, and only those of live rows unless `withDeleted`.
 */
function walker<T>(
  lists: readonly SlotList<T>[],
  order: "asc" | "desc",
  afterSeq: number,
  withDeleted: boolean,
): () => Row<T> | undefined {
  const asc = order === "asc";
  const step = asc ? 1 : -1;
  const seek = (list: SlotList<T>, i: number) =>
    asc ? list.nextSlot(i, withDeleted) : list.previousSlot(i, withDeleted);
  const heads = lists.map((list) => seek(list, asc ? list.firstAfter(afterSeq) : list.end - 1));
  if (lists.length === 1) {
    const list = lists[0] as SlotList<T>;
    let i = heads[0] as number;
    return () => {
      if (i === -1) return undefined;
      const row = list.rowAt(i);
      i = seek(list, i + step);
      return row;
    };
  }
  // Several lists: a heap keyed by sequence number (negated for desc) picks the next slot.
  const heap = new SeqHeap();
  lists.forEach((list, k) => {
    const i = heads[k] as number;
    if (i !== -1) heap.push(k, step * list.seqAt(i));
  });
  return () => {
    const k = heap.pop();
    if (k === undefined) return undefined;
    const list = lists[k] as SlotList<T>;
    const i = heads[k] as number;
    const next = seek(list, i + step);
    heads[k] = next;
    if (next !== -1) heap.push(k, step * list.seqAt(next));
    return list.rowAt(i);
  };
}

/** A binary min-heap of list numbers keyed by a sequence number: the merge of several slot lists. */
class SeqHeap {
  private readonly keys: number[] = [];
  private readonly items: number[] = [];

  push(item: number, key: number): void {
    let i = this.keys.length;
    this.keys.push(key);
    this.items.push(item);
    while (i > 0) {
      const up = (i - 1) >> 1;
      if ((this.keys[up] as number) <= key) break;
      this.keys[i] = this.keys[up] as number;
      this.items[i] = this.items[up] as number;
      i = up;
    }
    this.keys[i] = key;
    this.items[i] = item;
  }

  pop(): number | undefined {
    if (this.keys.length === 0) return undefined;
    const top = this.items[0];
    const lastKey = this.keys.pop() as number;
    const lastItem = this.items.pop() as number;
    const n = this.keys.length;
    if (n > 0) {
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && (this.keys[child + 1] as number) < (this.keys[child] as number)) child++;
        if ((this.keys[child] as number) >= lastKey) break;
        this.keys[i] = this.keys[child] as number;
        this.items[i] = this.items[child] as number;
        i = child;
      }
      this.keys[i] = lastKey;
      this.items[i] = lastItem;
    }
    return top;
  }
}

/** The version string of a row: its sequence number in decimal (spec: "an opaque string that increases"). */
export const versionOf = (row: { seq: number }): string => String(row.seq);
