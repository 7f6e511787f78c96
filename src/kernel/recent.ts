/** The newest `max` items pushed, oldest first: a ring, so a push costs the same however many came before. */
export class Recent<T> implements Iterable<T> {
  private readonly items: T[] = [];
  /** Where the oldest item is once the ring is full (the next push overwrites it). */
  private start = 0;

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`Recent holds at least one item (got ${max})`);
  }

  get length(): number {
    return this.items.length;
  }

  push(item: T): void {
    if (this.items.length < this.max) {
      this.items.push(item);
      return;
    }
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.max;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    const n = this.items.length;
    for (let i = 0; i < n; i++) yield this.items[(this.start + i) % n] as T;
  }

  /** The items oldest first, as a new array. */
  toArray(): T[] {
    return [...this];
  }

  toJSON(): T[] {
    return this.toArray();
  }
}
