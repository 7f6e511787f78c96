import { describe, expect, it } from "vitest";
import { Chain } from "../kernel/chain.js";
import { type Caps, DEFAULT_CAPS, ProcessBounds } from "./caps.js";
import { IDEMPOTENCY_TTL_MS, type IdempotencyRecord, IdempotencyStore, RECORD_OVERHEAD_BYTES } from "./idempotency.js";

// Spec, Limits: idempotency keys are remembered 24 hours, per credential. The records are bounded
// (docs/interfaces.md, Caps): by count and by bytes per credential and in the whole process, the oldest
// going first; a lapsed record is gone at the next request, whatever else is stored.

const T0 = Date.parse("2026-01-01T00:00:00Z");

function bounds(caps: Partial<Caps>): ProcessBounds {
  return new ProcessBounds({ ...DEFAULT_CAPS, ...caps });
}

/** Stores an answer under `key` for `credential` at `now`, as the pipeline does. */
function store(s: IdempotencyStore, credential: string, key: string, body = "{}", now = T0, subject?: string): void {
  expect(s.begin(credential, key, `fp-${key}`, now)).toEqual({ kind: "new" });
  s.finish(credential, key, { status: 201, body }, now, subject);
}

const kept = (s: IdempotencyStore, credential: string, key: string, now = T0) =>
  s.begin(credential, key, `fp-${key}`, now).kind === "replay";

/** What one record of `body` costs with a credential id of `credential`'s length and key `key`. */
const cost = (credential: string, key: string, body: string) =>
  RECORD_OVERHEAD_BYTES + credential.length + key.length + body.length;

describe("Spec, Limits: bounded idempotency records", () => {
  it("keeps at most idempotencyRecordsPerCredential per credential, the oldest going first; others keep theirs", () => {
    const s = new IdempotencyStore(bounds({ idempotencyRecordsPerCredential: 3 }));
    for (const key of ["k1", "k2", "k3", "k4", "k5"]) store(s, "cred-a", key);
    store(s, "cred-b", "k1");
    expect(s.usage("cred-a").records).toBe(3);
    expect(s.usage("cred-b").records).toBe(1);
    expect(["k3", "k4", "k5"].map((k) => kept(s, "cred-a", k))).toEqual([true, true, true]);
    expect(kept(s, "cred-b", "k1")).toBe(true);
    // An evicted key reads as new.
    expect(s.begin("cred-a", "k1", "fp-k1", T0)).toEqual({ kind: "new" });
  });

  it("keeps at most idempotencyBytesPerCredential bytes per credential; a record larger than that is not kept", () => {
    const body = "x".repeat(1000);
    const one = cost("cred-a", "k1", body);
    const s = new IdempotencyStore(bounds({ idempotencyBytesPerCredential: 2 * one + 10 }));
    for (const key of ["k1", "k2", "k3"]) store(s, "cred-a", key, body);
    expect(s.usage("cred-a")).toEqual({ records: 2, bytes: 2 * one });
    expect(kept(s, "cred-a", "k1")).toBe(false);
    store(s, "cred-a", "big", "y".repeat(3 * one));
    expect(kept(s, "cred-a", "big")).toBe(false);
    // The refused record pushed nothing out.
    expect(s.usage("cred-a")).toEqual({ records: 2, bytes: 2 * one });
  });

  it("counts the bytes of the answer in UTF-8", () => {
    const s = new IdempotencyStore(bounds({}));
    store(s, "c", "k", '{"name":"Zoë"}');
    expect(s.bytes).toBe(RECORD_OVERHEAD_BYTES + 1 + 1 + 15);
  });

  it("keeps at most idempotencyRecordsPerSandbox and idempotencyBytesPerSandbox per world, the world's own oldest going first", () => {
    const shared = bounds({ idempotencyRecordsPerSandbox: 3 });
    const busy = new IdempotencyStore(shared);
    const quiet = new IdempotencyStore(shared);
    store(quiet, "a", "1");
    for (const [credential, key] of [
      ["a", "1"],
      ["b", "2"],
      ["c", "3"],
      ["a", "4"],
    ] as const)
      store(busy, credential, key);
    expect([busy.size, quiet.size]).toEqual([3, 1]);
    expect(busy.records().map((r) => r.key)).toEqual(["2", "3", "4"]);
    const body = "y".repeat(500);
    const bytes = new IdempotencyStore(bounds({ idempotencyBytesPerSandbox: 2 * cost("a", "1", body) }));
    for (const key of ["1", "2", "3"]) store(bytes, "a", key, body);
    expect(bytes.records().map((r) => r.key)).toEqual(["2", "3"]);
  });

  it("counts every world of the process together: past the process cap the world holding the most lets its own oldest go, never a world holding fewer", () => {
    const shared = bounds({ idempotencyRecords: 4 });
    const one = new IdempotencyStore(shared);
    const two = new IdempotencyStore(shared);
    store(one, "a", "1");
    store(two, "a", "1");
    store(one, "a", "2");
    for (let i = 2; i < 100; i++) store(two, "a", String(i));
    expect(shared.idempotency.records).toBe(4);
    expect([one.size, two.size]).toEqual([2, 2]);
    expect(kept(one, "a", "1")).toBe(true);
    expect(kept(two, "a", "98")).toBe(true);
    expect(kept(two, "a", "97")).toBe(false);
  });

  it("bounds the process's bytes across worlds", () => {
    const body = "z".repeat(500);
    const each = cost("a", "1", body);
    const shared = bounds({ idempotencyBytes: 3 * each });
    const worlds = [new IdempotencyStore(shared), new IdempotencyStore(shared)];
    for (let i = 1; i <= 5; i++) store(worlds[i % 2] as IdempotencyStore, "a", String(i), body);
    expect(shared.idempotency.bytes).toBe(3 * each);
    expect(shared.idempotency.bytes).toBe(
      (worlds[0] as IdempotencyStore).bytes + (worlds[1] as IdempotencyStore).bytes,
    );
  });

  it("a discarded world gives its records back to the process and keeps nothing from requests still in flight", () => {
    const shared = bounds({});
    const old = new IdempotencyStore(shared);
    const next = new IdempotencyStore(shared);
    store(old, "a", "1");
    store(next, "a", "1");
    expect(old.begin("a", "pending", "fp", T0)).toEqual({ kind: "new" });
    old.discard();
    expect(shared.idempotency.records).toBe(1);
    expect(old.size).toBe(0);
    old.finish("a", "pending", { status: 201, body: "{}" }, T0);
    expect(shared.idempotency.records).toBe(1);
    expect(old.size).toBe(0);
  });

  it("a record lapses after exactly 24 hours and is dropped by the next request's expire, not by a sweep", () => {
    const s = new IdempotencyStore(bounds({}));
    store(s, "a", "early", "{}", T0);
    store(s, "a", "late", "{}", T0 + 1000);
    s.expire(T0 + IDEMPOTENCY_TTL_MS - 1);
    expect(s.size).toBe(2);
    s.expire(T0 + IDEMPOTENCY_TTL_MS);
    expect(s.size).toBe(1);
    expect(s.records().map((r) => r.key)).toEqual(["late"]);
    // Never replayed once lapsed, even when no expire ran before the lookup.
    expect(s.begin("a", "late", "fp-late", T0 + 1000 + IDEMPOTENCY_TTL_MS)).toEqual({ kind: "new" });
  });

  it("an in-progress request counts toward no cap and never lapses; a 5xx is forgotten", () => {
    const s = new IdempotencyStore(bounds({ idempotencyRecordsPerCredential: 1 }));
    expect(s.begin("a", "slow", "fp", T0)).toEqual({ kind: "new" });
    store(s, "a", "k1");
    store(s, "a", "k2");
    s.expire(T0 + 10 * IDEMPOTENCY_TTL_MS);
    expect(s.begin("a", "slow", "fp", T0 + 10 * IDEMPOTENCY_TTL_MS)).toEqual({ kind: "in_progress" });
    s.finish("a", "slow", { status: 503, body: "{}" }, T0);
    expect(s.begin("a", "slow", "fp", T0)).toEqual({ kind: "new" });
  });

  it("records() lists them oldest first and restore() takes them back into a fresh store, lapsed ones left out", () => {
    const s = new IdempotencyStore(bounds({}));
    store(s, "a", "1", '{"n":1}', T0);
    store(s, "b", "2", '{"n":2}', T0 + 5, "customer:c1");
    store(s, "a", "3", '{"n":3}', T0 + 9);
    const records = s.records();
    expect(records.map((r) => [r.credentialId, r.key, r.expiresAt])).toEqual([
      ["a", "1", T0 + IDEMPOTENCY_TTL_MS],
      ["b", "2", T0 + 5 + IDEMPOTENCY_TTL_MS],
      ["a", "3", T0 + 9 + IDEMPOTENCY_TTL_MS],
    ]);
    expect(records[1]).toEqual({
      credentialId: "b",
      key: "2",
      fingerprint: "fp-2",
      response: { status: 201, body: '{"n":2}' },
      expiresAt: T0 + 5 + IDEMPOTENCY_TTL_MS,
      subject: "customer:c1",
    } satisfies IdempotencyRecord);
    const copy = new IdempotencyStore(bounds({}));
    copy.restore([...records].reverse(), T0 + 1 + IDEMPOTENCY_TTL_MS);
    expect(copy.records()).toEqual(records.slice(1));
    expect(copy.begin("a", "3", "fp-3", T0 + 10)).toEqual({
      kind: "replay",
      response: { status: 201, body: '{"n":3}' },
    });
    // The subject came back too: erasure reaches a restored record.
    copy.rewrite("customer:c1", '{"erased":true}');
    expect(kept(copy, "b", "2", T0 + 10)).toBe(true);
    expect(copy.records()[0]?.response.body).toBe('{"erased":true}');
  });

  it("rewrite gives every answer about a subject a new body, keeps the status, and keeps the byte counts right", () => {
    const shared = bounds({});
    const s = new IdempotencyStore(shared);
    store(s, "a", "1", '{"data":{"email":"zoe@example.com"}}', T0, "customer:c1");
    store(s, "b", "2", '{"data":{"email":"zoe@example.com"}}', T0, "customer:c1");
    store(s, "a", "3", '{"data":{"other":true}}', T0, "customer:c2");
    s.rewrite("customer:c1", '{"data":{"email":null}}');
    expect(s.records().map((r) => r.response)).toEqual([
      { status: 201, body: '{"data":{"email":null}}' },
      { status: 201, body: '{"data":{"email":null}}' },
      { status: 201, body: '{"data":{"other":true}}' },
    ]);
    const total = s.records().reduce((sum, r) => sum + cost(r.credentialId, r.key, r.response.body ?? ""), 0);
    expect(s.bytes).toBe(total);
    expect(shared.idempotency.bytes).toBe(total);
    expect(s.usage("a").bytes + s.usage("b").bytes).toBe(total);
  });
});

describe("Chain", () => {
  it("appends, removes any link once and reads the oldest", () => {
    const chain = new Chain<number>();
    const links = [1, 2, 3, 4].map((n) => chain.push(n));
    chain.remove(links[0] as (typeof links)[0]);
    chain.remove(links[2] as (typeof links)[0]);
    chain.remove(links[2] as (typeof links)[0]);
    expect([...chain.values()]).toEqual([2, 4]);
    expect(chain.first).toBe(2);
    expect(chain.size).toBe(2);
    chain.remove(links[3] as (typeof links)[0]);
    chain.remove(links[1] as (typeof links)[0]);
    expect(chain.first).toBeUndefined();
    expect(chain.size).toBe(0);
    chain.push(5);
    expect([...chain.values()]).toEqual([5]);
  });
});
