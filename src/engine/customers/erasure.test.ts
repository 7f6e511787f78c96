// Tests of customer deletion (erasure) against the spec (retail-api-v1.md): the customer row of "Delete rules"
// (marked deleted; personal details scrubbed; customer_code replaced by a placeholder; sales remain and
// resolve to the anonymized customer; irreversible; walk-in customer: 409 CONFLICT), "Soft deletion",
// "Deleting an unknown, foreign or already deleted id answers 404", the Tombstone, and the recorded choices
// (docs/spec-choices.md, "Customers": first_name "Erased", every other personal field null, `ERASED-` and 10
// characters freeing the old code, group, limit and flags kept; sales keep customer_id and version). The
// scrubbed record is observed through `GET /_sim/stores/{prefix}/customers/{id}`, which answers the stored
// document with `deleted_at`. Every test uses a fresh simulator on a manual clock (2026-01-01T00:00:00Z).
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator.js";
import { call, makeSim, ORIGIN } from "../../test-support/sim.js";
import { errorOf, expectError } from "../../test-support/errors.js";
import { CUSTOMER_NULLABLE, FULL_CUSTOMER } from "../../test-support/customers.js";

const P = "/demo/v1/customers";
const DECIMAL = /^[0-9]+$/;
const START_MS = Date.parse("2026-01-01T00:00:00.000Z");
const at = (seconds: number) => new Date(START_MS + seconds * 1000).toISOString();
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000abc";
const ERASED_CODE = /^ERASED-.{10}$/;
const version = expect.stringMatching(DECIMAL);

type Customer = Record<string, unknown> & {
  id: string;
  customer_code: string;
  customer_group_id: string;
  version: string;
};

const newer = (a: string, b: string) => BigInt(a) > BigInt(b);

async function all(sim: Simulator, query = ""): Promise<Customer[]> {
  const reply = await call(sim, "GET", `${P}?limit=200${query}`);
  expect(reply.status).toBe(200);
  return reply.json.data;
}

async function byCode(sim: Simulator, code: string): Promise<Customer> {
  const found = (await all(sim)).find((c) => c.customer_code === code);
  expect(found, `customer ${code}`).toBeDefined();
  return found!;
}

/** The stored document through the control plane: `GET /_sim/stores/{prefix}/customers/{id}`. */
async function stored(sim: Simulator, id: string, prefix = "demo"): Promise<{ status: number; json: any }> {
  const res = await sim.fetch(`${ORIGIN}/_sim/stores/${prefix}/customers/${id}`, { method: "GET", headers: {} });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

async function erase(sim: Simulator, id: string): Promise<void> {
  const reply = await call(sim, "DELETE", `${P}/${id}`);
  expect(reply.status, reply.text).toBe(204);
}

/** A customer with every writable field filled, created through the API. */
async function makeFull(sim: Simulator): Promise<Customer> {
  const made = await call(sim, "POST", P, { body: FULL_CUSTOMER });
  expect(made.status, made.text).toBe(201);
  for (const field of CUSTOMER_NULLABLE) expect(made.json.data[field], field).not.toBeNull();
  return made.json.data;
}

/** What erasure leaves of a customer: first_name "Erased", personal fields null, a placeholder code, the rest kept. */
function erasedOf(before: Customer, seconds: number): Record<string, unknown> {
  return {
    ...before,
    ...Object.fromEntries(CUSTOMER_NULLABLE.map((f) => [f, null])),
    first_name: "Erased",
    customer_code: expect.stringMatching(ERASED_CODE),
    updated_at: at(seconds),
    version,
    deleted_at: at(seconds),
  };
}

describe("Spec, Delete rules (customer): DELETE /customers/{id} answers 204 and the customer is soft deleted", () => {
  it("Tombstone: with include_deleted=true the customer is {id, deleted_at, version} at the end of the feed, and its version is the stored one", async () => {
    const sim = makeSim();
    const bob = await byCode(sim, "BOB");
    sim.clock.advance(75);
    await erase(sim, bob.id);
    const rows = await all(sim, "&include_deleted=true");
    const last = rows[rows.length - 1]!;
    expect(last).toStrictEqual({ id: bob.id, deleted_at: at(75), version });
    expect(newer(last.version, bob.version)).toBe(true);
    expect((await stored(sim, bob.id)).json.version).toBe(last.version);
  });

  it("deleting the same customer again answers 404 NOT_FOUND; so do PATCH and GET (irreversible)", async () => {
    const sim = makeSim();
    const bob = await byCode(sim, "BOB");
    await erase(sim, bob.id);
    expectError(await call(sim, "DELETE", `${P}/${bob.id}`), 404, "NOT_FOUND");
    expectError(await call(sim, "PATCH", `${P}/${bob.id}`, { body: { first_name: "Bob" } }), 404, "NOT_FOUND");
    expectError(await call(sim, "GET", `${P}/${bob.id}`), 404, "NOT_FOUND");
    expect((await stored(sim, bob.id)).json.first_name).toBe("Erased");
  });

  it("deleting an unknown, non-UUID or other store's id answers 404 NOT_FOUND; the other store's customer is untouched", async () => {
    const sim = makeSim();
    const theirs = (await call(sim, "GET", "/other/v1/customers")).json.data[0] as Customer;
    const made = (await call(sim, "POST", "/other/v1/customers", { body: { first_name: "Olga" } })).json
      .data as Customer;
    const before = await all(sim);
    expectError(await call(sim, "DELETE", `${P}/${UNKNOWN_ID}`), 404, "NOT_FOUND");
    expectError(await call(sim, "DELETE", `${P}/BOB`), 404, "NOT_FOUND");
    expectError(await call(sim, "DELETE", `${P}/${theirs.id}`), 404, "NOT_FOUND");
    expectError(await call(sim, "DELETE", `${P}/${made.id}`), 404, "NOT_FOUND");
    expect(await all(sim)).toStrictEqual(before);
    expect((await call(sim, "GET", `/other/v1/customers/${made.id}`)).json.data).toStrictEqual(made);
    expect((await stored(sim, made.id, "other")).json.deleted_at).toBeNull();
  });

  it("the walk-in customer answers 409 CONFLICT and is left exactly as it was", async () => {
    const sim = makeSim();
    const walkIn = await byCode(sim, "WALKIN");
    const reply = await call(sim, "DELETE", `${P}/${walkIn.id}`);
    expect(reply.status).toBe(409);
    expect(errorOf(reply).code).toBe("CONFLICT");
    expect(typeof errorOf(reply).message).toBe("string");
    expect((await call(sim, "GET", `${P}/${walkIn.id}`)).json.data).toStrictEqual(walkIn);
    expect((await stored(sim, walkIn.id)).json).toStrictEqual({ ...walkIn, deleted_at: null });
  });
});

describe("Spec, Delete rules (customer): personal details scrubbed, customer_code replaced (Choices: Erasure), seen through the control view", () => {
  it("the control view of a live customer is its read document with deleted_at null", async () => {
    const sim = makeSim();
    const alice = await byCode(sim, "ALICE");
    const view = await stored(sim, alice.id);
    expect(view.status).toBe(200);
    expect(view.json).toStrictEqual({ ...alice, deleted_at: null });
  });

  it("Choices, Erasure (group, account limit and flags are kept): ALICE erased keeps the VIP group and enable_loyalty true; the whole stored document", async () => {
    const sim = makeSim();
    const alice = await byCode(sim, "ALICE");
    sim.clock.advance(90);
    await erase(sim, alice.id);
    const view = (await stored(sim, alice.id)).json;
    expect({ customer_group_id: view.customer_group_id, enable_loyalty: view.enable_loyalty }).toEqual({
      customer_group_id: alice.customer_group_id,
      enable_loyalty: true,
    });
    expect(view).toStrictEqual(erasedOf(alice, 90));
  });

  it("CARMEN erased: company_name and email null; the Wholesale group and on_account_limit 50000 are kept", async () => {
    const sim = makeSim();
    const carmen = await byCode(sim, "CARMEN");
    sim.clock.advance(15);
    await erase(sim, carmen.id);
    const view = (await stored(sim, carmen.id)).json;
    expect(view).toStrictEqual(erasedOf(carmen, 15));
    expect(view).toMatchObject({
      company_name: null,
      email: null,
      on_account_limit: 50000,
      customer_group_id: carmen.customer_group_id,
    });
  });

  it("a customer with every field filled: all twenty personal fields become null", async () => {
    const sim = makeSim();
    const before = await makeFull(sim);
    sim.clock.advance(200);
    await erase(sim, before.id);
    const view = (await stored(sim, before.id)).json;
    for (const field of CUSTOMER_NULLABLE) expect(view[field], field).toBeNull();
    expect(view).toMatchObject({
      first_name: "Erased",
      customer_code: expect.stringMatching(ERASED_CODE),
      deleted_at: at(200),
      on_account_limit: 12345,
    });
  });

  it("Choices, Erasure (flags are kept): a customer with every field filled keeps enable_loyalty, dont_email and dont_sms true", async () => {
    const sim = makeSim();
    const before = await makeFull(sim);
    sim.clock.advance(200);
    await erase(sim, before.id);
    const view = (await stored(sim, before.id)).json;
    expect({ enable_loyalty: view.enable_loyalty, dont_email: view.dont_email, dont_sms: view.dont_sms }).toEqual({
      enable_loyalty: true,
      dont_email: true,
      dont_sms: true,
    });
    expect(view).toStrictEqual(erasedOf(before, 200));
  });

  it("two erased customers get different placeholder codes", async () => {
    const sim = makeSim();
    const bob = await byCode(sim, "BOB");
    const dev = await byCode(sim, "DEV");
    await erase(sim, bob.id);
    await erase(sim, dev.id);
    const codes = [(await stored(sim, bob.id)).json.customer_code, (await stored(sim, dev.id)).json.customer_code];
    for (const code of codes) expect(code).toMatch(ERASED_CODE);
    expect(codes[0]).not.toBe(codes[1]);
  });

  it("the control view answers 404 for an unknown id", async () => {
    const sim = makeSim();
    const view = await stored(sim, UNKNOWN_ID);
    expect(view.status).toBe(404);
    expect(view.json.error.code).toBe("NOT_FOUND");
  });
});

describe("Choices, Erasure (the old code is freed): the erased customer's code can be used again", () => {
  it("before the delete ALICE's code answers 409; after it a new customer can take ALICE (and alice in another case)", async () => {
    const sim = makeSim();
    const alice = await byCode(sim, "ALICE");
    expect((await call(sim, "POST", P, { body: { first_name: "Alicia", customer_code: "ALICE" } })).status).toBe(409);
    await erase(sim, alice.id);
    const reply = await call(sim, "POST", P, { body: { first_name: "Alicia", customer_code: "ALICE" } });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.json.data.customer_code).toBe("ALICE");
    expect(reply.json.data.id).not.toBe(alice.id);
    // The new customer is live; the erased one stays erased.
    expect((await stored(sim, alice.id)).json.first_name).toBe("Erased");
  });

  it("an existing customer can be renamed to the freed code", async () => {
    const sim = makeSim();
    const bob = await byCode(sim, "BOB");
    const dev = await byCode(sim, "DEV");
    await erase(sim, bob.id);
    const reply = await call(sim, "PATCH", `${P}/${dev.id}`, { body: { customer_code: "bob" } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.data.customer_code).toBe("bob");
  });
});

describe("Spec, Delete rules (sales remain and resolve to the anonymized customer); Choices: sales keep customer_id and version", () => {
  it("ALICE's sale still exists after the erasure with the same customer_id and unchanged version", async () => {
    const sim = makeSim();
    const alice = await byCode(sim, "ALICE");
    const before = await call(sim, "GET", `/demo/v1/sales?limit=200&customer_id=${alice.id}`);
    expect(before.status).toBe(200);
    expect(before.json.data.length).toBeGreaterThanOrEqual(1);
    for (const sale of before.json.data) expect(sale.customer_id).toBe(alice.id);
    sim.clock.advance(60);
    await erase(sim, alice.id);
    const after = await call(sim, "GET", `/demo/v1/sales?limit=200&customer_id=${alice.id}`);
    expect(after.status).toBe(200);
    expect(after.json.data).toStrictEqual(before.json.data);
    for (const sale of before.json.data) {
      const read = await call(sim, "GET", `/demo/v1/sales/${sale.id}`);
      expect(read.status).toBe(200);
      expect(read.json.data).toStrictEqual(sale);
    }
    // The sale's customer_id resolves to the anonymized record.
    expect((await stored(sim, after.json.data[0].customer_id)).json).toMatchObject({
      id: alice.id,
      first_name: "Erased",
      deleted_at: at(60),
    });
  });
});
