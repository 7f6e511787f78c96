// Tests of Bits, the row of bits a feed's slot list walks (docs/architecture.md, State: a page costs the
// rows it looks at, however many stale slots or deleted rows lie between).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Bits } from "./bits.js";

/** The answers a plain array gives. */
const nextIn = (model: boolean[], from: number) => {
  for (let i = Math.max(0, from); i < model.length; i++) if (model[i]) return i;
  return -1;
};
const previousIn = (model: boolean[], from: number) => {
  for (let i = Math.min(from, model.length - 1); i >= 0; i--) if (model[i]) return i;
  return -1;
};

describe("Bits: the next and previous set bit, whatever lies between", () => {
  it("for any pushes and clears, next and previous from every position answer what a plain array answers", () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("push" as const), on: fc.boolean(), times: fc.integer({ min: 1, max: 300 }) }),
      fc.record({ kind: fc.constant("clear" as const), at: fc.nat() }),
      fc.record({ kind: fc.constant("set" as const), at: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const bits = new Bits();
        const model: boolean[] = [];
        for (const o of ops) {
          if (o.kind === "push") {
            for (let t = 0; t < o.times; t++) {
              bits.push(o.on);
              model.push(o.on);
            }
          } else if (model.length > 0) {
            const at = o.at % model.length;
            if (o.kind === "clear") bits.clear(at);
            else bits.set(at);
            model[at] = o.kind === "set";
          }
        }
        expect(bits.length).toBe(model.length);
        const positions = Array.from({ length: model.length + 2 }, (_, i) => i - 1);
        const answers = (next: (i: number) => number, previous: (i: number) => number, has: (i: number) => boolean) =>
          positions.map((i) => [next(i), previous(i), has(i)]);
        expect(
          answers(
            (i) => bits.next(i),
            (i) => bits.previous(i),
            (i) => bits.has(i),
          ),
        ).toEqual(
          answers(
            (i) => nextIn(model, i),
            (i) => previousIn(model, i),
            (i) => model[i] === true,
          ),
        );
      }),
      { numRuns: 100 },
    );
  });

  it("across three summary levels (100,000 bits), a lone set bit is found from either end", () => {
    const bits = new Bits();
    for (let i = 0; i < 100_000; i++) bits.push(i === 0 || i === 77_777 || i === 99_999);
    bits.clear(0);
    bits.clear(99_999);
    expect(bits.next(0)).toBe(77_777);
    expect(bits.previous(99_999)).toBe(77_777);
    expect(bits.next(77_778)).toBe(-1);
    expect(bits.previous(77_776)).toBe(-1);
    bits.set(31);
    expect(bits.next(0)).toBe(31);
    expect(bits.previous(77_776)).toBe(31);
  });
});
