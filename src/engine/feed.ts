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
 * Rows in change order. A row is appended at each change; its older slots go stale (the slot's sequence
 * number no longer matches the row's) and are skipped, dropped from the front, or compacted away.
 */
export class SlotList<T> {
  private rows: Row<T>[] = [];
  private seqs: number[] = [];
  private stale = 0;
  /** Slots before this index are all stale: rewriting rows in order leaves them at the front. */
  private head = 0;

  /** Slots held, stale ones included: what walking the whole list would cost. */
  get length(): number {
    return this.rows.length - this.head;
  }

  push(row: Row<T>): void {
    this.rows.push(row);
    this.seqs.push(row.seq);
  }

  /**
   * One of this list's slots has gone stale (its row changed again, maybe into another list): stale
   * slots at the front are dropped, and a list that is mostly stale is compacted, so a list nobody
   * writes to any more costs no more to page than its live rows.
   */
  left(): void {
    this.stale++;
    while (this.head < this.rows.length && !this.current(this.head)) this.head++;
    if (this.stale > 1024 && this.stale * 2 > this.rows.length) this.compact();
  }

  rowAt(i: number): Row<T> {
    return this.rows[i] as Row<T>;
  }

  seqAt(i: number): number {
    return this.seqs[i] as number;
  }

  /** Whether slot `i` still holds its row's latest change. */
  current(i: number): boolean {
    return (this.rows[i] as Row<T>).seq === this.seqs[i];
  }

  get end(): number {
    return this.rows.length;
  }

  /** Index of the first live-or-stale slot whose sequence number is above `seq` (they only rise). */
  firstAfter(seq: number): number {
    let lo = this.head;
    let hi = this.seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.seqs[mid] as number) <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  *currentRows(): IterableIterator<Row<T>> {
    for (let i = this.head; i < this.rows.length; i++) if (this.current(i)) yield this.rows[i] as Row<T>;
  }

  private compact(): void {
    const rows: Row<T>[] = [];
    const seqs: number[] = [];
    for (const row of this.currentRows()) {
      rows.push(row);
      seqs.push(row.seq);
    }
    this.rows = rows;
    this.seqs = seqs;
    this.stale = 0;
    this.head = 0;
  }
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

  add(row: Row<T>): void {
    const key = this.keyOf(row.value);
    if (key === null) return;
    let list = this.buckets.get(key);
    if (!list) this.buckets.set(key, (list = new SlotList()));
    list.push(row);
  }

  leave(value: T): void {
    const key = this.keyOf(value);
    if (key !== null) this.buckets.get(key)?.left();
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
      existing.value = value;
      this.touch(existing);
      this.left(before);
      return existing;
    }
    const row: Row<T> = { id: key, seq: 0, deletedAt: null, value };
    this.touch(row);
    this.rows.set(key, row);
    return row;
  }

  /** Soft delete: the row keeps its value, is hidden from live reads and moves to the end of the feed. */
  markDeleted(id: string, at: number): Row<T> | undefined {
    const row = this.row(id);
    if (!row || row.deletedAt !== null) return undefined;
    row.deletedAt = at;
    this.touch(row);
    this.left(row.value);
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

  page(query: PageQuery<T>): Page<T> {
    const keep = (row: Row<T>): boolean =>
      (query.includeDeleted || row.deletedAt === null) && (!query.filter || query.filter(row));
    const walk = walker(query.sources ?? [this.slots], query.order, query.afterSeq);
    const rows: Row<T>[] = [];
    let visited = 0;
    for (let row = walk(); row !== undefined; row = walk()) {
      visited++;
      if (row === STALE || !keep(row)) continue;
      if (rows.length === query.limit) return { rows, hasMore: true, visited };
      rows.push(row);
      // Spec, Pagination and polling rules 3: desc returns one first page only (has_more false).
      if (query.order === "desc" && rows.length === query.limit) break;
    }
    return { rows, hasMore: false, visited };
  }

  /** After a change: the row's previous slots (in the feed, and in its indexes under its old value) are stale. */
  private left(before: T): void {
    this.slots.left();
    for (const index of this.indexes) index.leave(before);
  }

  private touch(row: Row<T>): void {
    row.seq = this.seq.nextSeq();
    this.slots.push(row);
    for (const index of this.indexes) index.add(row);
  }
}

/** What a walk yields for a slot that no longer holds its row's latest change. */
const STALE = Symbol("stale") as unknown as Row<never>;

/**
 * The slots of some lists merged in change order, one per call, undefined at the end: rising from
 * above `afterSeq` (asc), or falling from the newest (desc). A stale slot yields STALE.
 */
function walker<T>(lists: readonly SlotList<T>[], order: "asc" | "desc", afterSeq: number): () => Row<T> | undefined {
  const step = order === "asc" ? 1 : -1;
  const heads = lists.map((list) => (order === "asc" ? list.firstAfter(afterSeq) : list.end - 1));
  // Desc stops at each list's first slot that may be current (its stale prefix is skipped).
  const floors = lists.map((list) => (order === "asc" ? 0 : list.firstAfter(0)));
  const inside = (k: number, i: number) => i >= (floors[k] as number) && i < (lists[k] as SlotList<T>).end;
  const slot = (list: SlotList<T>, i: number) => (list.current(i) ? list.rowAt(i) : STALE);
  if (lists.length === 1) {
    const list = lists[0] as SlotList<T>;
    let i = heads[0] as number;
    return () => {
      if (!inside(0, i)) return undefined;
      const row = slot(list, i);
      i += step;
      return row;
    };
  }
  // Several lists: a heap keyed by sequence number (negated for desc) picks the next slot.
  const heap = new SeqHeap();
  lists.forEach((list, k) => {
    if (inside(k, heads[k] as number)) heap.push(k, step * list.seqAt(heads[k] as number));
  });
  return () => {
    const k = heap.pop();
    if (k === undefined) return undefined;
    const list = lists[k] as SlotList<T>;
    const i = heads[k] as number;
    heads[k] = i + step;
    if (inside(k, i + step)) heap.push(k, step * list.seqAt(i + step));
    return slot(list, i);
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
