// Seeded randomness: every id and token of a simulator derives from its seed.
// sfc32 seeded through splitmix32; small, fast and identical on every platform.

export interface Rng {
  /** A uniform 32-bit unsigned integer. */
  next32(): number;
  /** A UUID in version 4 format, lower case. */
  uuid(): string;
  /** `length` characters of base62. */
  token(length: number): string;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** The generator's four 32-bit words: `rngFromState` continues the stream exactly where this one is. */
  state(): RngState;
}

/** The whole state of a stream: sfc32's four words, each an unsigned 32-bit integer. */
export type RngState = readonly [number, number, number, number];

function splitmix32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

const HEX_CODES = Array.from({ length: 16 }, (_, i) => i.toString(16).charCodeAt(0));
/** Character codes of a UUID being written; dashes stay in place. One flat string per UUID, no concatenation. */
const UUID_CODES: number[] = Array.from({ length: 36 }, () => 45);
/** Writes `digits` hex digits of `word` (low digits last) ending just before `end`. */
function putHex(word: number, end: number, digits: number): void {
  for (let k = end - 1; k >= end - digits; k--) {
    UUID_CODES[k] = HEX_CODES[word & 15] as number;
    word >>>= 4;
  }
}
/**
 * The UUID (version 4, lower case) that four words of a stream make: what `uuid()` returns for them. A
 * caller that keeps the words (four numbers in a typed array) can write the text only when it is read.
 */
export function uuidText(a: number, b: number, c: number, d: number): string {
  // Layout 8-4-4-4-12: word a, word b in two halves, word c in two halves, word d; the version (4) and
  // variant (10xx) bits set. One flat string, no intermediate arrays.
  putHex(a, 8, 8);
  const vb = ((b & 0xffff0fff) | 0x00004000) >>> 0;
  putHex(vb >>> 16, 13, 4);
  putHex(vb & 0xffff, 18, 4);
  const vc = ((c & 0x3fffffff) | 0x80000000) >>> 0;
  putHex(vc >>> 16, 23, 4);
  putHex(vc & 0xffff, 28, 4);
  putHex(d, 36, 8);
  return String.fromCharCode.apply(null, UUID_CODES);
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Derives an independent stream for a named purpose (so adding ids in one area does not shift another's). */
export function createRng(seed: number, stream = ""): Rng {
  let mix = seed >>> 0;
  for (let i = 0; i < stream.length; i++) mix = Math.imul(mix ^ stream.charCodeAt(i), 0x01000193) >>> 0;
  const init = splitmix32(mix);
  const rng = rngFromState([init(), init(), init(), init()]);
  for (let i = 0; i < 12; i++) rng.next32();
  return rng;
}

/** A stream that goes on exactly where the one whose `state()` this is stood (a saved simulator's ids continue). */
export function rngFromState(state: RngState): Rng {
  let [a, b, c, d] = state.map((word) => word >>> 0) as [number, number, number, number];
  const next32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  return {
    next32,
    state: () => [a >>> 0, b >>> 0, c >>> 0, d >>> 0],
    uuid() {
      const a = next32();
      const b = next32();
      const c = next32();
      return uuidText(a, b, c, next32());
    },
    token(length) {
      let out = "";
      while (out.length < length) {
        const w = next32();
        // 62 * 69273666 < 2^32: reject the biased tail.
        if (w >= 62 * 69273666) continue;
        out += BASE62[w % 62];
      }
      return out;
    },
    int(min, max) {
      return min + (next32() % (max - min + 1));
    },
  };
}

export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}
