import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Queue } from "./queue.js";

describe("docs/architecture.md, Layers (kernel): Queue keeps values first in, first out, as an array would", () => {
  it("pushes, shifts, retains and clears in the order an array model gives, across its growth", () => {
    const op = fc.oneof(
      fc.record({ push: fc.integer({ min: 0, max: 999 }) }),
      fc.constant({ shift: true as const }),
      fc.constant({ retainEven: true as const }),
      fc.constant({ clear: true as const }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const queue = new Queue<number>();
        let model: number[] = [];
        for (const o of ops) {
          if ("push" in o) {
            queue.push(o.push);
            model.push(o.push);
          } else if ("shift" in o) expect(queue.shift()).toBe(model.shift());
          else if ("retainEven" in o) {
            queue.retain((x) => x % 2 === 0);
            model = model.filter((x) => x % 2 === 0);
          } else {
            queue.clear();
            model = [];
          }
          expect(queue.size).toBe(model.length);
          expect(queue.first).toBe(model[0]);
        }
        expect([...queue.values()]).toEqual(model);
      }),
    );
  });

  it("an empty queue has no first value and shifts undefined", () => {
    const queue = new Queue<string>();
    expect(queue.first).toBeUndefined();
    expect(queue.shift()).toBeUndefined();
    queue.push("a");
    expect(queue.shift()).toBe("a");
    expect(queue.size).toBe(0);
  });
});
