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
      const bytes: number[] = [];
      for (let i = 0; i < 4; i++) {
        const w = next32();
        bytes.push(w & 0xff, (w >>> 8) & 0xff, (w >>> 16) & 0xff, (w >>> 24) & 0xff);
      }
      bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
      bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
      const h = bytes.map((x) => HEX[x]);
      return `${h.slice(0, 4).join("")}-${h.slice(4, 6).join("")}-${h.slice(6, 8).join("")}-${h.slice(8, 10).join("")}-${h.slice(10, 16).join("")}`;
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
