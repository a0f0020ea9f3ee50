// A bounded FIFO: pushing onto a full queue drops (and returns) the oldest item.

export class BoundedQueue<T> {
  private items: T[] = [];

  constructor(readonly capacity: number) {}

  get length(): number {
    return this.items.length;
  }

  /** Add an item; returns the item dropped to make room, if any. */
  push(item: T): T | undefined {
    this.items.push(item);
    return this.items.length > this.capacity ? this.items.shift() : undefined;
  }

  /** Remove and return up to `count` items from the front. */
  take(count: number): T[] {
    return this.items.splice(0, Math.max(0, count));
  }

  /** Whether some item passes `test`. */
  some(test: (item: T) => boolean): boolean {
    return this.items.some(test);
  }

  /** Remove every item `drop` says to; returns how many went. */
  removeWhere(drop: (item: T) => boolean): number {
    const before = this.items.length;
    this.items = this.items.filter((item) => !drop(item));
    return before - this.items.length;
  }
}
