// Tests of the kernel's bounded and ordered containers (docs/architecture.md, Bounds: every store of
// state has a bound; removing its oldest entry costs the same however many entries it holds).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OrderedMap } from "./ordered-map.js";
import { Recent } from "./recent.js";

describe("OrderedMap: a map kept oldest first, with the oldest removed in constant time", () => {
  it("renew moves an existing key to the newest end with its value; an unknown key changes nothing", () => {
    const map = new OrderedMap<string, number>();
    for (const [k, v] of [
      ["a", 1],
      ["b", 2],
      ["c", 3],
    ] as const)
      map.set(k, v);
    map.renew("a");
    expect([...map.entries()]).toEqual([
      ["b", 2],
      ["c", 3],
      ["a", 1],
    ]);
    map.renew("a");
    map.renew("x");
    expect([...map.entries()].map(([k]) => k)).toEqual(["b", "c", "a"]);
    map.renew("c");
    expect(map.shift()).toBe(2);
    expect(map.shift()).toBe(1);
    expect(map.shift()).toBe(3);
    expect(map.size).toBe(0);
    map.renew("a");
    expect(map.size).toBe(0);
  });

  it("keeps insertion order; a set without renew keeps the place, with renew moves the key to the newest end", () => {
    const map = new OrderedMap<string, number>();
    map.set("a", 1);
    map.set("b", 2);
    map.set("c", 3);
    map.set("a", 10);
    expect([...map.entries()]).toEqual([
      ["a", 10],
      ["b", 2],
      ["c", 3],
    ]);
    map.set("a", 11, true);
    expect([...map.values()]).toEqual([2, 3, 11]);
    expect(map.oldestKey()).toBe("b");
    expect(map.oldest()).toBe(2);
    expect(map.shift()).toBe(2);
    expect(map.delete("c")).toBe(true);
    expect(map.delete("c")).toBe(false);
    expect([...map.entries()]).toEqual([["a", 11]]);
    expect(map.get("a")).toBe(11);
    expect(map.has("b")).toBe(false);
    map.clear();
    expect(map.size).toBe(0);
    expect(map.shift()).toBeUndefined();
    expect(map.oldestKey()).toBeUndefined();
  });

  it("for any sequence of sets, renewals, deletions and shifts, it holds what a plain Map re-ordered by hand holds", () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("set" as const), key: fc.integer({ min: 0, max: 9 }), renew: fc.boolean() }),
      fc.record({ kind: fc.constant("delete" as const), key: fc.integer({ min: 0, max: 9 }) }),
      fc.record({ kind: fc.constant("shift" as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const map = new OrderedMap<number, number>();
        let model: [number, number][] = [];
        ops.forEach((o, n) => {
          if (o.kind === "set") {
            const at = model.findIndex(([k]) => k === o.key);
            if (at === -1) model.push([o.key, n]);
            else if (o.renew) model = [...model.filter(([k]) => k !== o.key), [o.key, n]];
            else model[at] = [o.key, n];
            map.set(o.key, n, o.renew);
          } else if (o.kind === "delete") {
            expect(map.delete(o.key)).toBe(model.some(([k]) => k === o.key));
            model = model.filter(([k]) => k !== o.key);
          } else {
            expect(map.shift()).toBe(model.shift()?.[1]);
          }
          expect([...map.entries()]).toEqual(model);
          expect(map.size).toBe(model.length);
        });
      }),
    );
  });

  it("used as a queue of 100,000 entries, 300,000 shift-and-add steps take each oldest in turn", () => {
    const map = new OrderedMap<number, number>();
    for (let i = 0; i < 100_000; i++) map.set(i, i);
    let sum = 0;
    for (let i = 100_000; i < 400_000; i++) {
      sum += map.shift() as number;
      map.set(i, i);
    }
    expect(sum).toBe((300_000 * 299_999) / 2);
    expect(map.size).toBe(100_000);
    expect(map.oldestKey()).toBe(300_000);
  });
});

describe("Recent: the newest items pushed, at most its bound, oldest first", () => {
  it("keeps the newest `max` items in the order they were pushed", () => {
    const recent = new Recent<number>(3);
    expect(recent.toArray()).toEqual([]);
    recent.push(1);
    recent.push(2);
    expect(recent.toArray()).toEqual([1, 2]);
    for (let i = 3; i <= 10; i++) recent.push(i);
    expect(recent.length).toBe(3);
    expect(recent.toArray()).toEqual([8, 9, 10]);
    expect(JSON.stringify(recent)).toBe("[8,9,10]");
  });

  it("refuses a bound under one", () => {
    expect(() => new Recent(0)).toThrow(/at least one/);
  });
});
