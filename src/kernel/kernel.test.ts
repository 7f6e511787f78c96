import { describe, expect, it } from "vitest";
import { iso, manualClock, parseUtcDateTime, systemClock } from "./clock.js";
import { createRng, isUuid, rngFromState } from "./random.js";

describe("docs/architecture.md, Layers (kernel): the clock, manual is frozen until moved, system is the wall clock plus travel", () => {
  it("manual starts at 2026-01-01T00:00:00Z by default and moves only when told", () => {
    const clock = manualClock();
    expect(iso(clock.now())).toBe("2026-01-01T00:00:00.000Z");
    clock.advance(1500);
    expect(iso(clock.now())).toBe("2026-01-01T00:00:01.500Z");
    clock.set(Date.parse("2026-02-01T00:00:00Z"));
    expect(iso(clock.now())).toBe("2026-02-01T00:00:00.000Z");
    clock.reset();
    expect(iso(clock.now())).toBe("2026-01-01T00:00:00.000Z");
  });

  it("system follows the wall clock and keeps its travel offset", () => {
    let wall = 1_000_000;
    const clock = systemClock(undefined, () => wall);
    expect(clock.now()).toBe(1_000_000);
    clock.advance(60_000);
    wall += 5;
    expect(clock.now()).toBe(1_060_005);
    clock.set(5_000_000);
    expect(clock.now()).toBe(5_000_000);
    wall += 10;
    expect(clock.now()).toBe(5_000_010);
    clock.reset();
    expect(clock.now()).toBe(wall);
  });

  it("system can start at a chosen time and ticks from there", () => {
    let wall = 1_000;
    const clock = systemClock(50_000, () => wall);
    expect(clock.now()).toBe(50_000);
    wall += 7;
    expect(clock.now()).toBe(50_007);
  });

  it("Spec, What the service does 5: timestamps are UTC ending in Z; offsets are refused", () => {
    expect(parseUtcDateTime("2026-03-04T05:06:07Z")).toBe(Date.parse("2026-03-04T05:06:07Z"));
    expect(parseUtcDateTime("2026-03-04T05:06:07.123Z")).toBe(Date.parse("2026-03-04T05:06:07.123Z"));
    expect(parseUtcDateTime("2026-03-04T05:06:07+01:00")).toBeUndefined();
    expect(parseUtcDateTime("2026-03-04")).toBeUndefined();
    expect(parseUtcDateTime("2026-13-04T05:06:07Z")).toBeUndefined();
  });
});

describe("docs/architecture.md, Layers (kernel): the rng, seeded, reproducible, UUID-shaped ids", () => {
  it("the same seed and stream give the same sequence; another seed or stream differs", () => {
    const a = createRng(1, "ids");
    const b = createRng(1, "ids");
    const seqA = [a.uuid(), a.uuid(), a.token(20)];
    expect([b.uuid(), b.uuid(), b.token(20)]).toEqual(seqA);
    expect(createRng(2, "ids").uuid()).not.toBe(seqA[0]);
    expect(createRng(1, "secrets").uuid()).not.toBe(seqA[0]);
  });

  it("Spec, What the service does 5: ids are version 4 UUID strings", () => {
    const rng = createRng(42);
    for (let i = 0; i < 200; i++) {
      const id = rng.uuid();
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(isUuid(id)).toBe(true);
    }
    expect(isUuid("not-a-uuid")).toBe(false);
  });

  it("docs/interfaces.md, Snapshots: a stream rebuilt from its state() goes on with the same ids and tokens", () => {
    const a = createRng(3, "ids");
    for (let i = 0; i < 1000; i++) a.next32();
    const state = a.state();
    expect(state).toHaveLength(4);
    for (const word of state) expect(Number.isInteger(word) && word >= 0 && word < 2 ** 32).toBe(true);
    // Through JSON, as a snapshot carries it.
    const b = rngFromState(JSON.parse(JSON.stringify(state)));
    expect([b.uuid(), b.token(40), b.int(1, 1000), b.next32()]).toEqual([
      a.uuid(),
      a.token(40),
      a.int(1, 1000),
      a.next32(),
    ]);
    expect(b.state()).toEqual(a.state());
  });

  it("tokens are base62 of the asked length and int stays in range", () => {
    const rng = createRng(7);
    expect(rng.token(40)).toMatch(/^[0-9A-Za-z]{40}$/);
    for (let i = 0; i < 100; i++) {
      const n = rng.int(3, 5);
      expect(n >= 3 && n <= 5).toBe(true);
    }
  });
});

describe("kernel money: spec, What the service does 2 (integer cents), exact rounding half away from zero", () => {
  it("5400 x 8.75% is 472.5 and rounds to 473 (binary floating point says 472.49999999999994)", async () => {
    const { applyRate } = await import("./money.js");
    expect(5400 * 0.0875).toBe(472.49999999999994);
    expect(applyRate(5400, 0.0875)).toBe(473);
    expect(applyRate(-5400, 0.0875)).toBe(-473);
    expect(applyRate(5997, 0.0875)).toBe(525);
    expect(applyRate(100, 0)).toBe(0);
  });

  it("extends prices by quantities in thousandths and shares amounts exactly", async () => {
    const { extend, share, divRound } = await import("./money.js");
    expect(extend(1999, 2500)).toBe(4998); // 2.5 x 19.99 = 49.975 -> 49.98
    expect(extend(333, 1000)).toBe(333);
    expect(share(999, 1, 3)).toBe(333);
    expect(share(1000, 1, 3)).toBe(333);
    expect(divRound(5n, 2n)).toBe(3);
    expect(divRound(-5n, 2n)).toBe(-3);
    expect(divRound(5n, -2n)).toBe(-3);
  });
});

describe("Spec, InventoryLevel: quantities to 3 decimal places, at any size", () => {
  it("accepts 3 decimals (and their floating-point neighbours) and refuses a 4th, small or large", async () => {
    const { hasDecimals } = await import("../contract/validate.js");
    for (const ok of [0.3, 0.1 + 0.2, 1.005, 123456.789, 999999999.999, -42.125, 7])
      expect(hasDecimals(ok, 3)).toBe(true);
    for (const bad of [1.2345, 0.0001, 123456.7891, 999999999.9995]) expect(hasDecimals(bad, 3)).toBe(false);
  });
});

describe("docs/performance.md, Reads and pages (serialization): cached row JSON is embedded as is, and the text equals plain serialization", () => {
  it("stringifyPayload joins RawJson rows into the envelope exactly as JSON.stringify would write them", async () => {
    const { RawJson, stringifyPayload } = await import("./raw-json.js");
    const rows = [
      { id: "a", n: 1 },
      { id: "b", tags: [{ id: "t" }] },
    ];
    const list = { data: rows.map((r) => new RawJson(JSON.stringify(r))), next_cursor: "c", has_more: true };
    expect(stringifyPayload(list)).toBe(JSON.stringify({ data: rows, next_cursor: "c", has_more: true }));
    expect(stringifyPayload({ data: new RawJson('{"id":"a"}') })).toBe('{"data":{"id":"a"}}');
    expect(stringifyPayload({ data: [{ id: "x" }, new RawJson('{"id":"y"}')] })).toBe(
      '{"data":[{"id":"x"},{"id":"y"}]}',
    );
    expect(stringifyPayload({ error: { code: "X" } })).toBe('{"error":{"code":"X"}}');
  });

  it("JsonCache serializes a row once per version and variant, and keeps at most its bound", async () => {
    const { JsonCache } = await import("./raw-json.js");
    const cache = new JsonCache<{ id: string }>(3);
    let made = 0;
    const rows = Array.from({ length: 5 }, (_, i) => ({ id: `r${i}` }));
    const make = (row: { id: string }, v: number) => () => (made++, { id: row.id, v });
    expect(cache.get(rows[0]!, 1, "", make(rows[0]!, 1)).text).toBe('{"id":"r0","v":1}');
    expect(cache.get(rows[0]!, 1, "", make(rows[0]!, 1)).text).toBe('{"id":"r0","v":1}');
    expect(made).toBe(1);
    // A new version, or another variant (an API root), serializes again.
    expect(cache.get(rows[0]!, 2, "", make(rows[0]!, 2)).text).toBe('{"id":"r0","v":2}');
    expect(cache.get(rows[0]!, 2, "http://other", make(rows[0]!, 2)).text).toBe('{"id":"r0","v":2}');
    expect(made).toBe(3);
    for (const row of rows) cache.get(row, 1, "", make(row, 1));
    expect(cache.size).toBe(3);
    // The least recently read went out first: r0 to r1 are made again, r4 is still there.
    made = 0;
    cache.get(rows[4]!, 1, "", make(rows[4]!, 1));
    expect(made).toBe(0);
    cache.get(rows[0]!, 1, "", make(rows[0]!, 1));
    expect(made).toBe(1);
  });

  it("JsonCache keeps the rows read most: a read makes a row the newest, and the least recently read goes out", async () => {
    const { JsonCache } = await import("./raw-json.js");
    const cache = new JsonCache<{ id: string }>(3);
    let made = 0;
    const rows = Array.from({ length: 6 }, (_, i) => ({ id: `r${i}` }));
    const get = (i: number) => cache.get(rows[i]!, 1, "", () => (made++, { id: rows[i]!.id }));
    for (const i of [0, 1, 2]) get(i);
    // r0 is read on every turn while r3, r4 and r5 pass through: it is never made again.
    for (const i of [3, 4, 5]) {
      get(0);
      get(i);
    }
    made = 0;
    get(0);
    expect(made).toBe(0);
    get(1);
    expect(made).toBe(1);
    expect(cache.size).toBe(3);
  });

  it("payloadParts are the bytes of stringifyPayload, the rows' cached bytes embedded as they are", async () => {
    const { JsonCache, RawJson, payloadParts, stringifyPayload } = await import("./raw-json.js");
    const rows = [
      { id: "a", name: "Café ☕ 雪 \u{1F600}", n: 1 },
      { id: "b", tags: [{ id: "t" }], note: 'quote " and \\ and \u2028' },
    ];
    const cache = new JsonCache<{ id: string }>(10);
    const raw = rows.map((r) => cache.get(r, 1, "", () => r));
    const joined = (payload: unknown) => Buffer.concat(payloadParts(payload) ?? []).toString("utf8");
    const cases: unknown[] = [
      { data: raw, next_cursor: "c", has_more: true },
      { data: raw, next_cursor: null, has_more: false },
      { data: [{ id: "x", deleted_at: "2026-01-01T00:00:00Z" }, raw[1]] },
      { data: raw[0] },
      { data: raw[1], error: { code: "IMAGE_FETCH_FAILED", message: "é" } },
    ];
    for (const payload of cases) {
      expect(joined(payload)).toBe(stringifyPayload(payload));
      expect(joined(payload)).toBe(JSON.stringify(payload));
    }
    // The rows' own bytes, not copies: a page holds the cached buffers' memory.
    const parts = payloadParts({ data: raw, next_cursor: null, has_more: false }) ?? [];
    expect(parts).toHaveLength(raw.length + 2);
    expect(parts[2]!.buffer).toBe(raw[1]!.listed.buffer);
    expect(parts[2]!.byteOffset).toBe(raw[1]!.listed.byteOffset);
    expect(Buffer.from(new RawJson('{"id":"é"}').bytes).equals(Buffer.from('{"id":"é"}', "utf8"))).toBe(true);
    // A row's bytes are one view, made once: an answer of a cached row (and a journal entry keeping its
    // parts) makes no object of its own for them, and a page's first row is that same view.
    expect(raw[0]!.bytes).toBe(raw[0]!.bytes);
    expect(parts[1]).toBe(raw[0]!.bytes);
    expect(payloadParts({ data: raw[0] })?.[1]).toBe(raw[0]!.bytes);
    // A payload without cached rows has no parts: it is stringified whole.
    expect(payloadParts({ data: [{ id: "x" }] })).toBeUndefined();
    expect(payloadParts({ error: { code: "X" } })).toBeUndefined();
    expect(payloadParts(null)).toBeUndefined();
  });
});
