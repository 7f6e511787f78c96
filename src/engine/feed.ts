// A table whose rows are ordered by the store's change sequence (spec, Pagination and polling rules 1:
// rows come oldest change first). Every change gives the row a new sequence number, which is its
// `version`, and moves it to the end of the feed. Paging starts with a binary search, so a page deep
// in the feed costs what a first page costs.

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
}

export interface Page<T> {
  readonly rows: Row<T>[];
  readonly hasMore: boolean;
  /** Slots the page looked at: what a page costs, whatever the size of the feed. */
  readonly visited: number;
}

export class Feed<T> {
  private readonly rows = new Map<string, Row<T>>();
  /** Rows in append order; a slot is stale once its row has moved on (row.seq !== slotSeq). */
  private slots: Row<T>[] = [];
  private slotSeqs: number[] = [];
  private stale = 0;
  /** Slots before this index are all stale: rewriting rows in order leaves them at the front. */
  private head = 0;

  constructor(
    readonly name: string,
    private readonly seq: SeqSource,
  ) {}

  get size(): number {
    return this.rows.size;
  }

  /** The row, deleted or not. Ids are matched case-insensitively (UUIDs are stored lower case). */
  row(id: string): Row<T> | undefined {
    return this.rows.get(id.toLowerCase());
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
    const row: Row<T> = existing ?? { id: key, seq: 0, deletedAt: null, value };
    row.value = value;
    this.touch(row, !existing);
    if (!existing) this.rows.set(key, row);
    return row;
  }

  /** Soft delete: the row keeps its value, is hidden from live reads and moves to the end of the feed. */
  markDeleted(id: string, at: number): Row<T> | undefined {
    const row = this.row(id);
    if (!row || row.deletedAt !== null) return undefined;
    row.deletedAt = at;
    this.touch(row, false);
    return row;
  }

  /** All rows in feed order (oldest change first). For fixtures and control views, not request paths. */
  *all(): IterableIterator<Row<T>> {
    for (let i = 0; i < this.slots.length; i++) {
      const row = this.slots[i] as Row<T>;
      if (row.seq === this.slotSeqs[i]) yield row;
    }
  }

  page(query: PageQuery<T>): Page<T> {
    const keep = (row: Row<T>): boolean =>
      (query.includeDeleted || row.deletedAt === null) && (!query.filter || query.filter(row));
    const rows: Row<T>[] = [];
    let visited = 0;
    if (query.order === "desc") {
      // Spec, Pagination and polling rules 3: desc returns one first page only.
      for (let i = this.slots.length - 1; i >= 0 && rows.length < query.limit; i--) {
        visited++;
        const row = this.slots[i] as Row<T>;
        if (row.seq === this.slotSeqs[i] && keep(row)) rows.push(row);
      }
      return { rows, hasMore: false, visited };
    }
    let i = Math.max(this.head, this.firstSlotAfter(query.afterSeq));
    for (; i < this.slots.length; i++) {
      visited++;
      const row = this.slots[i] as Row<T>;
      if (row.seq !== this.slotSeqs[i] || !keep(row)) continue;
      if (rows.length === query.limit) return { rows, hasMore: true, visited };
      rows.push(row);
    }
    return { rows, hasMore: false, visited };
  }

  private touch(row: Row<T>, fresh: boolean): void {
    if (!fresh) this.stale++;
    row.seq = this.seq.nextSeq();
    this.slots.push(row);
    this.slotSeqs.push(row.seq);
    while (this.head < this.slots.length && (this.slots[this.head] as Row<T>).seq !== this.slotSeqs[this.head]) this.head++;
    if (this.stale > 1024 && this.stale * 2 > this.slots.length) this.compact();
  }

  private compact(): void {
    const slots: Row<T>[] = [];
    const seqs: number[] = [];
    for (const row of this.all()) {
      slots.push(row);
      seqs.push(row.seq);
    }
    this.slots = slots;
    this.slotSeqs = seqs;
    this.stale = 0;
    this.head = 0;
  }

  /** Index of the first slot whose sequence number is above `seq` (slot sequence numbers only rise). */
  private firstSlotAfter(seq: number): number {
    let lo = 0;
    let hi = this.slotSeqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.slotSeqs[mid] as number) <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** The version string of a row: its sequence number in decimal (spec: "an opaque string that increases"). */
export const versionOf = (row: { seq: number }): string => String(row.seq);
