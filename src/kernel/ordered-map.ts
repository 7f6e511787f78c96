// A Map that keeps its entries oldest first and removes the oldest in constant time. A plain Map also
// iterates in insertion order, but V8 leaves a hole for each deleted entry until the table is rebuilt,
// so taking "the first key" after many deletions from the front walks past every hole: used as a
// queue, a Map of 100,000 entries costs milliseconds per removal. Here the order is a `Chain`.

import { Chain, type Link } from "./chain.js";

interface Entry<K, V> {
  readonly key: K;
  value: V;
}

export class OrderedMap<K, V> {
  private readonly links = new Map<K, Link<Entry<K, V>>>();
  private readonly order = new Chain<Entry<K, V>>();

  get size(): number {
    return this.links.size;
  }

  get(key: K): V | undefined {
    return this.links.get(key)?.value.value;
  }

  has(key: K): boolean {
    return this.links.has(key);
  }

  /** Sets the value; a new key, or an existing one with `renew`, becomes the newest entry. */
  set(key: K, value: V, renew = false): void {
    const link = this.links.get(key);
    if (link) {
      link.value.value = value;
      if (renew && link.next !== undefined) {
        this.order.remove(link);
        this.links.set(key, this.order.push(link.value));
      }
      return;
    }
    this.links.set(key, this.order.push({ key, value }));
  }

  /** Makes an existing key the newest entry (nothing for an unknown key); allocates nothing. */
  renew(key: K): void {
    const link = this.links.get(key);
    if (link) this.order.moveToEnd(link);
  }

  delete(key: K): boolean {
    const link = this.links.get(key);
    if (!link) return false;
    this.links.delete(key);
    this.order.remove(link);
    return true;
  }

  /** The oldest key, or undefined when empty. */
  oldestKey(): K | undefined {
    return this.order.first?.key;
  }

  /** The oldest value, or undefined when empty. */
  oldest(): V | undefined {
    return this.order.first?.value;
  }

  /** Removes the oldest entry and returns its value (undefined when empty). */
  shift(): V | undefined {
    const first = this.order.first;
    if (!first) return undefined;
    this.delete(first.key);
    return first.value;
  }

  clear(): void {
    for (const key of [...this.links.keys()]) this.delete(key);
  }

  /** Entries oldest first. */
  *entries(): IterableIterator<[K, V]> {
    for (const entry of this.order.values()) yield [entry.key, entry.value];
  }

  /** Values oldest first. */
  *values(): IterableIterator<V> {
    for (const entry of this.order.values()) yield entry.value;
  }
}
