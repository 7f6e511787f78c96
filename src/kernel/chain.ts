/** A place in a `Chain`: the value and its neighbours (the chain sets them). */
export interface Link<T> {
  readonly value: T;
  prev: Link<T> | undefined;
  next: Link<T> | undefined;
  /** False once removed: removing it again does nothing. */
  linked: boolean;
}

/**
 * A doubly linked list in the order values were added: appending, removing any value by its link and
 * reading the oldest each cost the same whatever the length (a Map used as a queue can cost more: the
 * entries deleted from its front are walked past until it is rebuilt).
 */
export class Chain<T> {
  private head: Link<T> | undefined;
  private tail: Link<T> | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The oldest value, or undefined when empty. */
  get first(): T | undefined {
    return this.head?.value;
  }

  push(value: T): Link<T> {
    return this.append({ value, prev: undefined, next: undefined, linked: true });
  }

  /** Moves a linked value to the newest place, keeping its link. */
  moveToEnd(link: Link<T>): void {
    if (!link.linked || link === this.tail) return;
    this.remove(link);
    link.linked = true;
    this.append(link);
  }

  private append(link: Link<T>): Link<T> {
    link.prev = this.tail;
    if (this.tail) this.tail.next = link;
    else this.head = link;
    this.tail = link;
    this.count += 1;
    return link;
  }

  remove(link: Link<T>): void {
    if (!link.linked) return;
    link.linked = false;
    if (link.prev) link.prev.next = link.next;
    else this.head = link.next;
    if (link.next) link.next.prev = link.prev;
    else this.tail = link.prev;
    link.prev = undefined;
    link.next = undefined;
    this.count -= 1;
  }

  /** The values, oldest first. */
  *values(): IterableIterator<T> {
    for (let link = this.head; link; link = link.next) yield link.value;
  }
}
