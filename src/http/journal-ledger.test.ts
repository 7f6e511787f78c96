import { describe, expect, it } from "vitest";
import { Journal, JournalLedger } from "./journal.js";
import type { SimRequest, SimResponse } from "./types.js";

// docs/interfaces.md, Journal and coverage: every journal of the process within journal-bytes, the
// process's oldest entries first; entries a full ring lets go leave nothing behind.

const request = (n: number): SimRequest => ({
  method: "GET",
  path: `/demo/v1/products/${n}`,
  query: "",
  headers: { host: "sim", authorization: "Bearer secret-token" },
  body: null,
  remoteAddress: "127.0.0.1",
  origin: "http://sim",
});
const answer = (): SimResponse => ({
  status: 200,
  headers: { "content-type": "application/json" },
  body: '{"id":"x"}',
});

describe("JournalLedger: one byte budget and one order for every journal of the process", () => {
  it("a journal's ring that lets entries go leaves the process's order no longer than what it holds", () => {
    const ledger = new JournalLedger(1e12);
    const journal = new Journal("a", { entries: 3, bodyBytes: 100 }, ledger);
    let most = 0;
    for (let n = 0; n < 10_000; n++) {
      journal.record(request(n), answer(), "getProduct", 0, 1);
      most = Math.max(most, ledger.queued);
    }
    // One journal's traffic alone: what its ring lets go leaves the order at once, so the order holds no more.
    expect(most).toBe(3);
    const page = journal.page({});
    expect(page).toMatchObject({ held: 3, recorded: 10_000, dropped: 9_997 });
    expect(page.data.map((e) => e.path)).toEqual([9997, 9998, 9999].map((n) => `/demo/v1/products/${n}`));
    // The bytes of the three held entries only.
    journal.clear();
    expect(ledger.heldBytes).toBe(0);
  });

  it("over the budget the process's oldest entry goes first, whichever journal holds it", () => {
    const probe = new JournalLedger(1e12);
    const one = new Journal("probe", { entries: 10, bodyBytes: 100 }, probe);
    one.record(request(0), answer(), "getProduct", 0, 1);
    const size = probe.heldBytes;
    // Room for four entries of this size.
    const ledger = new JournalLedger(4 * size + size / 2);
    const a = new Journal("a", { entries: 100, bodyBytes: 100 }, ledger);
    const b = new Journal("b", { entries: 100, bodyBytes: 100 }, ledger);
    for (let n = 0; n < 3; n++) a.record(request(n), answer(), "getProduct", 0, 1);
    for (let n = 3; n < 6; n++) b.record(request(n), answer(), "getProduct", 0, 1);
    expect(a.page({}).data.map((e) => e.seq)).toEqual([3]);
    expect(b.page({}).data.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(ledger.heldBytes).toBe(4 * size);
  });

  it("journals taking turns keep the order within their held entries and 1,025 more, and its budget exact", () => {
    const ledger = new JournalLedger(1e12);
    const journals = [3, 5, 1].map((entries, i) => new Journal(`j${i}`, { entries, bodyBytes: 100 }, ledger));
    let most = 0;
    let n = 0;
    // Uneven turns: each journal's oldest is rarely the process's oldest.
    for (let round = 0; round < 3_000; round++)
      for (const [i, journal] of journals.entries())
        for (let k = 0; k <= (round + i) % 3; k++) {
          journal.record(request(n++), answer(), "getProduct", 0, 1);
          most = Math.max(most, ledger.queued);
        }
    expect(most).toBeLessThanOrEqual(9 + 1025);
    expect(journals.map((j) => j.page({}).held)).toEqual([3, 5, 1]);
    for (const journal of journals) journal.clear();
    expect(ledger.heldBytes).toBe(0);
    expect(ledger.queued).toBe(0);
  });
});
