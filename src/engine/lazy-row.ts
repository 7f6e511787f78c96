import type { Row } from "./feed.js";

// Rows whose value is made on first read (the large fixture's products and sales): the build keeps
// the row (id, version, deletion) and what its value is made from; everything that reads `row.value`
// (a page, a filter, a view, a write, a snapshot) sees the value the build would have stored.

/** Makes the value of row number `index` of a build: the same value whenever it is asked. */
export interface RowSource<T> {
  make(index: number, id: string): T;
}

/** A row whose value is made on its first read and kept from then on; a write replaces it as any row's. */
export class LazyRow<T> implements Row<T> {
  seq = 0;
  deletedAt: number | null = null;
  private made: T | undefined = undefined;

  constructor(
    readonly id: string,
    private readonly source: RowSource<T>,
    private readonly index: number,
  ) {}

  get value(): T {
    this.made ??= this.source.make(this.index, this.id);
    return this.made;
  }

  set value(value: T) {
    this.made = value;
  }

  /** The value the build gave the row, made anew and not kept, whatever was written since. */
  original(): T {
    return this.source.make(this.index, this.id);
  }
}
