// Tests of the customer reads against the spec (retail-api-v1.md): "Resources" (Customer, CustomerGroup,
// Tombstone), the `/customers` rows of "Endpoints", "Pagination and polling rules", "Soft deletion" and
// "Errors"; and the recorded choices (docs/spec-choices.md, "Customers"): `GET /customers/{id}`,
// `GET /customer-groups`, `GET /customer-groups/{id}`, the walk-in customer and the default group.
// Fixture: scenarios/fixtures/demo-people.ts (ALICE, BOB, CARMEN, DEV, ERIN, WALKIN; groups VIP, Wholesale
// and the default "All Customers"). Every test uses a fresh simulator on a manual clock (2026-01-01T00:00:00Z).
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator.js";
import { call, makeSim, type Reply } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";
import { CUSTOMER_NULLABLE } from "../../test-support/customers.js";

const P = "/demo/v1/customers";
const G = "/demo/v1/customer-groups";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^[0-9]+$/;
const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const START = "2026-01-01T00:00:00.000Z";
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000abc";
const version = expect.stringMatching(DECIMAL);
const uuid = expect.stringMatching(UUID);

type Customer = Record<string, unknown> & {
  id: string;
  customer_code: string;
  customer_group_id: string;
  version: string;
};
type Group = { id: string; name: string; version: string };

const FIELDS = [
  "id",
  "customer_group_id",
  "customer_code",
  "first_name",
  ...CUSTOMER_NULLABLE,
  "on_account_limit",
  "enable_loyalty",
  "dont_email",
  "dont_sms",
  "do_not_sell_share",
  "is_walk_in",
  "created_at",
  "updated_at",
  "version",
];

/** A whole customer document: every nullable field null, flags false, limit 0, created at the start. */
function doc(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    id: uuid,
    customer_group_id: uuid,
    version,
    ...Object.fromEntries(CUSTOMER_NULLABLE.map((f) => [f, null])),
    on_account_limit: 0,
    enable_loyalty: false,
    dont_email: false,
    dont_sms: false,
    do_not_sell_share: false,
    is_walk_in: false,
    created_at: START,
    updated_at: START,
    ...fields,
  };
}

const newer = (a: string, b: string) => BigInt(a) > BigInt(b);

async function list(sim: Simulator, query = "", path = P): Promise<Reply> {
  const reply = await call(sim, "GET", `${path}?limit=200${query}`);
  expect(reply.status, reply.text).toBe(200);
  return reply;
}

async function byCode(sim: Simulator, code: string): Promise<Customer> {
  const found = ((await list(sim)).json.data as Customer[]).find((c) => c.customer_code === code);
  expect(found, `customer ${code}`).toBeDefined();
  return found!;
}

async function groups(sim: Simulator): Promise<Record<string, string>> {
  const data = (await list(sim, "", G)).json.data as Group[];
  return Object.fromEntries(data.map((g) => [g.name, g.id]));
}

describe("Spec, Resources: Customer (every field present, with its type and nullability)", () => {
  it("GET /customers/{id} answers exactly ALICE's document from the fixture, in the VIP group", async () => {
    const sim = makeSim();
    const g = await groups(sim);
    const alice = await byCode(sim, "ALICE");
    const reply = await call(sim, "GET", `${P}/${alice.id}`);
    expect(reply.status).toBe(200);
    expect(reply.json).toStrictEqual({
      data: doc({
        id: alice.id,
        customer_group_id: g.VIP,
        customer_code: "ALICE",
        first_name: "Alice",
        last_name: "Nguyen",
        email: "alice@example.com",
        phone: "+1 555 0101",
        city: "Boston",
        country: "US",
        date_of_birth: "1988-04-12",
        enable_loyalty: true,
      }),
    });
  });

  it("every listed customer carries exactly the fields of the Customer table, with their types", async () => {
    const sim = makeSim();
    const data = (await list(sim)).json.data as Customer[];
    expect(data).toHaveLength(6);
    for (const c of data) {
      expect(Object.keys(c).sort(), c.customer_code).toEqual([...FIELDS].sort());
      expect(c.id).toMatch(UUID);
      expect(c.customer_group_id).toMatch(UUID);
      expect(typeof c.customer_code).toBe("string");
      expect(typeof c.first_name).toBe("string");
      for (const f of CUSTOMER_NULLABLE)
        expect(c[f] === null || typeof c[f] === "string", `${c.customer_code}.${f}`).toBe(true);
      if (c.date_of_birth !== null) expect(c.date_of_birth).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Number.isInteger(c.on_account_limit)).toBe(true);
      for (const f of ["enable_loyalty", "dont_email", "dont_sms", "do_not_sell_share", "is_walk_in"])
        expect(typeof c[f]).toBe("boolean");
      expect(c.created_at).toMatch(UTC_DATE_TIME);
      expect(c.updated_at).toMatch(UTC_DATE_TIME);
      expect(c.version).toMatch(DECIMAL);
    }
  });

  it("the list holds exactly the fixture customers: WALKIN, ALICE, BOB, CARMEN (Wholesale, on_account_limit 50000 cents), DEV, ERIN", async () => {
    const sim = makeSim();
    const g = await groups(sim);
    const data = (await list(sim)).json.data as Customer[];
    const byCodes = Object.fromEntries(data.map((c) => [c.customer_code, c]));
    expect(Object.keys(byCodes).sort()).toEqual(["ALICE", "BOB", "CARMEN", "DEV", "ERIN", "WALKIN"]);
    const all = g["All Customers"];
    expect(byCodes.WALKIN).toStrictEqual(
      doc({ customer_group_id: all, customer_code: "WALKIN", first_name: "Walk-in", is_walk_in: true }),
    );
    expect(byCodes.BOB).toStrictEqual(
      doc({
        customer_group_id: all,
        customer_code: "BOB",
        first_name: "Bob",
        last_name: "Okafor",
        email: "bob@example.com",
        city: "Chicago",
        country: "US",
      }),
    );
    expect(byCodes.CARMEN).toStrictEqual(
      doc({
        customer_group_id: g.Wholesale,
        customer_code: "CARMEN",
        first_name: "Carmen",
        last_name: "Silva",
        company_name: "Silva Cafe",
        email: "orders@silvacafe.example",
        on_account_limit: 50000,
      }),
    );
    expect(byCodes.DEV).toStrictEqual(
      doc({
        customer_group_id: all,
        customer_code: "DEV",
        first_name: "Dev",
        last_name: "Patel",
        phone: "+1 555 0199",
      }),
    );
    expect(byCodes.ERIN).toStrictEqual(
      doc({
        customer_group_id: all,
        customer_code: "ERIN",
        first_name: "Erin",
        email: "erin@example.com",
        enable_loyalty: true,
        dont_sms: true,
        do_not_sell_share: true,
      }),
    );
  });

  it("Spec (is_walk_in: the retailer's single system walk-in customer): exactly one customer has is_walk_in true, in every store", async () => {
    const sim = makeSim();
    const demo = (await list(sim)).json.data as Customer[];
    expect(demo.filter((c) => c.is_walk_in).map((c) => c.customer_code)).toEqual(["WALKIN"]);
    const other = (await list(sim, "", "/other/v1/customers")).json.data as Customer[];
    expect(other).toStrictEqual([doc({ customer_code: "WALKIN", first_name: "Walk-in", is_walk_in: true })]);
  });
});

describe("Spec, Endpoints and Pagination and polling rules: GET /customers", () => {
  it("Rule 1: rows come oldest change first (versions strictly rise); the response is {data, next_cursor, has_more}", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", P);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.json).sort()).toEqual(["data", "has_more", "next_cursor"]);
    expect(reply.json.has_more).toBe(false);
    const versions = (reply.json.data as Customer[]).map((c) => BigInt(c.version));
    for (let i = 1; i < versions.length; i++) expect(versions[i]! > versions[i - 1]!).toBe(true);
  });

  it("limit=2 pages through all six customers with the cursor; the next page after the last is empty with next_cursor null", async () => {
    const sim = makeSim();
    const all = (await list(sim)).json.data as Customer[];
    const seen: Customer[] = [];
    const hasMore: boolean[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 3; page++) {
      const reply = await call(sim, "GET", `${P}?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(reply.status).toBe(200);
      expect(reply.json.data).toHaveLength(2);
      seen.push(...reply.json.data);
      hasMore.push(reply.json.has_more);
      expect(typeof reply.json.next_cursor).toBe("string");
      cursor = reply.json.next_cursor;
    }
    expect(hasMore).toEqual([true, true, false]);
    expect(seen).toStrictEqual(all);
    const after = await call(sim, "GET", `${P}?limit=2&cursor=${cursor}`);
    expect(after.json).toStrictEqual({ data: [], next_cursor: null, has_more: false });
  });

  it("Polling: from a held cursor, a changed customer comes back once, at the end of the feed, with a higher version", async () => {
    const sim = makeSim();
    const held = (await list(sim)).json.next_cursor as string;
    const bob = await byCode(sim, "BOB");
    sim.clock.advance(30);
    expect((await call(sim, "PATCH", `${P}/${bob.id}`, { body: { city: "Denver" } })).status).toBe(200);
    const polled = await call(sim, "GET", `${P}?cursor=${held}`);
    expect(polled.status).toBe(200);
    expect(polled.json.data).toHaveLength(1);
    expect(polled.json.data[0]).toStrictEqual({
      ...bob,
      city: "Denver",
      updated_at: "2026-01-01T00:00:30.000Z",
      version,
    });
    expect(newer(polled.json.data[0].version, bob.version)).toBe(true);
    expect(polled.json.has_more).toBe(false);
    const again = await call(sim, "GET", `${P}?cursor=${polled.json.next_cursor}`);
    expect(again.json).toStrictEqual({ data: [], next_cursor: null, has_more: false });
    // A new customer comes next.
    const made = await call(sim, "POST", P, { body: { first_name: "Fay" } });
    const next = await call(sim, "GET", `${P}?cursor=${polled.json.next_cursor}`);
    expect(next.json.data).toStrictEqual([made.json.data]);
  });

  it("Rule 3: order=desc returns one first page, newest change first, next_cursor null and has_more false", async () => {
    const sim = makeSim();
    const asc = (await list(sim)).json.data as Customer[];
    const desc = await call(sim, "GET", `${P}?order=desc`);
    expect(desc.status).toBe(200);
    expect(desc.json).toStrictEqual({ data: [...asc].reverse(), next_cursor: null, has_more: false });
    const two = await call(sim, "GET", `${P}?order=desc&limit=2`);
    expect(two.json).toStrictEqual({ data: [asc[5], asc[4]], next_cursor: null, has_more: false });
  });

  it("Rule 3: with order=desc a valid cursor is only validated (the first page still comes); an unreadable one answers 400 on cursor", async () => {
    const sim = makeSim();
    const first = await call(sim, "GET", `${P}?limit=2`);
    const desc = await call(sim, "GET", `${P}?order=desc&limit=2`);
    const withCursor = await call(sim, "GET", `${P}?order=desc&limit=2&cursor=${first.json.next_cursor}`);
    expect(withCursor.status).toBe(200);
    expect(withCursor.json).toStrictEqual(desc.json);
    expectError(await call(sim, "GET", `${P}?order=desc&cursor=not-a-cursor`), 400, "VALIDATION_FAILED", "cursor");
  });

  it("Rule 1: an unreadable cursor answers 400 VALIDATION_FAILED with a cursor field error, also a cursor of another list", async () => {
    const sim = makeSim();
    expectError(await call(sim, "GET", `${P}?cursor=garbage`), 400, "VALIDATION_FAILED", "cursor");
    const products = await call(sim, "GET", "/demo/v1/products?limit=1");
    expect(products.status).toBe(200);
    expectError(await call(sim, "GET", `${P}?cursor=${products.json.next_cursor}`), 400, "VALIDATION_FAILED", "cursor");
  });

  it("Rule 4: include_deleted=true with order=desc answers 400 VALIDATION_FAILED", async () => {
    const sim = makeSim();
    expectError(await call(sim, "GET", `${P}?order=desc&include_deleted=true`), 400, "VALIDATION_FAILED", "any");
  });

  it("Endpoints (limit 1 to 200): limit 0 and 201 answer 400 naming limit; 1 and 200 work", async () => {
    const sim = makeSim();
    expectError(await call(sim, "GET", `${P}?limit=0`), 400, "VALIDATION_FAILED", "limit");
    expectError(await call(sim, "GET", `${P}?limit=201`), 400, "VALIDATION_FAILED", "limit");
    expect((await call(sim, "GET", `${P}?limit=1`)).json.data).toHaveLength(1);
    expect((await call(sim, "GET", `${P}?limit=200`)).json.data).toHaveLength(6);
  });

  it("Choices (unknown query parameters): an unknown parameter answers 400 naming it", async () => {
    const sim = makeSim();
    expectError(await call(sim, "GET", `${P}?first_name=Alice`), 400, "VALIDATION_FAILED", "first_name");
  });

  it("Rule 4 and Tombstone: include_deleted=true shows a deleted customer as exactly {id, deleted_at, version}, as its latest change", async () => {
    const sim = makeSim();
    const before = (await list(sim)).json;
    const held = before.next_cursor as string;
    const erin = await byCode(sim, "ERIN");
    sim.clock.advance(45);
    expect((await call(sim, "DELETE", `${P}/${erin.id}`)).status).toBe(204);
    const all = (await list(sim, "&include_deleted=true")).json.data as Record<string, unknown>[];
    expect(all).toHaveLength(6);
    const tombstone = all[all.length - 1]!;
    expect(tombstone).toStrictEqual({ id: erin.id, deleted_at: "2026-01-01T00:00:45.000Z", version });
    expect(Object.keys(tombstone).sort()).toEqual(["deleted_at", "id", "version"]);
    expect(newer(tombstone.version as string, erin.version)).toBe(true);
    // The live rows are unchanged and in full shape.
    expect(all.slice(0, 5)).toStrictEqual((before.data as Customer[]).filter((c) => c.id !== erin.id));
    // Polling from before the delete: the tombstone with include_deleted, nothing without.
    const polled = await call(sim, "GET", `${P}?include_deleted=true&cursor=${held}`);
    expect(polled.json.data).toStrictEqual([tombstone]);
    expect((await call(sim, "GET", `${P}?cursor=${held}`)).json).toStrictEqual({
      data: [],
      next_cursor: null,
      has_more: false,
    });
    // Without include_deleted the customer is hidden from the list.
    expect(((await list(sim)).json.data as Customer[]).map((c) => c.id)).not.toContain(erin.id);
  });
});

describe("Choices: GET /customers/{id}; Spec, Errors: NOT_FOUND for missing, deleted, other store's and non-UUID ids", () => {
  it("answers {data: document} equal to the listed row, for every fixture customer", async () => {
    const sim = makeSim();
    for (const c of (await list(sim)).json.data as Customer[]) {
      const reply = await call(sim, "GET", `${P}/${c.id}`);
      expect(reply.status).toBe(200);
      expect(reply.json).toStrictEqual({ data: c });
    }
  });

  it("Choices (UUIDs match case-insensitively): the id in upper case reads the same customer", async () => {
    const sim = makeSim();
    const alice = await byCode(sim, "ALICE");
    const reply = await call(sim, "GET", `${P}/${alice.id.toUpperCase()}`);
    expect(reply.status).toBe(200);
    expect(reply.json.data).toStrictEqual(alice);
  });

  it("an unknown UUID answers 404 NOT_FOUND", async () => {
    expectError(await call(makeSim(), "GET", `${P}/${UNKNOWN_ID}`), 404, "NOT_FOUND");
  });

  it("a non-UUID id (a customer code) answers 404 NOT_FOUND", async () => {
    const sim = makeSim();
    expectError(await call(sim, "GET", `${P}/ALICE`), 404, "NOT_FOUND");
    expectError(await call(sim, "GET", `${P}/12345`), 404, "NOT_FOUND");
  });

  it("another store's customer id answers 404 NOT_FOUND under this store", async () => {
    const sim = makeSim();
    const theirs = (await list(sim, "", "/other/v1/customers")).json.data as Customer[];
    const made = await call(sim, "POST", "/other/v1/customers", { body: { first_name: "Olga" } });
    expect(made.status).toBe(201);
    for (const id of [theirs[0]!.id, made.json.data.id as string])
      expectError(await call(sim, "GET", `${P}/${id}`), 404, "NOT_FOUND");
    // And the demo list does not show them.
    const ours = ((await list(sim)).json.data as Customer[]).map((c) => c.id);
    expect(ours).not.toContain(made.json.data.id);
    expect(ours).not.toContain(theirs[0]!.id);
  });
});

describe("Spec, Resources: CustomerGroup {id, name, version}; Choices: GET /customer-groups and /customer-groups/{id}", () => {
  it("lists exactly the default group 'All Customers' and the fixture groups VIP and Wholesale, oldest change first", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", G);
    expect(reply.status).toBe(200);
    expect(reply.json.has_more).toBe(false);
    const data = reply.json.data as Group[];
    for (const g of data) expect(g).toStrictEqual({ id: uuid, name: g.name, version });
    expect(data.map((g) => g.name).sort()).toEqual(["All Customers", "VIP", "Wholesale"]);
    for (let i = 1; i < data.length; i++) expect(newer(data[i]!.version, data[i - 1]!.version)).toBe(true);
  });

  it("GET /customer-groups/{id} answers {data: group} equal to the listed row", async () => {
    const sim = makeSim();
    for (const g of (await list(sim, "", G)).json.data as Group[]) {
      const reply = await call(sim, "GET", `${G}/${g.id}`);
      expect(reply.status).toBe(200);
      expect(reply.json).toStrictEqual({ data: g });
    }
  });

  it("customers reference their groups: ALICE in VIP, CARMEN in Wholesale, the others in the default group", async () => {
    const sim = makeSim();
    const g = await groups(sim);
    const data = (await list(sim)).json.data as Customer[];
    expect(Object.fromEntries(data.map((c) => [c.customer_code, c.customer_group_id]))).toStrictEqual({
      WALKIN: g["All Customers"],
      ALICE: g.VIP,
      BOB: g["All Customers"],
      CARMEN: g.Wholesale,
      DEV: g["All Customers"],
      ERIN: g["All Customers"],
    });
  });

  it("another store has only its own default group; unknown, non-UUID and other store's group ids answer 404", async () => {
    const sim = makeSim();
    const theirs = (await list(sim, "", "/other/v1/customer-groups")).json.data as Group[];
    expect(theirs.map((g) => g.name)).toEqual(["All Customers"]);
    const ours = await groups(sim);
    expect(ours["All Customers"]).not.toBe(theirs[0]!.id);
    expectError(await call(sim, "GET", `${G}/${theirs[0]!.id}`), 404, "NOT_FOUND");
    expectError(await call(sim, "GET", `${G}/${UNKNOWN_ID}`), 404, "NOT_FOUND");
    expectError(await call(sim, "GET", `${G}/VIP`), 404, "NOT_FOUND");
  });

  it("the group list pages like every list: limit=1 gives has_more true and a cursor to the next group", async () => {
    const sim = makeSim();
    const all = (await list(sim, "", G)).json.data as Group[];
    const first = await call(sim, "GET", `${G}?limit=1`);
    expect(first.json).toStrictEqual({ data: [all[0]], next_cursor: expect.any(String), has_more: true });
    const second = await call(sim, "GET", `${G}?limit=1&cursor=${first.json.next_cursor}`);
    expect(second.json.data).toStrictEqual([all[1]]);
  });
});
