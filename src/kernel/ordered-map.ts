// A Map that keeps its entries oldest first and removes the oldest in constant time. A plain Map also
// iterates in insertion order, but V8 leaves a hole for each deleted entry until the table is rebuilt,
// so taking "the first key" after many deletions from the front walks past every hole: used as a
// queue, a Map of 100,000 entries costs milliseconds per removal. Here the order is a linked list.

interface Node<K, V> {
  readonly key: K;
  value: V;
  older: Node<K, V> | undefined;
  newer: Node<K, V> | undefined;
}

export class OrderedMap<K, V> {
  private readonly nodes = new Map<K, Node<K, V>>();
  private oldestNode: Node<K, V> | undefined;
  private newestNode: Node<K, V> | undefined;

  get size(): number {
    return this.nodes.size;
  }

  get(key: K): V | undefined {
    return this.nodes.get(key)?.value;
  }

  has(key: K): boolean {
    return this.nodes.has(key);
  }

  /** Sets the value; a new key, or an existing one with `renew`, becomes the newest entry. */
  set(key: K, value: V, renew = false): void {
    const node = this.nodes.get(key);
    if (node) {
      node.value = value;
      if (renew && node !== this.newestNode) {
        this.unlink(node);
        this.append(node);
      }
      return;
    }
    const added: Node<K, V> = { key, value, older: undefined, newer: undefined };
    this.nodes.set(key, added);
    this.append(added);
  }

  delete(key: K): boolean {
    const node = this.nodes.get(key);
    if (!node) return false;
    this.nodes.delete(key);
    this.unlink(node);
    return true;
  }

  /** The oldest key, or undefined when empty. */
  oldestKey(): K | undefined {
    return this.oldestNode?.key;
  }

  /** The oldest value, or undefined when empty. */
  oldest(): V | undefined {
    return this.oldestNode?.value;
  }

  /** Removes the oldest entry and returns its value (undefined when empty). */
  shift(): V | undefined {
    const node = this.oldestNode;
    if (!node) return undefined;
    this.nodes.delete(node.key);
    this.unlink(node);
    return node.value;
  }

  clear(): void {
    this.nodes.clear();
    this.oldestNode = undefined;
    this.newestNode = undefined;
  }

  /** Entries oldest first. */
  *entries(): IterableIterator<[K, V]> {
    for (let node = this.oldestNode; node; node = node.newer) yield [node.key, node.value];
  }

  /** Values oldest first. */
  *values(): IterableIterator<V> {
    for (let node = this.oldestNode; node; node = node.newer) yield node.value;
  }

  private append(node: Node<K, V>): void {
    node.older = this.newestNode;
    node.newer = undefined;
    if (this.newestNode) this.newestNode.newer = node;
    else this.oldestNode = node;
    this.newestNode = node;
  }

  private unlink(node: Node<K, V>): void {
    if (node.older) node.older.newer = node.newer;
    else this.oldestNode = node.newer;
    if (node.newer) node.newer.older = node.older;
    else this.newestNode = node.older;
    node.older = undefined;
    node.newer = undefined;
  }
}
