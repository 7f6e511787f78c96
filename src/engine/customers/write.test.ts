// Tests of customer create and update against the spec (retail-api-v1.md): "Resources" (Customer: types,
// `date_of_birth` YYYY-MM-DD, `on_account_limit` integer cents, `do_not_sell_share` read only; "No resource
// accepts unknown properties"), the `POST /customers` row of "Endpoints", "Errors" (VALIDATION_FAILED,
// CONFLICT, UNPROCESSABLE) and "Limits" (Idempotency); and the recorded choices (docs/spec-choices.md,
// "Customers": create defaults, `CUS-` codes, case-insensitive code uniqueness, read-only fields accepted and
// ignored, `PATCH /customers/{id}` partial and checked against `version` like a product, a write that changes
// nothing keeps the version).
// Create answers 201, as for the catalog creates. Every test uses a fresh simulator on a manual clock.
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator.js";
import { call, makeSim } from "../../test-support/sim.js";
import { expectError } from "../../test-support/errors.js";
import { CUSTOMER_NULLABLE, FULL_CUSTOMER } from "../../test-support/customers.js";

const P = "/demo/v1/customers";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^[0-9]+$/;
const START_MS = Date.parse("2026-01-01T00:00:00.000Z");
const START = "2026-01-01T00:00:00.000Z";
const at = (seconds: number) => new Date(START_MS + seconds * 1000).toISOString();
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000abc";
const version = expect.stringMatching(DECIMAL);
const uuid = expect.stringMatching(UUID);

type Customer = Record<string, unknown> & {
  id: string;
  customer_code: string;
  customer_group_id: string;
  version: string;
};

const newer = (a: string, b: string) => BigInt(a) > BigInt(b);

async function all(sim: Simulator): Promise<Customer[]> {
  const reply = await call(sim, "GET", `${P}?limit=200`);
  expect(reply.status).toBe(200);
  return reply.json.data;
}

async function byCode(sim: Simulator, code: string): Promise<Customer> {
  const found = (await all(sim)).find((c) => c.customer_code === code);
  expect(found, `customer ${code}`).toBeDefined();
  return found!;
}

async function groupId(sim: Simulator, name: string): Promise<string> {
  const reply = await call(sim, "GET", "/demo/v1/customer-groups?limit=200");
  const group = (reply.json.data as { id: string; name: string }[]).find((g) => g.name === name);
  expect(group, `group ${name}`).toBeDefined();
  return group!.id;
}

/** Asserts a refused write left every customer as it was. */
async function expectUnchanged(sim: Simulator, before: Customer[]): Promise<void> {
  expect(await all(sim)).toStrictEqual(before);
}

describe("Choices, Customers (create): only first_name is needed; the defaults", () => {
  it("{first_name} creates a customer: 201, generated CUS- code, the default group, limit 0, flags false, the rest null", async () => {
    const sim = makeSim();
    const defaultGroup = await groupId(sim, "All Customers");
    sim.clock.advance(10);
    const reply = await call(sim, "POST", P, { body: { first_name: "Zed" } });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json).toStrictEqual({
      data: {
        id: uuid,
        customer_group_id: defaultGroup,
        customer_code: expect.stringMatching(/^CUS-[A-Za-z0-9]{8}$/),
        first_name: "Zed",
        ...Object.fromEntries(CUSTOMER_NULLABLE.map((f) => [f, null])),
        on_account_limit: 0,
        enable_loyalty: false,
        dont_email: false,
        dont_sms: false,
        do_not_sell_share: false,
        is_walk_in: false,
        created_at: at(10),
        updated_at: at(10),
        version,
      },
    });
    const read = await call(sim, "GET", `${P}/${reply.json.data.id}`);
    expect(read.json).toStrictEqual(reply.json);
  });

  it("generated codes differ between customers", async () => {
    const sim = makeSim();
    const a = await call(sim, "POST", P, { body: { first_name: "A" } });
    const b = await call(sim, "POST", P, { body: { first_name: "B" } });
    expect(a.json.data.customer_code).not.toBe(b.json.data.customer_code);
  });

  it("every writable field is stored as given, date_of_birth as YYYY-MM-DD and on_account_limit as integer cents", async () => {
    const sim = makeSim();
    const vip = await groupId(sim, "VIP");
    const reply = await call(sim, "POST", P, { body: { ...FULL_CUSTOMER, customer_group_id: vip } });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.data).toStrictEqual({
      ...FULL_CUSTOMER,
      id: uuid,
      customer_group_id: vip,
      do_not_sell_share: false,
      is_walk_in: false,
      created_at: START,
      updated_at: START,
      version,
    });
  });

  it("a missing or empty first_name answers 400 VALIDATION_FAILED naming first_name; nothing is created", async () => {
    const sim = makeSim();
    const before = await all(sim);
    expectError(await call(sim, "POST", P, { body: {} }), 400, "VALIDATION_FAILED", "first_name");
    expectError(await call(sim, "POST", P, { body: { last_name: "Only" } }), 400, "VALIDATION_FAILED", "first_name");
    expectError(await call(sim, "POST", P, { body: { first_name: null } }), 400, "VALIDATION_FAILED", "first_name");
    await expectUnchanged(sim, before);
  });
});

describe("Choices, Customers (customer_code): given codes; unique among live customers without regard to case (409 CONFLICT)", () => {
  it("a code in use answers 409 CONFLICT on create, also in another case; nothing is created", async () => {
    const sim = makeSim();
    const before = await all(sim);
    for (const code of ["ALICE", "alice", "Alice", "walkin"]) {
      expectError(
        await call(sim, "POST", P, { body: { first_name: "Copy", customer_code: code } }),
        409,
        "CONFLICT",
        "any",
      );
    }
    await expectUnchanged(sim, before);
  });

  it("a code in use answers 409 CONFLICT on update, also in another case; the customer is unchanged", async () => {
    const sim = makeSim();
    const before = await all(sim);
    const bob = await byCode(sim, "BOB");
    expectError(
      await call(sim, "PATCH", `${P}/${bob.id}`, { body: { customer_code: "ALICE" } }),
      409,
      "CONFLICT",
      "any",
    );
    expectError(
      await call(sim, "PATCH", `${P}/${bob.id}`, { body: { customer_code: "carmen", city: "Denver" } }),
      409,
      "CONFLICT",
      "any",
    );
    await expectUnchanged(sim, before);
  });

  it("a customer may change its own code to another case of itself", async () => {
    const sim = makeSim();
    const bob = await byCode(sim, "BOB");
    const reply = await call(sim, "PATCH", `${P}/${bob.id}`, { body: { customer_code: "Bob" } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.data.customer_code).toBe("Bob");
  });
});

describe("Spec, Errors: field problems answer 400 VALIDATION_FAILED naming the field; an unknown group 422 UNPROCESSABLE", () => {
  it("an unknown customer_group_id answers 422 UNPROCESSABLE on create and update; nothing changes", async () => {
    const sim = makeSim();
    const before = await all(sim);
    expectError(
      await call(sim, "POST", P, { body: { first_name: "Ann", customer_group_id: UNKNOWN_ID } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
    const bob = await byCode(sim, "BOB");
    expectError(
      await call(sim, "PATCH", `${P}/${bob.id}`, { body: { customer_group_id: UNKNOWN_ID } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
    await expectUnchanged(sim, before);
  });

  it("another store's group id is unknown here: 422 UNPROCESSABLE", async () => {
    const sim = makeSim();
    const theirs = (await call(sim, "GET", "/other/v1/customer-groups")).json.data[0].id as string;
    expectError(
      await call(sim, "POST", P, { body: { first_name: "Ann", customer_group_id: theirs } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
  });

  it.each([
    ["email", "not-an-email"],
    ["email", "alice@"],
    ["date_of_birth", "12/04/1988"],
    ["date_of_birth", "1988-4-12"],
    ["date_of_birth", "1988-04-12T00:00:00Z"],
    ["date_of_birth", "1988-13-01"],
    ["on_account_limit", 100.5],
    ["on_account_limit", "5000"],
    ["first_name", 42],
    ["enable_loyalty", "yes"],
  ])("create with %s = %j answers 400 VALIDATION_FAILED naming it; nothing is created", async (field, value) => {
    const sim = makeSim();
    const before = await all(sim);
    const body = field === "first_name" ? { first_name: value } : { first_name: "Val", [field]: value };
    expectError(await call(sim, "POST", P, { body }), 400, "VALIDATION_FAILED", field);
    await expectUnchanged(sim, before);
  });

  it.each([
    ["email", "bob-at-example.com"],
    ["date_of_birth", "April 12"],
    ["on_account_limit", 99.99],
    ["first_name", null],
    ["nickname", "Bobby"],
  ])("update with %s = %j answers 400 VALIDATION_FAILED naming it; BOB is unchanged", async (field, value) => {
    const sim = makeSim();
    const before = await all(sim);
    const bob = await byCode(sim, "BOB");
    expectError(
      await call(sim, "PATCH", `${P}/${bob.id}`, { body: { city: "Denver", [field]: value } }),
      400,
      "VALIDATION_FAILED",
      field,
    );
    await expectUnchanged(sim, before);
  });
});

describe("Choices, Customers (read-only fields on write): id, do_not_sell_share, is_walk_in, created_at, updated_at, version are accepted and ignored", () => {
  it("create with do_not_sell_share true, is_walk_in true, id, version, created_at, updated_at: all ignored", async () => {
    const sim = makeSim();
    sim.clock.advance(5);
    const reply = await call(sim, "POST", P, {
      body: {
        first_name: "Ivy",
        id: UNKNOWN_ID,
        do_not_sell_share: true,
        is_walk_in: true,
        version: "999999",
        created_at: "2000-01-01T00:00:00.000Z",
        updated_at: "2000-01-01T00:00:00.000Z",
      },
    });
    expect(reply.status, reply.text).toBe(201);
    const made = reply.json.data as Customer;
    expect(made.id).not.toBe(UNKNOWN_ID);
    expect(made).toMatchObject({
      first_name: "Ivy",
      do_not_sell_share: false,
      is_walk_in: false,
      created_at: at(5),
      updated_at: at(5),
    });
    expect(made.version).not.toBe("999999");
    expect((await all(sim)).filter((c) => c.is_walk_in).map((c) => c.customer_code)).toEqual(["WALKIN"]);
  });

  it("ALICE's read document with a new customer_code creates a new customer with her details (nothing API-owned copied)", async () => {
    const sim = makeSim();
    const alice = await byCode(sim, "ALICE");
    sim.clock.advance(120);
    const reply = await call(sim, "POST", P, { body: { ...alice, customer_code: "ALICE-COPY" } });
    expect(reply.status, reply.text).toBe(201);
    const made = reply.json.data as Customer;
    expect(made).toStrictEqual({
      ...alice,
      id: uuid,
      customer_code: "ALICE-COPY",
      created_at: at(120),
      updated_at: at(120),
      version,
    });
    expect(made.id).not.toBe(alice.id);
    expect(newer(made.version, alice.version)).toBe(true);
    // ALICE herself is untouched.
    expect(await byCode(sim, "ALICE")).toStrictEqual(alice);
  });

  it("the walk-in customer's read document with a new code creates an ordinary customer (is_walk_in false)", async () => {
    const sim = makeSim();
    const walkIn = await byCode(sim, "WALKIN");
    const reply = await call(sim, "POST", P, { body: { ...walkIn, customer_code: "WALKIN-2" } });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.data).toMatchObject({ first_name: "Walk-in", customer_code: "WALKIN-2", is_walk_in: false });
  });
});

describe("Spec, Limits (Idempotency): optional Idempotency-Key on POST /customers", () => {
  it("the same key with a different body answers 422 IDEMPOTENCY_KEY_REUSED and creates nothing", async () => {
    const sim = makeSim();
    const headers = { "idempotency-key": "customer-create-2" };
    expect((await call(sim, "POST", P, { body: { first_name: "Ida" }, headers })).status).toBe(201);
    const before = await all(sim);
    expectError(await call(sim, "POST", P, { body: { first_name: "Ivo" }, headers }), 422, "IDEMPOTENCY_KEY_REUSED");
    await expectUnchanged(sim, before);
  });

  it("a client error replays the same failure: a 409 for a code in use stays 409 after the code is freed", async () => {
    const sim = makeSim();
    const headers = { "idempotency-key": "customer-create-3" };
    const body = { first_name: "Bo", customer_code: "BOB" };
    const first = await call(sim, "POST", P, { body, headers });
    expectError(first, 409, "CONFLICT", "any");
    const bob = await byCode(sim, "BOB");
    expect((await call(sim, "DELETE", `${P}/${bob.id}`)).status).toBe(204);
    const again = await call(sim, "POST", P, { body, headers });
    expect(again.status).toBe(409);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toStrictEqual(first.json);
    expect((await all(sim)).map((c) => c.customer_code)).not.toContain("BOB");
  });
});

describe("Choices, Customers: PATCH /customers/{id} is a partial update", () => {
  it("changes only the fields sent; updated_at moves to now and the version rises; created_at stays", async () => {
    const sim = makeSim();
    const bob = await byCode(sim, "BOB");
    sim.clock.advance(60);
    const reply = await call(sim, "PATCH", `${P}/${bob.id}`, {
      body: { city: "Denver", note: "Prefers email", on_account_limit: 2500 },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toStrictEqual({
      data: { ...bob, city: "Denver", note: "Prefers email", on_account_limit: 2500, updated_at: at(60), version },
    });
    expect(newer(reply.json.data.version, bob.version)).toBe(true);
    expect((await call(sim, "GET", `${P}/${bob.id}`)).json).toStrictEqual(reply.json);
  });

  it("null clears a nullable field; a group can be changed to another group of the store", async () => {
    const sim = makeSim();
    const alice = await byCode(sim, "ALICE");
    const wholesale = await groupId(sim, "Wholesale");
    const reply = await call(sim, "PATCH", `${P}/${alice.id}`, {
      body: { email: null, date_of_birth: null, customer_group_id: wholesale },
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.data).toStrictEqual({
      ...alice,
      email: null,
      date_of_birth: null,
      customer_group_id: wholesale,
      version,
    });
  });

  it("a read document sent straight back changes nothing: same version and updated_at (a write that changes nothing)", async () => {
    const sim = makeSim();
    const alice = await byCode(sim, "ALICE");
    sim.clock.advance(60);
    const reply = await call(sim, "PATCH", `${P}/${alice.id}`, { body: alice });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json).toStrictEqual({ data: alice });
    expect(await byCode(sim, "ALICE")).toStrictEqual(alice);
  });

  it("Pagination rule 1: a changed customer moves to the end of the feed (last ascending, first descending)", async () => {
    const sim = makeSim();
    const bob = await byCode(sim, "BOB");
    const changed = (await call(sim, "PATCH", `${P}/${bob.id}`, { body: { phone: "+1 555 0150" } })).json.data;
    const asc = await all(sim);
    expect(asc[asc.length - 1]).toStrictEqual(changed);
    expect((await call(sim, "GET", `${P}?order=desc&limit=1`)).json.data).toStrictEqual([changed]);
  });

  it("Spec (do_not_sell_share is read only, never set through this API): true in a PATCH is ignored and changes nothing", async () => {
    const sim = makeSim();
    const bob = await byCode(sim, "BOB");
    const reply = await call(sim, "PATCH", `${P}/${bob.id}`, { body: { do_not_sell_share: true, is_walk_in: true } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.data).toStrictEqual(bob);
    expect(await byCode(sim, "BOB")).toStrictEqual(bob);
  });

  it("Choices (walk-in): the walk-in customer can be updated and stays the walk-in customer", async () => {
    const sim = makeSim();
    const walkIn = await byCode(sim, "WALKIN");
    const reply = await call(sim, "PATCH", `${P}/${walkIn.id}`, { body: { note: "Counter sales", is_walk_in: false } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.data).toStrictEqual({ ...walkIn, note: "Counter sales", version });
    expect(reply.json.data.is_walk_in).toBe(true);
  });

  it("Errors (NOT_FOUND): PATCH of an unknown, non-UUID, other store's or deleted id answers 404", async () => {
    const sim = makeSim();
    const theirs = (await call(sim, "GET", "/other/v1/customers")).json.data[0].id as string;
    const dev = await byCode(sim, "DEV");
    expect((await call(sim, "DELETE", `${P}/${dev.id}`)).status).toBe(204);
    for (const id of [UNKNOWN_ID, "DEV", theirs, dev.id]) {
      const reply = await call(sim, "PATCH", `${P}/${id}`, { body: { note: "x" } });
      expect(reply.status, id).toBe(404);
      expect(reply.json).toStrictEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
    }
  });
});

describe("Choices, Customers (version on update, as Product write rules 6): a stale version or expected_version answers 409 STALE_VERSION", () => {
  it("the current version updates; a stale one answers 409 STALE_VERSION and changes nothing", async () => {
    const sim = makeSim();
    const bob = await byCode(sim, "BOB");
    const fresh = await call(sim, "PATCH", `${P}/${bob.id}`, { body: { city: "Denver", version: bob.version } });
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.json.data.city).toBe("Denver");
    expect(newer(fresh.json.data.version, bob.version)).toBe(true);
    const before = await all(sim);
    for (const body of [
      { city: "Austin", version: bob.version },
      { city: "Austin", expected_version: bob.version },
    ]) {
      const stale = await call(sim, "PATCH", `${P}/${bob.id}`, { body });
      expectError(stale, 409, "STALE_VERSION");
      expect(stale.json.error.message).toBe(
        `The customer is at version ${fresh.json.data.version}, not ${bob.version}.`,
      );
    }
    await expectUnchanged(sim, before);
  });

  it("version and expected_version that disagree answer 400 naming expected_version", async () => {
    const sim = makeSim();
    const bob = await byCode(sim, "BOB");
    const reply = await call(sim, "PATCH", `${P}/${bob.id}`, {
      body: { city: "Denver", version: bob.version, expected_version: "1" },
    });
    expectError(reply, 400, "VALIDATION_FAILED", "expected_version");
    expect(reply.json.error.fields).toEqual([
      { field: "expected_version", message: "must agree with version when both are sent" },
    ]);
  });
});
