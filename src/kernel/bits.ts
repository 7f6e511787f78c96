// A growable row of bits that finds the next (or previous) set bit in a few steps however many clear
// bits lie between: 32-bit words, with a summary level above each level that has more than one word
// (bit j of a summary word says whether word j below it has any bit set). Finding a set bit looks at
// one word per level, so a list of slots can skip a run of 100,000 dead ones in a dozen steps.

const ctz = (word: number): number => 31 - Math.clz32(word & -word);
const highest = (word: number): number => 31 - Math.clz32(word);

export class Bits {
  /** levels[0] holds the bits; each level above summarizes the one below. */
  private readonly levels: number[][] = [[]];
  private size = 0;

  /** Bits held, set or not. */
  get length(): number {
    return this.size;
  }

  /** Appends one bit. */
  push(on: boolean): void {
    const i = this.size++;
    const words = this.levels[0] as number[];
    if (i >>> 5 >= words.length) {
      words.push(0);
      this.grew(0);
    }
    if (on) this.set(i);
  }

  has(i: number): boolean {
    return i >= 0 && i < this.size && (((this.levels[0] as number[])[i >>> 5] as number) & (1 << (i & 31))) !== 0;
  }

  set(i: number): void {
    for (let k = 0; k < this.levels.length; k++) {
      const words = this.levels[k] as number[];
      const w = i >>> 5;
      const was = words[w] as number;
      words[w] = was | (1 << (i & 31));
      if (was !== 0) return;
      i = w;
    }
  }

  clear(i: number): void {
    if (i < 0 || i >= this.size) return;
    for (let k = 0; k < this.levels.length; k++) {
      const words = this.levels[k] as number[];
      const w = i >>> 5;
      const now = (words[w] as number) & ~(1 << (i & 31));
      words[w] = now;
      if (now !== 0) return;
      i = w;
    }
  }

  /** The first set bit at `from` or after, or -1. */
  next(from: number): number {
    if (from < 0) from = 0;
    if (from >= this.size) return -1;
    let i = from;
    for (let k = 0; k < this.levels.length; k++) {
      const words = this.levels[k] as number[];
      const w = i >>> 5;
      if (w >= words.length) return -1;
      const masked = (words[w] as number) & (-1 << (i & 31));
      if (masked !== 0) return this.descend(k, (w << 5) + ctz(masked), ctz);
      i = w + 1;
    }
    return -1;
  }

  /** The last set bit at `from` or before, or -1. */
  previous(from: number): number {
    if (from >= this.size) from = this.size - 1;
    if (from < 0) return -1;
    let i = from;
    for (let k = 0; k < this.levels.length; k++) {
      const words = this.levels[k] as number[];
      const w = i >>> 5;
      const b = i & 31;
      const masked = (words[w] as number) & (b === 31 ? -1 : (1 << (b + 1)) - 1);
      if (masked !== 0) return this.descend(k, (w << 5) + highest(masked), highest);
      if (w === 0) return -1;
      i = w - 1;
    }
    return -1;
  }

  /** From a set bit at level `k`, down to level 0, choosing each word's first (or last) set bit. */
  private descend(k: number, i: number, pick: (word: number) => number): number {
    for (let level = k - 1; level >= 0; level--) i = (i << 5) + pick((this.levels[level] as number[])[i] as number);
    return i;
  }

  /** Level `k` gained a word: the level above gains one too when needed, or is made once `k` has two words. */
  private grew(k: number): void {
    const words = this.levels[k] as number[];
    const above = this.levels[k + 1];
    if (above === undefined) {
      if (words.length < 2) return;
      const summary: number[] = [0];
      words.forEach((word, j) => {
        if (word !== 0) summary[0] = (summary[0] as number) | (1 << j);
      });
      this.levels.push(summary);
      return;
    }
    if ((words.length - 1) >>> 5 >= above.length) {
      above.push(0);
      this.grew(k + 1);
    }
  }
}
