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
}

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

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const hex8 = (w: number): string => (HEX[w >>> 24] as string) + HEX[(w >>> 16) & 255] + HEX[(w >>> 8) & 255] + HEX[w & 255];
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Derives an independent stream for a named purpose (so adding ids in one area does not shift another's). */
export function createRng(seed: number, stream = ""): Rng {
  let mix = seed >>> 0;
  for (let i = 0; i < stream.length; i++) mix = Math.imul(mix ^ stream.charCodeAt(i), 0x01000193) >>> 0;
  const init = splitmix32(mix);
  let a = init();
  let b = init();
  let c = init();
  let d = init();
  const next32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) next32();
  return {
    next32,
    uuid() {
      // Four words, hex, with the version (4) and variant (10xx) bits set: no intermediate arrays.
      const a = next32();
      const b = next32();
      const c = next32();
      const d = next32();
      const h1 = hex8(a);
      const h2 = hex8(((b & 0xffff0fff) | 0x00004000) >>> 0);
      const h3 = hex8(((c & 0x3fffffff) | 0x80000000) >>> 0);
      const h4 = hex8(d);
      return `${h1}-${h2.slice(0, 4)}-${h2.slice(4)}-${h3.slice(0, 4)}-${h3.slice(4)}${h4}`;
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
