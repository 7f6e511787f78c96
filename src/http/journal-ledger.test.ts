import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../contract/operations/index.js";
import { carriesSecrets } from "./exchange.js";
import { Journal, JournalLedger } from "./journal.js";
import { reachableText } from "../test-support/reachable.js";
import { BODY_PARTS, type SimRequest, type SimResponse } from "./types.js";

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

/** The bytes one recorded `request(0)` and `answer()` hold in a ledger. */
function entrySize(): number {
  const probe = new JournalLedger(1e12);
  new Journal("probe", { entries: 10, bodyBytes: 100 }, probe).record(request(0), answer(), "getProduct", 0, 1);
  return probe.heldBytes;
}

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
    const size = entrySize();
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

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("JournalLedger: exchanges recorded in batches, by the time anything reads them", () => {
  it("an exchange waits until the event loop's turn ends, or until a read, and then is in order", async () => {
    const ledger = new JournalLedger(1e12);
    const a = new Journal("a", { entries: 10, bodyBytes: 100 }, ledger);
    const b = new Journal("b", { entries: 10, bodyBytes: 100 }, ledger);
    a.record(request(1), answer(), "getProduct", 0, 1);
    b.record(request(2), answer(), "getProduct", 0, 1);
    expect(ledger.unsettled).toBe(2);
    await turn();
    expect(ledger.unsettled).toBe(0);
    a.record(request(3), answer(), "getProduct", 0, 1);
    // A read records what waits first.
    expect(a.page({}).data.map((e) => e.path)).toEqual(["/demo/v1/products/1", "/demo/v1/products/3"]);
    expect(ledger.unsettled).toBe(0);
    b.record(request(4), answer(), "getProduct", 0, 1);
    expect(b.coverage().requests).toBe(2);
  });

  it("at most 64 exchanges wait, and a request body longer than the journal's cap is recorded at once", () => {
    const ledger = new JournalLedger(1e12);
    const journal = new Journal("a", { entries: 100, bodyBytes: 100 }, ledger);
    for (let n = 0; n < 63; n++) journal.record(request(n), answer(), "getProduct", 0, 1);
    expect(ledger.unsettled).toBe(63);
    journal.record(request(63), answer(), "getProduct", 0, 1);
    expect(ledger.unsettled).toBe(0);
    journal.record(request(64), answer(), "getProduct", 0, 1);
    journal.record({ ...request(65), method: "POST", body: new Uint8Array(101) }, answer(), "createProduct", 0, 1);
    expect(ledger.unsettled).toBe(0);
    expect(journal.page({}).recorded).toBe(66);
  });

  it("over the budget the process's oldest entry goes first, in the order the journals were handed them", () => {
    const size = entrySize();
    const ledger = new JournalLedger(2 * size + size / 2);
    const a = new Journal("a", { entries: 10, bodyBytes: 100 }, ledger);
    const b = new Journal("b", { entries: 10, bodyBytes: 100 }, ledger);
    a.record(request(0), answer(), "getProduct", 0, 1);
    b.record(request(1), answer(), "getProduct", 0, 1);
    a.record(request(2), answer(), "getProduct", 0, 1);
    // Read b first: a's first entry, the oldest, is the one let go.
    expect(b.page({}).data.map((e) => e.path)).toEqual(["/demo/v1/products/1"]);
    expect(a.page({}).data.map((e) => e.path)).toEqual(["/demo/v1/products/2"]);
  });

  it("an exchange that cannot be recorded is logged and left out; the others are recorded", () => {
    const lines: string[] = [];
    const ledger = new JournalLedger(1e12, (line) => lines.push(line));
    const journal = new Journal("a", { entries: 10, bodyBytes: 100 }, ledger);
    const broken = new Proxy(answer(), {
      get: (target, name) => {
        if (name === "status") throw new Error("unreadable answer");
        return Reflect.get(target, name);
      },
    });
    journal.record(request(0), answer(), "getProduct", 0, 1);
    journal.record(request(1), broken, "getProduct", 0, 1);
    journal.record(request(2), answer(), "getProduct", 0, 1);
    expect(journal.page({}).data.map((e) => e.path)).toEqual(["/demo/v1/products/0", "/demo/v1/products/2"]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^internal error recording an exchange: Error: unreadable answer/);
  });

  it("a waiting exchange's credentials are gone from what the ledger keeps once its turn ends; customers' exchanges never wait", async () => {
    const ledger = new JournalLedger(1e12);
    const journal = new Journal("a", { entries: 10, bodyBytes: 1000 }, ledger);
    const read = {
      ...request(1),
      query: "access_token=q-secret-1&limit=5",
      headers: { host: "sim", authorization: "Bearer s3cret-token", cookie: "c-secret-2" },
    };
    journal.record(read, answer(), "getProduct", 0, 1);
    expect(ledger.unsettled).toBe(1);
    await turn();
    expect(ledger.unsettled).toBe(0);
    for (const secret of ["q-secret-1", "s3cret-token", "c-secret-2"])
      expect(reachableText(ledger, secret)).toEqual([]);
    const customer = {
      ...request(2),
      method: "POST",
      path: "/demo/v1/customers",
      body: new TextEncoder().encode('{"first_name":"Fiona","email":"fiona@example.com"}'),
      headers: { "content-type": "application/json" },
    };
    journal.record(request(3), answer(), "getProduct", 0, 1);
    journal.record(customer, answer(), "createCustomer", 0, 1);
    // Recorded at once, after what waited, its personal details redacted.
    expect(ledger.unsettled).toBe(0);
    for (const detail of ["Fiona", "fiona@example.com"]) expect(reachableText(ledger, detail)).toEqual([]);
    expect(
      journal.page({}).data.map((e) => [e.path, e.query, e.request.headers.authorization, e.request.body]),
    ).toEqual([
      ["/demo/v1/products/1", "access_token=[redacted]&limit=5", "Bearer [redacted]", null],
      ["/demo/v1/products/3", "", "Bearer [redacted]", null],
      ["/demo/v1/customers", "", undefined, '{"first_name":"[redacted]","email":"[redacted]"}'],
    ]);
  });
  it("the exchanges recorded at once are exactly those of the customers' operations, OAuth and unmatched paths", () => {
    // Spec, Customer: the personal details travel on /customers and /customers/{id}; customer groups hold none.
    const eager = OPERATIONS.filter((op) => carriesSecrets(op.id)).map((op) => op.id);
    const customers = OPERATIONS.filter((op) => op.path === "/customers" || op.path.startsWith("/customers/"));
    expect(eager).toEqual(customers.map((op) => op.id));
    expect(eager).toHaveLength(5);
    expect([null, "createToken", "authorize"].map(carriesSecrets)).toEqual([true, true, true]);
    expect(["listCustomerGroups", "getProduct", "createProduct"].map(carriesSecrets)).toEqual([false, false, false]);
  });
});

describe("Journal: a full ring's oldest entry is filled again with the newest exchange", () => {
  const partsAnswer = (parts: string[]): SimResponse => {
    const bytes = parts.map((p) => new TextEncoder().encode(p));
    const response: SimResponse = { status: 200, headers: { "content-type": "application/json" }, body: null };
    response[BODY_PARTS] = { of: response, parts: bytes, length: bytes.reduce((n, b) => n + b.length, 0) };
    return response;
  };

  it("an entry filled again holds the new exchange's headers, parts and query alone, nothing of the one before", () => {
    const ledger = new JournalLedger(1e12);
    const journal = new Journal("a", { entries: 2, bodyBytes: 100 }, ledger);
    const wide = {
      ...request(1),
      query: "limit=5&tag=old-tag",
      headers: { host: "sim", authorization: "Bearer t", "x-old-header": "old-value", accept: "old/accept" },
    };
    journal.record(
      wide,
      partsAnswer(['{"data":[', '{"id":"old-row"}', ",", '{"id":"old-row-2"}', "]}"]),
      "listProducts",
      0,
      1,
    );
    journal.record(request(2), answer(), "getProduct", 0, 1);
    // The ring is full: the third exchange fills the first's entry.
    journal.record(
      { ...request(3), headers: { host: "sim" } },
      partsAnswer(['{"data":', '{"id":"new"}', "}"]),
      "getProduct",
      0,
      1,
    );
    const page = journal.page({});
    expect(page).toMatchObject({ held: 2, recorded: 3, dropped: 1 });
    expect(
      page.data.map((e) => [e.seq, e.path, e.query, e.request.headers, e.response.body, e.response.body_bytes]),
    ).toEqual([
      [2, "/demo/v1/products/2", "", { host: "sim", authorization: "Bearer [redacted]" }, '{"id":"x"}', 10],
      [3, "/demo/v1/products/3", "", { host: "sim" }, '{"data":{"id":"new"}}', 21],
    ]);
    for (const gone of ["old-value", "old/accept", "x-old-header", "old-row", "old-tag"])
      expect(reachableText(ledger, gone)).toEqual([]);
    journal.clear();
    expect(ledger.heldBytes).toBe(0);
  });

  it("a full ring's entries are filled again, not made anew, so a long run adds no entries for the collector", () => {
    const ledger = new JournalLedger(1e12);
    const journal = new Journal("a", { entries: 4, bodyBytes: 100 }, ledger);
    const entries = () => [...(journal as unknown as { ring: { values(): Iterable<object> } }).ring.values()];
    for (let n = 0; n < 4; n++) journal.record(request(n), answer(), "getProduct", 0, 1);
    journal.page({});
    const first = new Set(entries());
    for (let n = 4; n < 1_000; n++) journal.record(request(n), answer(), "getProduct", 0, 1);
    expect(journal.page({}).data.map((e) => e.seq)).toEqual([997, 998, 999, 1000]);
    expect(entries().filter((e) => first.has(e))).toHaveLength(4);
    expect(ledger.queued).toBe(4);
  });
});

describe("JournalLedger: the coverage of test runs (docs/interfaces.md, Coverage of a run)", () => {
  it("GET /_sim/runs counts an exchange still waiting to be recorded, as the run's report does", () => {
    const ledger = new JournalLedger(1e12);
    new Journal("a", { entries: 10, bodyBytes: 100 }, ledger, "ci").record(request(0), answer(), "getMe", 0, 1);
    expect(ledger.runList()).toEqual([{ run: "ci", sandboxes: 1, requests: 1 }]);
    expect(ledger.runCoverage("ci")?.requests).toBe(1);
  });
});
