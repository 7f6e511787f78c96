// Tests of the account reads (GET /me, GET /store, GET /inventory/adjustment-reasons) and of the
// envelope rules every response follows, against the spec: "Resources" (Identity, AdjustmentReason),
// rules 5 and 7 of "What the service does", "Errors", and the recorded choices for /store and the
// adjustment reasons.
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator.js";
import { call, makeSim, type Reply } from "../../test-support/sim.js";
import { errorOf, expectError } from "../../test-support/errors.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^[0-9]+$/;
const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const uuid = expect.stringMatching(UUID);
const version = expect.stringMatching(DECIMAL);

const ALL_SCOPES = [
  "catalog:read",
  "catalog:write",
  "inventory:read",
  "inventory:write",
  "customers:read",
  "customers:write",
  "sales:read",
];

function keyOf(sim: Simulator, name: string): { id: string; name: string } {
  const store = sim.credentials().stores.find((s) => s.prefix === "demo")!;
  const key = store.keys.find((k) => k.name === name);
  expect(key, `key ${name}`).toBeDefined();
  return key!;
}

function expectNotFound(reply: Reply): void {
  expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
  // Spec, Errors: `fields` appears only for field-specific problems; an unknown path is not one.
  expectError(reply, 404, "NOT_FOUND");
}

describe("Spec, Resources: Identity (GET /me)", () => {
  it("answers exactly store_name, domain_prefix, scopes and key {id, name} for the full key", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/me", { key: "full" });
    expect(reply.status).toBe(200);
    const full = keyOf(sim, "full");
    expect(full.id).toMatch(UUID);
    expect(reply.json).toStrictEqual({
      data: {
        store_name: "Demo Outfitters",
        domain_prefix: "demo",
        scopes: ALL_SCOPES,
        key: { id: full.id, name: "full" },
      },
    });
  });

  it("needs no particular scope: a key without scopes reads its identity with scopes []", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/me", { key: "none" });
    expect(reply.status).toBe(200);
    expect(reply.json).toStrictEqual({
      data: {
        store_name: "Demo Outfitters",
        domain_prefix: "demo",
        scopes: [],
        key: { id: keyOf(sim, "none").id, name: "none" },
      },
    });
  });

  it("lists the read scopes of the read key", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/me", { key: "read" });
    expect(reply.status).toBe(200);
    expect([...reply.json.data.scopes].sort()).toEqual([
      "catalog:read",
      "customers:read",
      "inventory:read",
      "sales:read",
    ]);
    expect(reply.json.data.key).toStrictEqual({ id: keyOf(sim, "read").id, name: "read" });
  });

  it("Spec, Authentication 2 (a ticked write scope also ticks its read scope): a catalog:write key lists catalog:read too", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/me", { key: "catalog:write" });
    expect(reply.status).toBe(200);
    expect([...reply.json.data.scopes].sort()).toEqual(["catalog:read", "catalog:write"]);
  });

  it("Spec, Authentication 10: domain_prefix is the store prefix of the base URL", async () => {
    const sim = makeSim();
    const other = await call(sim, "GET", "/other/v1/me", { key: "full" });
    expect(other.status).toBe(200);
    expect(other.json.data.domain_prefix).toBe("other");
    expect(other.json.data.store_name).toBe("Other Tenant Goods");
  });
});

describe("Choices: store settings (GET /store), spec: fields not shown", () => {
  it("answers exactly {id, name, domain_prefix, currency, timezone, country, default_outlet_id, created_at, version}", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/store", { key: "none" });
    expect(reply.status).toBe(200);
    expect(reply.json).toStrictEqual({
      data: {
        id: uuid,
        name: "Demo Outfitters",
        domain_prefix: "demo",
        currency: "USD",
        timezone: "America/New_York",
        country: "US",
        default_outlet_id: uuid,
        created_at: expect.stringMatching(UTC_DATE_TIME),
        version,
      },
    });
    // Manual clock: the store was created at the simulator's start time.
    expect(Date.parse(reply.json.data.created_at)).toBe(Date.parse("2026-01-01T00:00:00Z"));
  });

  it("default_outlet_id is one of the store's outlets", async () => {
    const sim = makeSim();
    const store = await call(sim, "GET", "/demo/v1/store");
    const outlets = await call(sim, "GET", "/demo/v1/outlets");
    expect(outlets.status).toBe(200);
    const ids = (outlets.json.data as { id: string }[]).map((o) => o.id);
    expect(ids).toContain(store.json.data.default_outlet_id);
  });

  it("Spec, What the service does 5 (ids are UUIDs): each store answers with its own id and prefix", async () => {
    const sim = makeSim();
    const store = (await call(sim, "GET", "/demo/v1/store")).json.data;
    const other = (await call(sim, "GET", "/other/v1/store")).json.data;
    expect(other.id).toMatch(UUID);
    expect(store.id).not.toBe(other.id);
    expect(other.domain_prefix).toBe("other");
  });
});

describe("Spec, Resources: AdjustmentReason; Endpoints: GET /inventory/adjustment-reasons is not paginated", () => {
  const PATH = "/demo/v1/inventory/adjustment-reasons";

  it("answers {data: [...]} only, with every fixture reason exactly, the system reason first", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", PATH, { key: "full" });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.json)).toEqual(["data"]);
    expect(reply.json).not.toHaveProperty("next_cursor");
    expect(reply.json).not.toHaveProperty("has_more");
    expect(reply.json).toStrictEqual({
      data: [
        { id: uuid, name: "Stock set via API", type: "any", is_system: true, version },
        { id: uuid, name: "Stock received", type: "increase", is_system: false, version },
        { id: uuid, name: "Damaged", type: "decrease", is_system: false, version },
        { id: uuid, name: "Stocktake", type: "any", is_system: false, version },
        { id: uuid, name: "Theft", type: "decrease", is_system: false, version },
      ],
    });
  });

  it("Spec, Inventory rules 1: the system reason 'Stock set via API' is present, is_system true, type any, and is the only system reason", async () => {
    const sim = makeSim();
    const data = (await call(sim, "GET", PATH)).json.data as { name: string; is_system: boolean; type: string }[];
    const system = data.filter((r) => r.is_system);
    expect(system).toHaveLength(1);
    expect(system[0]).toMatchObject({ name: "Stock set via API", is_system: true, type: "any" });
  });

  it("Spec, Inventory rules 5: a disabled reason (Theft) is still listed", async () => {
    const sim = makeSim();
    const data = (await call(sim, "GET", PATH)).json.data as { name: string }[];
    expect(data.map((r) => r.name)).toContain("Theft");
  });

  it("every type is increase, decrease or any; every id a UUID; ids distinct", async () => {
    const sim = makeSim();
    const data = (await call(sim, "GET", PATH)).json.data as {
      id: string;
      type: string;
      is_system: unknown;
      version: unknown;
    }[];
    for (const r of data) {
      expect(["increase", "decrease", "any"]).toContain(r.type);
      expect(r.id).toMatch(UUID);
      expect(typeof r.is_system).toBe("boolean");
      expect(r.version).toMatch(DECIMAL);
    }
    expect(new Set(data.map((r) => r.id)).size).toBe(data.length);
  });

  for (const query of ["limit=1", "cursor=abc", "order=desc", "include_deleted=true", "colour=red"]) {
    const name = query.split("=")[0]!;
    it(`Choice: takes no list parameters; ?${query} answers 400 VALIDATION_FAILED naming ${name}`, async () => {
      const sim = makeSim();
      const reply = await call(sim, "GET", `${PATH}?${query}`);
      expect(reply.status).toBe(400);
      expect(reply.json).toStrictEqual({
        error: {
          code: "VALIDATION_FAILED",
          message: expect.any(String),
          fields: [{ field: name, message: expect.any(String) }],
        },
      });
    });
  }
});

describe("Choice: unknown query parameters answer 400 VALIDATION_FAILED naming the parameter", () => {
  for (const path of ["/demo/v1/me", "/demo/v1/store"]) {
    it(`GET ${path}?verbose=1`, async () => {
      const sim = makeSim();
      const reply = await call(sim, "GET", `${path}?verbose=1`);
      expect(reply.status).toBe(400);
      expect(reply.json).toStrictEqual({
        error: {
          code: "VALIDATION_FAILED",
          message: expect.any(String),
          fields: [{ field: "verbose", message: expect.any(String) }],
        },
      });
    });
  }
});

describe("Spec, Errors: NOT_FOUND 404 for an unknown path, in the standard envelope", () => {
  for (const path of [
    "/demo/v1/nope",
    "/demo/v2/me",
    "/nope",
    "/demo/v1/me/",
    "/demo/v1",
    "/demo/v1/",
    "/demo/v1/outlets/extra",
    "/demo/v1/ME",
  ]) {
    it(`GET ${path} answers 404 NOT_FOUND`, async () => {
      const sim = makeSim();
      expectNotFound(await call(sim, "GET", path, { store: "demo" }));
    });
  }

  it("a wrong method on a known path (POST /demo/v1/me) answers 404 NOT_FOUND", async () => {
    const sim = makeSim();
    expectNotFound(await call(sim, "POST", "/demo/v1/me"));
    expectNotFound(await call(sim, "POST", "/demo/v1/me", { body: {} }));
  });

  for (const [method, path] of [
    ["PUT", "/demo/v1/store"],
    ["DELETE", "/demo/v1/outlets"],
    ["PATCH", "/demo/v1/taxes"],
    ["POST", "/demo/v1/payment-types"],
    ["POST", "/demo/v1/inventory/adjustment-reasons"],
  ] as const) {
    it(`a wrong method on a known path (${method} ${path}) answers 404 NOT_FOUND`, async () => {
      const sim = makeSim();
      expectNotFound(await call(sim, method, path, method === "DELETE" ? {} : { body: {} }));
    });
  }
});

describe("Spec, Errors: every failure is {error: {code, message, fields?}}", () => {
  it("a field problem names the field in fields[] with a message", async () => {
    const sim = makeSim();
    const reply = await call(sim, "GET", "/demo/v1/outlets?limit=0");
    expect(reply.status).toBe(400);
    const error = errorOf(reply);
    expect(Object.keys(error).sort()).toEqual(["code", "fields", "message"]);
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(typeof error.message).toBe("string");
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.fields).toStrictEqual([{ field: "limit", message: expect.any(String) }]);
  });
});

describe("Spec, What the service does 5 and 7: JSON bodies, {data: ...} envelopes, timestamps in UTC ending in Z", () => {
  const SINGLE = ["/demo/v1/me", "/demo/v1/store"];
  const LISTS = ["/demo/v1/outlets", "/demo/v1/payment-types", "/demo/v1/taxes"];
  const ITEMS = ["/demo/v1/inventory/adjustment-reasons"];

  for (const path of SINGLE) {
    it(`GET ${path} wraps its payload as {data: {...}} and nothing else`, async () => {
      const sim = makeSim();
      const reply = await call(sim, "GET", path);
      expect(reply.status).toBe(200);
      expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
      expect(Object.keys(reply.json)).toEqual(["data"]);
      expect(typeof reply.json.data).toBe("object");
      expect(Array.isArray(reply.json.data)).toBe(false);
      expect(reply.json.data).not.toBeNull();
    });
  }

  for (const path of LISTS) {
    it(`GET ${path} wraps its rows as {data: [...], next_cursor, has_more}`, async () => {
      const sim = makeSim();
      const reply = await call(sim, "GET", path);
      expect(reply.status).toBe(200);
      expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
      expect(Object.keys(reply.json).sort()).toEqual(["data", "has_more", "next_cursor"]);
      expect(Array.isArray(reply.json.data)).toBe(true);
    });
  }

  for (const path of ITEMS) {
    it(`GET ${path} wraps its rows as {data: [...]}`, async () => {
      const sim = makeSim();
      const reply = await call(sim, "GET", path);
      expect(reply.status).toBe(200);
      expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
      expect(Object.keys(reply.json)).toEqual(["data"]);
      expect(Array.isArray(reply.json.data)).toBe(true);
    });
  }

  it("every timestamp in these responses is UTC ending in Z, also after the clock moves", async () => {
    const sim = makeSim({ now: "2026-03-29T01:30:00+02:00" });
    sim.clock.advance(3600);
    const stamps: string[] = [];
    const collect = (value: unknown, key = ""): void => {
      if (typeof value === "string" && (/_at$/.test(key) || /^\d{4}-\d{2}-\d{2}T/.test(value))) stamps.push(value);
      else if (Array.isArray(value)) for (const v of value) collect(v);
      else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) collect(v, k);
    };
    for (const path of [...SINGLE, ...LISTS, ...ITEMS]) collect((await call(sim, "GET", path)).json);
    expect(stamps.length).toBeGreaterThan(0);
    for (const s of stamps) expect(s).toMatch(UTC_DATE_TIME);
    const store = (await call(sim, "GET", "/demo/v1/store")).json.data;
    expect(Date.parse(store.created_at)).toBe(Date.parse("2026-03-28T23:30:00Z"));
  });
});
