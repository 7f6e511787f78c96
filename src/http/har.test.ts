// docs/interfaces.md, Journal and coverage (HAR export): journal entries as a HAR 1.2 log, checked against
// the HAR 1.2 format (src/test-support/har-1.2.schema.json) and value by value.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JournalEntry, JournalMessage } from "../contract/journal.js";
import { harProblems } from "../test-support/har.js";
import { type Har, parseQuery, toHar } from "./har.js";

const API_ROOT = "http://127.0.0.1:4010";
const OPTIONS = { apiRoot: API_ROOT, creatorVersion: "0.1.0" };
const JSON_TYPE = "application/json; charset=utf-8";

const message = (over: Partial<JournalMessage> = {}): JournalMessage => ({
  headers: {},
  body: null,
  body_bytes: 0,
  truncated: false,
  ...over,
});

const jsonMessage = (body: string, headers: Record<string, string> = {}): JournalMessage =>
  message({ headers: { "content-type": JSON_TYPE, ...headers }, body, body_bytes: Buffer.byteLength(body) });

function journalEntry(over: Partial<JournalEntry>): JournalEntry {
  return {
    seq: 1,
    started_at: "2030-01-01T00:00:00.000Z",
    duration_ms: 1.25,
    method: "GET",
    path: "/demo/v1/products",
    query: "",
    operation: "listProducts",
    status: 200,
    code: null,
    branches: [],
    injected: false,
    request: message({ headers: { authorization: "[redacted]" } }),
    response: jsonMessage('{"data":[]}'),
    ...over,
  };
}

const PRODUCT = '{"id":"prd_1","name":"Red shoe","version":1}';

/** One of each kind of exchange a test run journals. */
const ENTRIES: JournalEntry[] = [
  journalEntry({
    seq: 1,
    query: "q=red+shoe&name=a%20b&email=%5Bredacted%5D&limit=2",
    request: message({ headers: { authorization: "[redacted]", accept: "application/json" } }),
  }),
  journalEntry({
    seq: 2,
    started_at: "2030-01-01T00:00:01.000Z",
    duration_ms: 3,
    method: "POST",
    operation: "createProduct",
    status: 201,
    request: jsonMessage('{"name":"Red shoe","price":"12.50"}', { "idempotency-key": "k-1" }),
    response: jsonMessage(PRODUCT, { location: "/demo/v1/products/prd_1" }),
  }),
  journalEntry({
    seq: 3,
    method: "PATCH",
    path: "/demo/v1/products/prd_1",
    operation: "updateProduct",
    status: 409,
    code: "STALE_VERSION",
    branches: ["catalog.stale-version"],
    request: jsonMessage('{"version":0,"name":"Blue shoe"}'),
    response: jsonMessage('{"error":{"code":"STALE_VERSION","message":"..."}}'),
  }),
  journalEntry({
    seq: 4,
    query: "limit=200",
    response: message({
      headers: { "content-type": JSON_TYPE },
      body: '{"data":[{"id":"prd_1"',
      body_bytes: 90_000,
      truncated: true,
    }),
  }),
  journalEntry({
    seq: 5,
    method: "DELETE",
    path: "/demo/v1/products/prd_1",
    operation: "deleteProduct",
    status: 204,
    response: message(),
  }),
  journalEntry({
    seq: 6,
    status: 503,
    code: "SERVICE_UNAVAILABLE",
    injected: true,
    response: jsonMessage('{"error":{"code":"SERVICE_UNAVAILABLE","message":"injected"}}', { "retry-after": "1" }),
  }),
  journalEntry({
    seq: 7,
    method: "POST",
    path: "/oauth/token",
    operation: "createToken",
    status: 400,
    code: "invalid_grant",
    request: message({
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=authorization_code&code=%5Bredacted%5D&client_secret=%5Bredacted%5D",
      body_bytes: 200,
      truncated: true,
    }),
    response: jsonMessage('{"error":"invalid_grant"}'),
  }),
];

const har = toHar(ENTRIES, OPTIONS);
const entries = har.log.entries;

describe("toHar: the journal as HAR 1.2", () => {
  it("is a valid HAR 1.2 document naming retail-sim as its creator", () => {
    expect(harProblems(har)).toEqual([]);
    expect(har.log.version).toBe("1.2");
    expect(har.log.creator).toEqual({ name: "retail-sim", version: "0.1.0" });
    expect(entries.map((e) => e._seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(harProblems(JSON.parse(JSON.stringify(har)))).toEqual([]);
  });

  it("writes a GET with a query: url, form-decoded pairs, no body, times on the journal's clock", () => {
    expect(entries[0]).toEqual({
      startedDateTime: "2030-01-01T00:00:00.000Z",
      time: 1.25,
      request: {
        method: "GET",
        url: `${API_ROOT}/demo/v1/products?q=red+shoe&name=a%20b&email=%5Bredacted%5D&limit=2`,
        httpVersion: "HTTP/1.1",
        cookies: [],
        headers: [
          { name: "authorization", value: "[redacted]" },
          { name: "accept", value: "application/json" },
        ],
        queryString: [
          { name: "q", value: "red shoe" },
          { name: "name", value: "a b" },
          { name: "email", value: "[redacted]" },
          { name: "limit", value: "2" },
        ],
        headersSize: -1,
        bodySize: 0,
      },
      response: {
        status: 200,
        statusText: "OK",
        httpVersion: "HTTP/1.1",
        cookies: [],
        headers: [{ name: "content-type", value: JSON_TYPE }],
        content: { size: 11, mimeType: JSON_TYPE, text: '{"data":[]}' },
        redirectURL: "",
        headersSize: -1,
        bodySize: 11,
      },
      cache: {},
      timings: { send: 0, wait: 1.25, receive: 0 },
      _seq: 1,
      _operation: "listProducts",
      _code: null,
      _branches: [],
      _injected: false,
    });
    expect(new URL(entries[0]!.request.url).href).toBe(entries[0]!.request.url);
  });

  it("writes a POST's JSON body as postData, and the Location header as redirectURL", () => {
    const { request, response } = entries[1]!;
    expect(request.postData).toEqual({ mimeType: JSON_TYPE, text: '{"name":"Red shoe","price":"12.50"}' });
    expect(request.bodySize).toBe(35);
    expect(request.headers).toContainEqual({ name: "idempotency-key", value: "k-1" });
    expect(request.url).toBe(`${API_ROOT}/demo/v1/products`);
    expect(request.queryString).toEqual([]);
    expect(response.status).toBe(201);
    expect(response.statusText).toBe("Created");
    expect(response.redirectURL).toBe("/demo/v1/products/prd_1");
    expect(response.content).toEqual({ size: PRODUCT.length, mimeType: JSON_TYPE, text: PRODUCT });
    expect(entries[1]!.time).toBe(3);
    expect(entries[1]!.timings).toEqual({ send: 0, wait: 3, receive: 0 });
  });

  it("carries an error answer's code, operation and branches in custom fields", () => {
    const entry = entries[2]!;
    expect(entry.response.status).toBe(409);
    expect(entry.response.statusText).toBe("Conflict");
    expect(entry.response.content.text).toBe('{"error":{"code":"STALE_VERSION","message":"..."}}');
    expect([entry._seq, entry._operation, entry._code, entry._branches, entry._injected]).toEqual([
      3,
      "updateProduct",
      "STALE_VERSION",
      ["catalog.stale-version"],
      false,
    ]);
  });

  it("keeps a cut body's whole size and says it was cut", () => {
    expect(entries[3]!.response.content).toEqual({
      size: 90_000,
      mimeType: JSON_TYPE,
      text: '{"data":[{"id":"prd_1"',
      comment: "truncated to the journal's body cap (the whole body was 90000 bytes)",
    });
    expect(entries[3]!.response.bodySize).toBe(90_000);
    expect(entries[6]!.request.postData).toEqual({
      mimeType: "application/x-www-form-urlencoded",
      text: "grant_type=authorization_code&code=%5Bredacted%5D&client_secret=%5Bredacted%5D",
      comment: "truncated to the journal's body cap (the whole body was 200 bytes)",
    });
    expect(entries[6]!.request.bodySize).toBe(200);
    expect(entries[6]!.response.statusText).toBe("Bad Request");
    expect(entries[6]!._code).toBe("invalid_grant");
  });

  it("writes a 204 with no body and no query: no text, size 0, no '?'", () => {
    const { request, response } = entries[4]!;
    expect(request.url).toBe(`${API_ROOT}/demo/v1/products/prd_1`);
    expect(request.queryString).toEqual([]);
    expect("postData" in request).toBe(false);
    expect(response.statusText).toBe("No Content");
    expect(response.content).toEqual({ size: 0, mimeType: "" });
    expect(response.bodySize).toBe(0);
  });

  it("marks an injected fault", () => {
    expect(entries[5]!._injected).toBe(true);
    expect(entries[5]!.response.statusText).toBe("Service Unavailable");
    expect(entries[5]!.response.headers).toContainEqual({ name: "retry-after", value: "1" });
    expect(entries.filter((e) => e._injected).map((e) => e._seq)).toEqual([6]);
  });

  it("writes no entries for an empty journal, and an empty statusText for a status without a reason phrase", () => {
    expect(harProblems(toHar([], OPTIONS))).toEqual([]);
    expect(toHar([], OPTIONS).log.entries).toEqual([]);
    const odd = toHar([journalEntry({ status: 599 })], OPTIONS);
    expect(odd.log.entries[0]!.response.statusText).toBe("");
    expect(harProblems(odd)).toEqual([]);
  });
});

describe("parseQuery: form-style decoding of the query string", () => {
  it("reads + as a space and percent escapes as UTF-8, keeping escapes that are not UTF-8 as written", () => {
    expect(parseQuery("a=%C3%A9+x&b=%F0%9F%98%80&c=a%2Bb&d=%zz&e=%E9&f=%E9%41&g=%C3&h=100%")).toEqual([
      { name: "a", value: "é x" },
      { name: "b", value: "😀" },
      { name: "c", value: "a+b" },
      { name: "d", value: "%zz" },
      { name: "e", value: "%E9" },
      { name: "f", value: "%E9A" },
      { name: "g", value: "%C3" },
      { name: "h", value: "100%" },
    ]);
  });

  it("skips empty pieces; a piece without '=' is a name with an empty value; the value runs to the end", () => {
    expect(parseQuery("&flag&=v&&k=a=b&")).toEqual([
      { name: "flag", value: "" },
      { name: "", value: "v" },
      { name: "k", value: "a=b" },
    ]);
    expect(parseQuery("")).toEqual([]);
  });

  it("reads back any pairs a form encoder wrote", () => {
    const text = fc.string({ unit: "grapheme", maxLength: 12 });
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { maxLength: 6 }), (pairs) => {
        const query = new URLSearchParams(pairs).toString();
        expect(parseQuery(query)).toEqual(pairs.map(([name, value]) => ({ name, value })));
      }),
    );
  });

  /** Strings dense in escapes, well-formed or not (`%C3%A9`, `%E9`, `%z`), and the form's separators. */
  const escapeHeavy = fc.string({
    unit: fc.constantFrom("%", "C", "3", "A", "9", "E", "F", "0", "8", "+", "=", "&", "z"),
    maxLength: 30,
  });

  it("agrees with URLSearchParams on any query whose escapes are well-formed UTF-8", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary-ascii", maxLength: 40 }), escapeHeavy), (query) => {
        // A leading "&" (an empty piece) keeps URLSearchParams from dropping a leading "?", which here is data.
        const theirs = [...new URLSearchParams(`&${query}`)].map(([name, value]) => ({ name, value }));
        fc.pre(!JSON.stringify(theirs).includes("\uFFFD"));
        expect(parseQuery(query)).toEqual(theirs);
      }),
    );
  });
});

describe("HAR 1.2 schema: the check can fail", () => {
  const broken = (edit: (doc: any) => void): unknown => {
    const doc = JSON.parse(JSON.stringify(har));
    edit(doc);
    return doc;
  };

  it.each([
    ["a missing log", (d: any) => delete d.log, "/: must have required property 'log'"],
    ["a missing creator", (d: any) => delete d.log.creator, "/log: must have required property 'creator'"],
    ["another version", (d: any) => (d.log.version = "1.1"), "/log/version: must be equal to constant"],
    [
      "a timing without wait",
      (d: any) => delete d.log.entries[0].timings.wait,
      "/log/entries/0/timings: must have required property 'wait'",
    ],
    ["a negative send", (d: any) => (d.log.entries[1].timings.send = -1), "/log/entries/1/timings/send: must be >= 0"],
    [
      "a status as text",
      (d: any) => (d.log.entries[2].response.status = "409"),
      "/log/entries/2/response/status: must be number",
    ],
    [
      "a header without value",
      (d: any) => delete d.log.entries[0].request.headers[0].value,
      "/log/entries/0/request/headers/0: must have required property 'value'",
    ],
    [
      "a custom field without underscore",
      (d: any) => (d.log.entries[0].seq = 1),
      "/log/entries/0: must NOT have additional properties",
    ],
    [
      "postData with neither text nor params",
      (d: any) => delete d.log.entries[1].request.postData.text,
      "/log/entries/1/request/postData: must match exactly one schema in oneOf",
    ],
    [
      "a start that is no date-time",
      (d: any) => (d.log.entries[0].startedDateTime = "yesterday"),
      '/log/entries/0/startedDateTime: must match format "date-time"',
    ],
  ])("refuses %s", (_name, edit, problem) => {
    expect(harProblems(broken(edit))).toContain(problem);
  });
});

describe("toHar on any journal (property)", () => {
  const text = fc.string({ unit: "binary", maxLength: 30 });
  const side = fc.record({
    headers: fc.dictionary(text, text, { maxKeys: 4 }),
    body: fc.option(text, { nil: null }),
    body_bytes: fc.nat(),
    truncated: fc.boolean(),
  });
  const anyEntry: fc.Arbitrary<JournalEntry> = fc.record({
    seq: fc.integer({ min: 1 }),
    started_at: fc
      .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true })
      .map((d) => d.toISOString()),
    duration_ms: fc.double({ min: 0, max: 1e6, noNaN: true }),
    method: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"),
    path: text,
    query: text,
    operation: fc.option(text, { nil: null }),
    status: fc.integer({ min: 100, max: 599 }),
    code: fc.option(text, { nil: null }),
    branches: fc.array(text, { maxLength: 3 }),
    injected: fc.boolean(),
    request: side,
    response: side,
  });

  it("is always valid HAR 1.2 and keeps method, status, url and bodies", () => {
    fc.assert(
      fc.property(fc.array(anyEntry, { maxLength: 5 }), (journal) => {
        const doc: Har = toHar(journal, OPTIONS);
        expect(harProblems(doc)).toEqual([]);
        expect(harProblems(JSON.parse(JSON.stringify(doc)))).toEqual([]);
        expect(doc.log.entries).toHaveLength(journal.length);
        journal.forEach((e, i) => {
          const out = doc.log.entries[i]!;
          expect(out.request.method).toBe(e.method);
          expect(out.response.status).toBe(e.status);
          expect(out.request.url).toBe(API_ROOT + e.path + (e.query === "" ? "" : `?${e.query}`));
          expect(out.request.postData?.text).toBe(e.request.body ?? undefined);
          expect(out.response.content.text).toBe(e.response.body ?? undefined);
          expect(out.response.content.size).toBe(e.response.body_bytes);
          expect([out._seq, out._operation, out._code, out._branches, out._injected]).toEqual([
            e.seq,
            e.operation,
            e.code,
            e.branches,
            e.injected,
          ]);
        });
      }),
      { numRuns: 200 },
    );
  });
});
