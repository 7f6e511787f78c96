/**
 * A first-in first-out queue in one array used as a ring: adding at the back and taking from the front
 * cost the same however long it is, and neither allocates (the array doubles when full, then is reused).
 * Unlike `Chain`, nothing is allocated per value, so a queue of long-lived values adds no garbage.
 */
export class Queue<T> {
  private items: (T | undefined)[] = new Array(8);
  private head = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The oldest value, or undefined when empty. */
  get first(): T | undefined {
    return this.count === 0 ? undefined : this.items[this.head];
  }

  /** The newest value, or undefined when empty. */
  get last(): T | undefined {
    return this.count === 0 ? undefined : this.items[(this.head + this.count - 1) & (this.items.length - 1)];
  }

  push(value: T): void {
    if (this.count === this.items.length) this.grow();
    this.items[(this.head + this.count) & (this.items.length - 1)] = value;
    this.count += 1;
  }

  /** Takes the oldest value out, or undefined when empty. */
  shift(): T | undefined {
    if (this.count === 0) return undefined;
    const value = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) & (this.items.length - 1);
    this.count -= 1;
    return value;
  }

  /** Keeps only the values `keep` accepts, in their order. */
  retain(keep: (value: T) => boolean): void {
    const kept: T[] = [];
    for (const value of this.values()) if (keep(value)) kept.push(value);
    this.clear();
    for (const value of kept) this.push(value);
  }

  clear(): void {
    this.items = new Array(8);
    this.head = 0;
    this.count = 0;
  }

  /** The values, oldest first. */
  *values(): IterableIterator<T> {
    const mask = this.items.length - 1;
    for (let i = 0; i < this.count; i++) yield this.items[(this.head + i) & mask] as T;
  }

  /** The length is a power of two, so a place is found with a mask. */
  private grow(): void {
    const next: (T | undefined)[] = new Array(this.items.length * 2);
    for (let i = 0; i < this.count; i++) next[i] = this.items[(this.head + i) & (this.items.length - 1)];
    this.items = next;
    this.head = 0;
  }
}
