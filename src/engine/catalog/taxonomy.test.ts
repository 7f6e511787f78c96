// Tests of brands, categories, tags and suppliers against the spec: "Resources" (Brand, Category,
// Tag and Supplier, Product version), "Soft deletion", "Delete rules" (the brand, category, tag and
// supplier rows and the paragraph under the table), "Errors", "Pagination and polling rules" 1 to 4,
// "Limits" (idempotency of creates), and the recorded catalog choices (paths, 201 on create,
// standalone fields, duplicate names, depth 0 at the root, category moves, rename effects).
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator.js";
import { call, makeSim, type Reply } from "../../test-support/sim.js";
import { errorOf, expectError } from "../../test-support/errors.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^[0-9]+$/;
const uuid = expect.stringMatching(UUID);
const version = expect.stringMatching(DECIMAL);
const UNKNOWN_ID = "00000000-0000-4000-8000-00000000abcd";
const P = "/demo/v1";

type Row = Record<string, any> & { id: string; name: string; version: string };
type Product = Record<string, any> & { id: string; sku: string; version: string };

const bigger = (a: string, b: string) => expect(BigInt(a)).toBeGreaterThan(BigInt(b));

/** Every row of a list, paging with the given limit; also the cursor after the last row. */
async function listAll(
  sim: Simulator,
  path: string,
  query = "",
  limit = 200,
): Promise<{ rows: Row[]; cursor: string | null }> {
  const rows: Row[] = [];
  let cursor: string | null = null;
  let last: string | null = null;
  for (let i = 0; i < 200; i++) {
    const sep = path.includes("?") || query ? "&" : "?";
    const url = `${path}${query ? `?${query}` : ""}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`;
    const reply: Reply = await call(sim, "GET", url);
    expect(reply.status, url).toBe(200);
    rows.push(...reply.json.data);
    if (reply.json.next_cursor) last = reply.json.next_cursor;
    if (!reply.json.has_more) return { rows, cursor: last };
    cursor = reply.json.next_cursor;
  }
  throw new Error(`${path} did not end`);
}

const rowsOf = async (sim: Simulator, kind: string) => (await listAll(sim, `${P}/${kind}`)).rows;

async function byName(sim: Simulator, kind: string, name: string): Promise<Row> {
  const found = (await rowsOf(sim, kind)).filter((r) => r.name === name);
  expect(found, `${kind} named ${name}`).toHaveLength(1);
  return found[0]!;
}

async function bySku(sim: Simulator, sku: string): Promise<Product> {
  const reply = await call(sim, "GET", `${P}/products?sku=${encodeURIComponent(sku)}`);
  expect(reply.status).toBe(200);
  expect(reply.json.data, `product ${sku}`).toHaveLength(1);
  return reply.json.data[0];
}

/** id -> product of every live product. */
async function productMap(sim: Simulator): Promise<Map<string, Product>> {
  const { rows } = await listAll(sim, `${P}/products`);
  return new Map(rows.map((p) => [p.id, p as unknown as Product]));
}

/** The cursor after the last row of the products feed, for a later poll. */
async function productsCursor(sim: Simulator): Promise<string> {
  const { cursor } = await listAll(sim, `${P}/products`);
  expect(cursor).toEqual(expect.any(String));
  return cursor!;
}

/** Every row of the products feed after the cursor. */
async function pollProducts(sim: Simulator, cursor: string): Promise<Product[]> {
  const rows: Product[] = [];
  let at = cursor;
  for (let i = 0; i < 50; i++) {
    const reply = await call(sim, "GET", `${P}/products?limit=200&cursor=${at}`);
    expect(reply.status).toBe(200);
    rows.push(...reply.json.data);
    if (!reply.json.has_more) return rows;
    at = reply.json.next_cursor;
  }
  throw new Error("poll did not end");
}

/** Checks that exactly the given products (by SKU) have new versions and every other product kept its version. */
function expectChangedExactly(before: Map<string, Product>, after: Map<string, Product>, skus: string[]): void {
  expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
  const changed: string[] = [];
  for (const [id, was] of before) {
    const now = after.get(id)!;
    if (now.version !== was.version) {
      bigger(now.version, was.version);
      changed.push(now.sku);
    }
  }
  expect(changed.sort()).toEqual([...skus].sort());
}

const hasTag = (id: string) => (p: Product) => p.tags.some((t: { id: string }) => t.id === id);
const hasSupplier = (id: string) => (p: Product) =>
  p.suppliers.some((s: { supplier_id: string }) => s.supplier_id === id);

/** SKUs of the products (before the change) that match; they include at least the demo products named. */
function carriers(before: Map<string, Product>, match: (p: Product) => boolean, known: string[]): string[] {
  const skus = [...before.values()]
    .filter(match)
    .map((p) => p.sku)
    .sort();
  expect(skus).toEqual(expect.arrayContaining(known));
  return skus;
}

// ---------------------------------------------------------------------------------------------
// Generic behaviour of the four resources.

interface Kind {
  readonly path: string;
  /** Demo rows as GET /{path} returns them (seed 1), oldest change first. */
  readonly fixture: unknown[];
  readonly create: Record<string, unknown>;
  readonly created: Record<string, unknown>;
  readonly update: Record<string, unknown>;
  readonly updated: Record<string, unknown>;
  readonly keys: string[];
}

const KINDS: Kind[] = [
  {
    path: "brands",
    fixture: [
      { id: uuid, name: "Northwind", description: "Outdoor basics", version },
      { id: uuid, name: "Acme", description: null, version },
      { id: uuid, name: "Harbour & Co", description: null, version },
    ],
    create: { name: "Contoso", description: "Kitchen goods" },
    created: { name: "Contoso", description: "Kitchen goods" },
    update: { name: "Contoso Home", description: null },
    updated: { name: "Contoso Home", description: null },
    keys: ["description", "id", "name", "version"],
  },
  {
    path: "categories",
    fixture: [
      { id: uuid, name: "Other Products", parent_id: null, depth: 0, version },
      { id: uuid, name: "Gift Cards", parent_id: null, depth: 0, version },
      { id: uuid, name: "Apparel", parent_id: null, depth: 0, version },
      { id: uuid, name: "Shirts", parent_id: uuid, depth: 1, version },
      { id: uuid, name: "Accessories", parent_id: null, depth: 0, version },
      { id: uuid, name: "Services", parent_id: null, depth: 0, version },
    ],
    create: { name: "Footwear" },
    created: { name: "Footwear", parent_id: null, depth: 0 },
    update: { name: "Shoes" },
    updated: { name: "Shoes", parent_id: null, depth: 0 },
    keys: ["depth", "id", "name", "parent_id", "version"],
  },
  {
    path: "tags",
    fixture: [
      { id: uuid, name: "Summer", version },
      { id: uuid, name: "Sale", version },
      { id: uuid, name: "New", version },
      { id: uuid, name: "Bestseller", version },
    ],
    create: { name: "Clearance" },
    created: { name: "Clearance" },
    update: { name: "Final Clearance" },
    updated: { name: "Final Clearance" },
    keys: ["id", "name", "version"],
  },
  {
    path: "suppliers",
    fixture: [
      { id: uuid, name: "Acme Wholesale", version },
      { id: uuid, name: "Pacific Textiles", version },
      { id: uuid, name: "Harbour Distribution", version },
    ],
    create: { name: "Nordic Mills" },
    created: { name: "Nordic Mills" },
    update: { name: "Nordic Mills Ltd" },
    updated: { name: "Nordic Mills Ltd" },
    keys: ["id", "name", "version"],
  },
];

for (const kind of KINDS) {
  const base = `${P}/${kind.path}`;

  describe(`/${kind.path}: choice paths GET list, POST create, GET/PATCH/DELETE by id; choice standalone fields`, () => {
    it(`GET /${kind.path} lists the demo rows exactly, oldest change first (Pagination rule 1)`, async () => {
      const sim = makeSim();
      const reply = await call(sim, "GET", base);
      expect(reply.status).toBe(200);
      expect(reply.json).toStrictEqual({ data: kind.fixture, next_cursor: expect.any(String), has_more: false });
      const versions = (reply.json.data as Row[]).map((r) => BigInt(r.version));
      expect([...versions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(versions);
    });

    it(`POST /${kind.path} answers 201 with exactly {${kind.keys.join(", ")}}; GET by id reads it back; it lists last`, async () => {
      const sim = makeSim();
      const reply = await call(sim, "POST", base, { body: kind.create });
      expect(reply.status).toBe(201);
      expect(reply.json).toStrictEqual({ data: { id: uuid, ...kind.created, version } });
      expect(Object.keys(reply.json.data).sort()).toEqual(kind.keys);
      const row = reply.json.data as Row;
      const read = await call(sim, "GET", `${base}/${row.id}`);
      expect(read.status).toBe(200);
      expect(read.json).toStrictEqual({ data: row });
      const rows = await rowsOf(sim, kind.path);
      expect(rows.at(-1)).toStrictEqual(row);
      expect(rows).toHaveLength(kind.fixture.length + 1);
    });

    it(`GET /${kind.path}/{id} reads each demo row as the list shows it; ids match case-insensitively (choice)`, async () => {
      const sim = makeSim();
      for (const row of await rowsOf(sim, kind.path)) {
        const read = await call(sim, "GET", `${base}/${row.id}`);
        expect(read.status).toBe(200);
        expect(read.json).toStrictEqual({ data: row });
        expect((await call(sim, "GET", `${base}/${row.id.toUpperCase()}`)).json).toStrictEqual({ data: row });
      }
    });

    it(`Spec, Endpoints (list parameters) and Pagination: limit=2 pages through every row, then an empty page with next_cursor null`, async () => {
      const sim = makeSim();
      await call(sim, "POST", base, { body: kind.create });
      const all = await rowsOf(sim, kind.path);
      expect(all.length).toBeGreaterThanOrEqual(4);
      const seen: Row[] = [];
      let cursor: string | null = null;
      let pages = 0;
      for (;;) {
        const reply: Reply = await call(sim, "GET", `${base}?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
        expect(reply.status).toBe(200);
        pages++;
        const expected = all.slice(seen.length, seen.length + 2);
        expect(reply.json.data).toStrictEqual(expected);
        seen.push(...reply.json.data);
        expect(reply.json.has_more).toBe(seen.length < all.length);
        expect(reply.json.next_cursor).toEqual(expect.any(String));
        cursor = reply.json.next_cursor;
        if (!reply.json.has_more) break;
      }
      expect(pages).toBe(Math.ceil(all.length / 2));
      expect(seen).toStrictEqual(all);
      const empty = await call(sim, "GET", `${base}?limit=2&cursor=${cursor}`);
      expect(empty.status).toBe(200);
      expect(empty.json).toStrictEqual({ data: [], next_cursor: null, has_more: false });
    });

    it(`Spec, Pagination rule 3: order=desc returns one page, newest change first, no next_cursor, has_more false`, async () => {
      const sim = makeSim();
      const all = await rowsOf(sim, kind.path);
      const reply = await call(sim, "GET", `${base}?order=desc&limit=2`);
      expect(reply.status).toBe(200);
      expect(reply.json).toStrictEqual({ data: [...all].reverse().slice(0, 2), next_cursor: null, has_more: false });
    });

    it(`PATCH /${kind.path}/{id} answers 200 with the change and a higher version; the row moves to the end of the list`, async () => {
      const sim = makeSim();
      const row = (await call(sim, "POST", base, { body: kind.create })).json.data as Row;
      await call(sim, "POST", base, {
        body: kind.path === "brands" || kind.path === "tags" ? { name: "Later" } : kind.create,
      });
      const reply = await call(sim, "PATCH", `${base}/${row.id}`, { body: kind.update });
      expect(reply.status).toBe(200);
      expect(reply.json).toStrictEqual({ data: { id: row.id, ...kind.updated, version } });
      bigger(reply.json.data.version, row.version);
      expect((await call(sim, "GET", `${base}/${row.id}`)).json).toStrictEqual(reply.json);
      expect((await rowsOf(sim, kind.path)).at(-1)).toStrictEqual(reply.json.data);
    });

    it(`PATCH of a demo row renames it and keeps its id`, async () => {
      const sim = makeSim();
      const first = (await rowsOf(sim, kind.path)).find((r) => !["Other Products", "Gift Cards"].includes(r.name))!;
      const reply = await call(sim, "PATCH", `${base}/${first.id}`, { body: { name: `${first.name} (renamed)` } });
      expect(reply.status).toBe(200);
      expect(reply.json.data).toStrictEqual({ ...first, name: `${first.name} (renamed)`, version });
      bigger(reply.json.data.version, first.version);
    });

    it(`Spec, Endpoints: DELETE /${kind.path}/{id} answers 204 with no body; Soft deletion: the id then answers 404 on GET, PATCH and DELETE`, async () => {
      const sim = makeSim();
      const row = (await call(sim, "POST", base, { body: kind.create })).json.data as Row;
      const del = await call(sim, "DELETE", `${base}/${row.id}`);
      expect(del.status).toBe(204);
      expect(del.text).toBe("");
      expectError(await call(sim, "GET", `${base}/${row.id}`), 404, "NOT_FOUND");
      expectError(await call(sim, "PATCH", `${base}/${row.id}`, { body: kind.update }), 404, "NOT_FOUND");
      expectError(await call(sim, "DELETE", `${base}/${row.id}`), 404, "NOT_FOUND");
      expect((await rowsOf(sim, kind.path)).map((r) => r.id)).not.toContain(row.id);
    });

    it(`Spec, Pagination rule 4: include_deleted=true lists a deleted row in normal shape with no marker and a higher version`, async () => {
      const sim = makeSim();
      const row = (await call(sim, "POST", base, { body: kind.create })).json.data as Row;
      const before = await listAll(sim, base);
      expect((await call(sim, "DELETE", `${base}/${row.id}`)).status).toBe(204);

      const all = await listAll(sim, base, "include_deleted=true");
      const deleted = all.rows.filter((r) => r.id === row.id);
      expect(deleted).toHaveLength(1);
      expect(deleted[0]).toStrictEqual({ ...row, version });
      expect(Object.keys(deleted[0]!).sort()).toEqual(kind.keys);
      bigger(deleted[0]!.version, row.version);
      expect(all.rows.at(-1)!.id).toBe(row.id);
      expect(all.rows).toHaveLength(kind.fixture.length + 1);

      // A poll from a cursor taken before the delete: with include_deleted the deleted row, without it nothing.
      const polled = await call(sim, "GET", `${base}?include_deleted=true&cursor=${before.cursor}`);
      expect(polled.status).toBe(200);
      expect(polled.json.data).toStrictEqual([deleted[0]]);
      const plain = await call(sim, "GET", `${base}?cursor=${before.cursor}`);
      expect(plain.status).toBe(200);
      expect(plain.json.data).toStrictEqual([]);
    });

    it(`Spec, Pagination rule 4: include_deleted=true with order=desc answers 400 VALIDATION_FAILED`, async () => {
      const sim = makeSim();
      const reply = await call(sim, "GET", `${base}?include_deleted=true&order=desc`);
      expect(reply.status).toBe(400);
      expect(errorOf(reply).code).toBe("VALIDATION_FAILED");
    });

    it(`Spec, Errors (NOT_FOUND): unknown UUID, non-UUID and another store's id answer 404 on GET, PATCH and DELETE`, async () => {
      const sim = makeSim();
      const foreign = await call(sim, "POST", `/other/v1/${kind.path}`, { body: kind.create });
      expect(foreign.status).toBe(201);
      for (const id of [UNKNOWN_ID, "not-a-uuid", "12345", foreign.json.data.id]) {
        expectError(await call(sim, "GET", `${base}/${id}`), 404, "NOT_FOUND");
        expectError(await call(sim, "PATCH", `${base}/${id}`, { body: kind.update }), 404, "NOT_FOUND");
        expectError(await call(sim, "DELETE", `${base}/${id}`), 404, "NOT_FOUND");
      }
      // The other store's row is untouched and still readable there.
      const there = await call(sim, "GET", `/other/v1/${kind.path}/${foreign.json.data.id}`);
      expect(there.json).toStrictEqual(foreign.json);
    });

    it(`Spec, Resources (no unknown properties): create without name or with an unknown property answers 400 VALIDATION_FAILED`, async () => {
      const sim = makeSim();
      expectError(await call(sim, "POST", base, { body: {} }), 400, "VALIDATION_FAILED", { includes: "name" });
      expectError(
        await call(sim, "POST", base, { body: { ...kind.create, colour: "red" } }),
        400,
        "VALIDATION_FAILED",
        { includes: "colour" },
      );
      expect(await rowsOf(sim, kind.path)).toHaveLength(kind.fixture.length);
    });

    it(`Spec, Scopes: catalog:read lists and reads; create, update and delete need catalog:write (403 INSUFFICIENT_SCOPE)`, async () => {
      const sim = makeSim();
      const row = (await rowsOf(sim, kind.path)).at(-1)!;
      expect((await call(sim, "GET", base, { key: "catalog:read" })).status).toBe(200);
      expect((await call(sim, "GET", `${base}/${row.id}`, { key: "catalog:read" })).status).toBe(200);
      expectError(await call(sim, "POST", base, { key: "catalog:read", body: kind.create }), 403, "INSUFFICIENT_SCOPE");
      expectError(
        await call(sim, "PATCH", `${base}/${row.id}`, { key: "catalog:read", body: kind.update }),
        403,
        "INSUFFICIENT_SCOPE",
      );
      expectError(await call(sim, "DELETE", `${base}/${row.id}`, { key: "catalog:read" }), 403, "INSUFFICIENT_SCOPE");
      expectError(await call(sim, "GET", base, { key: "inventory:read" }), 403, "INSUFFICIENT_SCOPE");
      expect(await rowsOf(sim, kind.path)).toHaveLength(kind.fixture.length);
    });

    it(`Spec, Limits (idempotency): a create retried with the same Idempotency-Key replays 201 and creates one row`, async () => {
      const sim = makeSim();
      const headers = { "idempotency-key": `create-${kind.path}` };
      const first = await call(sim, "POST", base, { body: kind.create, headers });
      expect(first.status).toBe(201);
      const again = await call(sim, "POST", base, { body: kind.create, headers });
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.json).toStrictEqual(first.json);
      expect(await rowsOf(sim, kind.path)).toHaveLength(kind.fixture.length + 1);
      expectError(
        await call(sim, "POST", base, { body: { name: "Something else" }, headers }),
        422,
        "IDEMPOTENCY_KEY_REUSED",
      );
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Names.

describe("Spec, Errors (CONFLICT: duplicate brand or tag name); choice: compared without case, also on rename", () => {
  for (const [kind, existing, other] of [
    ["brands", "Northwind", "Acme"],
    ["tags", "Summer", "Sale"],
  ] as const) {
    it(`POST /${kind} with "${existing}", "${existing.toLowerCase()}" or "${existing.toUpperCase()}" answers 409 CONFLICT and creates nothing`, async () => {
      const sim = makeSim();
      for (const name of [existing, existing.toLowerCase(), existing.toUpperCase()]) {
        expectError(await call(sim, "POST", `${P}/${kind}`, { body: { name } }), 409, "CONFLICT", "any");
      }
      expect((await rowsOf(sim, kind)).filter((r) => r.name.toLowerCase() === existing.toLowerCase())).toHaveLength(1);
    });

    it(`renaming ${other} to "${existing.toUpperCase()}" answers 409 CONFLICT and leaves ${other} unchanged`, async () => {
      const sim = makeSim();
      const row = await byName(sim, kind, other);
      expectError(
        await call(sim, "PATCH", `${P}/${kind}/${row.id}`, { body: { name: existing.toUpperCase() } }),
        409,
        "CONFLICT",
        "any",
      );
      expect((await call(sim, "GET", `${P}/${kind}/${row.id}`)).json.data).toStrictEqual(row);
    });

    it(`renaming ${other} to its own name in another case ("${other.toUpperCase()}") is not a duplicate (200)`, async () => {
      const sim = makeSim();
      const row = await byName(sim, kind, other);
      const reply = await call(sim, "PATCH", `${P}/${kind}/${row.id}`, { body: { name: other.toUpperCase() } });
      expect(reply.status).toBe(200);
      expect(reply.json.data.name).toBe(other.toUpperCase());
    });

    it(`choice (a name used by a live one): after ${existing} is deleted its name can be used again (201)`, async () => {
      const sim = makeSim();
      const row = await byName(sim, kind, existing);
      expect((await call(sim, "DELETE", `${P}/${kind}/${row.id}`)).status).toBe(204);
      const reply = await call(sim, "POST", `${P}/${kind}`, { body: { name: existing } });
      expect(reply.status).toBe(201);
      expect(reply.json.data.id).not.toBe(row.id);
    });
  }

  it("choice: a brand name used in another store is not a duplicate", async () => {
    const sim = makeSim();
    expect((await call(sim, "POST", "/other/v1/brands", { body: { name: "Northwind" } })).status).toBe(201);
    expect((await call(sim, "POST", "/other/v1/tags", { body: { name: "Summer" } })).status).toBe(201);
  });

  it("choice: category names may repeat (a second Apparel, also under another parent)", async () => {
    const sim = makeSim();
    const accessories = await byName(sim, "categories", "Accessories");
    const root = await call(sim, "POST", `${P}/categories`, { body: { name: "Apparel" } });
    expect(root.status).toBe(201);
    const nested = await call(sim, "POST", `${P}/categories`, { body: { name: "shirts", parent_id: accessories.id } });
    expect(nested.status).toBe(201);
    expect(nested.json.data).toStrictEqual({ id: uuid, name: "shirts", parent_id: accessories.id, depth: 1, version });
  });

  it("choice: supplier names may repeat (Acme Wholesale, acme wholesale)", async () => {
    const sim = makeSim();
    expect((await call(sim, "POST", `${P}/suppliers`, { body: { name: "Acme Wholesale" } })).status).toBe(201);
    expect((await call(sim, "POST", `${P}/suppliers`, { body: { name: "acme wholesale" } })).status).toBe(201);
    const pacific = await byName(sim, "suppliers", "Pacific Textiles");
    expect(
      (await call(sim, "PATCH", `${P}/suppliers/${pacific.id}`, { body: { name: "Harbour Distribution" } })).status,
    ).toBe(200);
  });

  it("brand description: left out at create is null; PATCH sets and clears it", async () => {
    const sim = makeSim();
    const created = await call(sim, "POST", `${P}/brands`, { body: { name: "Fabrikam" } });
    expect(created.status).toBe(201);
    expect(created.json.data).toStrictEqual({ id: uuid, name: "Fabrikam", description: null, version });
    const set = await call(sim, "PATCH", `${P}/brands/${created.json.data.id}`, { body: { description: "Fabrics" } });
    expect(set.status).toBe(200);
    expect(set.json.data).toStrictEqual({
      id: created.json.data.id,
      name: "Fabrikam",
      description: "Fabrics",
      version,
    });
    const cleared = await call(sim, "PATCH", `${P}/brands/${created.json.data.id}`, { body: { description: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.json.data.description).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Categories.

describe("Spec, Category: parent_id and depth (choice: depth 0 at the root)", () => {
  it("a category under Shirts has depth 2 and Shirts' id as parent_id; one under that has depth 3", async () => {
    const sim = makeSim();
    const shirts = await byName(sim, "categories", "Shirts");
    const apparel = await byName(sim, "categories", "Apparel");
    expect(shirts.parent_id).toBe(apparel.id);
    const polos = await call(sim, "POST", `${P}/categories`, { body: { name: "Polos", parent_id: shirts.id } });
    expect(polos.status).toBe(201);
    expect(polos.json.data).toStrictEqual({ id: uuid, name: "Polos", parent_id: shirts.id, depth: 2, version });
    const pique = await call(sim, "POST", `${P}/categories`, {
      body: { name: "Pique", parent_id: polos.json.data.id },
    });
    expect(pique.status).toBe(201);
    expect(pique.json.data).toStrictEqual({
      id: uuid,
      name: "Pique",
      parent_id: polos.json.data.id,
      depth: 3,
      version,
    });
  });

  it("parent_id null at create is a root category with depth 0", async () => {
    const sim = makeSim();
    const reply = await call(sim, "POST", `${P}/categories`, { body: { name: "Toys", parent_id: null } });
    expect(reply.status).toBe(201);
    expect(reply.json.data).toStrictEqual({ id: uuid, name: "Toys", parent_id: null, depth: 0, version });
  });

  it("Spec, Errors (UNPROCESSABLE, referenced thing not found): an unknown parent_id answers 422 and creates nothing", async () => {
    const sim = makeSim();
    expectError(
      await call(sim, "POST", `${P}/categories`, { body: { name: "Orphans", parent_id: UNKNOWN_ID } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
    expect(await rowsOf(sim, "categories")).toHaveLength(6);
  });

  it("a deleted parent or another store's category as parent_id answers 422", async () => {
    const sim = makeSim();
    const services = await byName(sim, "categories", "Services");
    expect((await call(sim, "DELETE", `${P}/categories/${services.id}`)).status).toBe(204);
    expectError(
      await call(sim, "POST", `${P}/categories`, { body: { name: "Repairs", parent_id: services.id } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
    const foreign = await call(sim, "POST", "/other/v1/categories", { body: { name: "Theirs" } });
    expect(foreign.status).toBe(201);
    expectError(
      await call(sim, "POST", `${P}/categories`, { body: { name: "Mine", parent_id: foreign.json.data.id } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
  });

  it("a parent_id that is not a UUID answers 400 VALIDATION_FAILED naming parent_id", async () => {
    const sim = makeSim();
    expectError(
      await call(sim, "POST", `${P}/categories`, { body: { name: "Bad", parent_id: "Apparel" } }),
      400,
      "VALIDATION_FAILED",
      { includes: "parent_id" },
    );
  });

  it("choice: no category can be created under the reserved Gift Cards category (422)", async () => {
    const sim = makeSim();
    const gift = await byName(sim, "categories", "Gift Cards");
    expectError(
      await call(sim, "POST", `${P}/categories`, { body: { name: "E-gift", parent_id: gift.id } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
  });
});

describe("Spec, Delete rules (category): 409 CONFLICT for a system category, the gift cards category, or one with live subcategories", () => {
  for (const name of ["Other Products", "Gift Cards", "Apparel"]) {
    it(`DELETE ${name} answers 409 CONFLICT and it stays readable`, async () => {
      const sim = makeSim();
      const row = await byName(sim, "categories", name);
      expectError(await call(sim, "DELETE", `${P}/categories/${row.id}`), 409, "CONFLICT");
      expect((await call(sim, "GET", `${P}/categories/${row.id}`)).json).toStrictEqual({ data: row });
    });
  }

  it("after its subcategory Shirts is deleted, Apparel can be deleted (204)", async () => {
    const sim = makeSim();
    const apparel = await byName(sim, "categories", "Apparel");
    const shirts = await byName(sim, "categories", "Shirts");
    expect((await call(sim, "DELETE", `${P}/categories/${shirts.id}`)).status).toBe(204);
    const del = await call(sim, "DELETE", `${P}/categories/${apparel.id}`);
    expect(del.status).toBe(204);
    expectError(await call(sim, "GET", `${P}/categories/${apparel.id}`), 404, "NOT_FOUND");
  });

  it("a category whose only subcategory was moved away can be deleted", async () => {
    const sim = makeSim();
    const apparel = await byName(sim, "categories", "Apparel");
    const shirts = await byName(sim, "categories", "Shirts");
    expect((await call(sim, "PATCH", `${P}/categories/${shirts.id}`, { body: { parent_id: null } })).status).toBe(200);
    expect((await call(sim, "DELETE", `${P}/categories/${apparel.id}`)).status).toBe(204);
  });

  it("choice: system categories cannot be changed: PATCH Other Products or Gift Cards answers 409", async () => {
    const sim = makeSim();
    for (const name of ["Other Products", "Gift Cards"]) {
      const row = await byName(sim, "categories", name);
      expectError(await call(sim, "PATCH", `${P}/categories/${row.id}`, { body: { name: "Misc" } }), 409, "CONFLICT");
      expect((await call(sim, "GET", `${P}/categories/${row.id}`)).json.data).toStrictEqual(row);
    }
  });
});

describe("Spec, Category and Delete rules: products of a deleted category move to Other Products with a new version", () => {
  it("deleting Shirts moves TEE-CLASSIC and its 4 children to Other Products; every other product keeps its version", async () => {
    const sim = makeSim();
    const shirts = await byName(sim, "categories", "Shirts");
    const other = await byName(sim, "categories", "Other Products");
    const before = await productMap(sim);
    const inShirts = [...before.values()].filter((p) => p.category_id === shirts.id).map((p) => p.sku);
    expect(inShirts).toEqual(
      expect.arrayContaining([
        "TEE-CLASSIC",
        "TEE-CLASSIC-L-NAVY",
        "TEE-CLASSIC-M-NAVY",
        "TEE-CLASSIC-M-WHITE",
        "TEE-CLASSIC-S-NAVY",
      ]),
    );
    sim.clock.advance(120);

    expect((await call(sim, "DELETE", `${P}/categories/${shirts.id}`)).status).toBe(204);

    const after = await productMap(sim);
    expectChangedExactly(before, after, inShirts);
    for (const [id, was] of before) {
      const now = after.get(id)!;
      if (inShirts.includes(was.sku)) {
        expect(now).toStrictEqual({ ...was, category_id: other.id, updated_at: "2026-01-01T00:02:00.000Z", version });
      } else {
        expect(now).toStrictEqual(was);
      }
    }
  });

  it("Spec, Soft deletion (records that referred to it keep working): the moved products still read and update", async () => {
    const sim = makeSim();
    const accessories = await byName(sim, "categories", "Accessories");
    const other = await byName(sim, "categories", "Other Products");
    const tote = await bySku(sim, "TOTE-CANVAS");
    expect((await call(sim, "DELETE", `${P}/categories/${accessories.id}`)).status).toBe(204);
    const read = await call(sim, "GET", `${P}/products/${tote.id}`);
    expect(read.status).toBe(200);
    expect(read.json.data.category_id).toBe(other.id);
    const patched = await call(sim, "PATCH", `${P}/products/${tote.id}`, { body: { name: "Canvas Tote Bag" } });
    expect(patched.status).toBe(200);
    expect(patched.json.data.category_id).toBe(other.id);
  });

  it("choice (unknown category: 422): a product cannot be put in a deleted category", async () => {
    const sim = makeSim();
    const services = await byName(sim, "categories", "Services");
    const tote = await bySku(sim, "TOTE-CANVAS");
    expect((await call(sim, "DELETE", `${P}/categories/${services.id}`)).status).toBe(204);
    expectError(
      await call(sim, "PATCH", `${P}/products/${tote.id}`, { body: { category_id: services.id } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
  });
});

describe("Choice: category moves (PATCH parent_id); a move under itself or a descendant answers 409; descendants get their new depth", () => {
  it("moving Apparel under its own child Shirts answers 409 CONFLICT and nothing changes", async () => {
    const sim = makeSim();
    const before = await rowsOf(sim, "categories");
    const apparel = await byName(sim, "categories", "Apparel");
    const shirts = await byName(sim, "categories", "Shirts");
    expectError(
      await call(sim, "PATCH", `${P}/categories/${apparel.id}`, { body: { parent_id: shirts.id } }),
      409,
      "CONFLICT",
      "any",
    );
    expect(await rowsOf(sim, "categories")).toStrictEqual(before);
  });

  it("moving Apparel under its grandchild answers 409 CONFLICT", async () => {
    const sim = makeSim();
    const apparel = await byName(sim, "categories", "Apparel");
    const shirts = await byName(sim, "categories", "Shirts");
    const polos = (await call(sim, "POST", `${P}/categories`, { body: { name: "Polos", parent_id: shirts.id } })).json
      .data as Row;
    expectError(
      await call(sim, "PATCH", `${P}/categories/${apparel.id}`, { body: { parent_id: polos.id } }),
      409,
      "CONFLICT",
      "any",
    );
    expect((await call(sim, "GET", `${P}/categories/${apparel.id}`)).json.data).toStrictEqual(apparel);
  });

  it("moving a category under itself answers 409 CONFLICT", async () => {
    const sim = makeSim();
    const apparel = await byName(sim, "categories", "Apparel");
    expectError(
      await call(sim, "PATCH", `${P}/categories/${apparel.id}`, { body: { parent_id: apparel.id } }),
      409,
      "CONFLICT",
      "any",
    );
  });

  it("choice (reserved gift cards category): moving a category under Gift Cards answers 422 UNPROCESSABLE", async () => {
    const sim = makeSim();
    const services = await byName(sim, "categories", "Services");
    const gift = await byName(sim, "categories", "Gift Cards");
    expectError(
      await call(sim, "PATCH", `${P}/categories/${services.id}`, { body: { parent_id: gift.id } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
    expect((await call(sim, "GET", `${P}/categories/${services.id}`)).json.data).toStrictEqual(services);
  });

  it("moving under an unknown parent answers 422 UNPROCESSABLE", async () => {
    const sim = makeSim();
    const apparel = await byName(sim, "categories", "Apparel");
    expectError(
      await call(sim, "PATCH", `${P}/categories/${apparel.id}`, { body: { parent_id: UNKNOWN_ID } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
  });

  it("moving Apparel under a new root Clothing gives Apparel depth 1, Shirts depth 2, Polos depth 3, each with a new version", async () => {
    const sim = makeSim();
    const shirts = await byName(sim, "categories", "Shirts");
    const polos = (await call(sim, "POST", `${P}/categories`, { body: { name: "Polos", parent_id: shirts.id } })).json
      .data as Row;
    const apparel = await byName(sim, "categories", "Apparel");
    const clothing = (await call(sim, "POST", `${P}/categories`, { body: { name: "Clothing" } })).json.data as Row;
    const accessories = await byName(sim, "categories", "Accessories");

    const moved = await call(sim, "PATCH", `${P}/categories/${apparel.id}`, { body: { parent_id: clothing.id } });
    expect(moved.status).toBe(200);
    expect(moved.json.data).toStrictEqual({
      id: apparel.id,
      name: "Apparel",
      parent_id: clothing.id,
      depth: 1,
      version,
    });
    bigger(moved.json.data.version, apparel.version);

    const shirtsNow = (await call(sim, "GET", `${P}/categories/${shirts.id}`)).json.data;
    expect(shirtsNow).toStrictEqual({ id: shirts.id, name: "Shirts", parent_id: apparel.id, depth: 2, version });
    bigger(shirtsNow.version, shirts.version);
    const polosNow = (await call(sim, "GET", `${P}/categories/${polos.id}`)).json.data;
    expect(polosNow).toStrictEqual({ id: polos.id, name: "Polos", parent_id: shirts.id, depth: 3, version });
    bigger(polosNow.version, polos.version);
    expect((await call(sim, "GET", `${P}/categories/${accessories.id}`)).json.data).toStrictEqual(accessories);
    expect((await call(sim, "GET", `${P}/categories/${clothing.id}`)).json.data).toStrictEqual(clothing);
  });

  it("moving Shirts to the root (parent_id null) gives it depth 0 and its child depth 1", async () => {
    const sim = makeSim();
    const shirts = await byName(sim, "categories", "Shirts");
    const polos = (await call(sim, "POST", `${P}/categories`, { body: { name: "Polos", parent_id: shirts.id } })).json
      .data as Row;
    const moved = await call(sim, "PATCH", `${P}/categories/${shirts.id}`, { body: { parent_id: null } });
    expect(moved.status).toBe(200);
    expect(moved.json.data).toStrictEqual({ id: shirts.id, name: "Shirts", parent_id: null, depth: 0, version });
    expect((await call(sim, "GET", `${P}/categories/${polos.id}`)).json.data).toStrictEqual({
      id: polos.id,
      name: "Polos",
      parent_id: shirts.id,
      depth: 1,
      version,
    });
  });

  it("a poll of /categories after a move returns the moved category and its descendants", async () => {
    const sim = makeSim();
    const { cursor } = await listAll(sim, `${P}/categories`);
    const apparel = await byName(sim, "categories", "Apparel");
    const shirts = await byName(sim, "categories", "Shirts");
    const accessories = await byName(sim, "categories", "Accessories");
    expect(
      (await call(sim, "PATCH", `${P}/categories/${apparel.id}`, { body: { parent_id: accessories.id } })).status,
    ).toBe(200);
    const polled = await call(sim, "GET", `${P}/categories?cursor=${cursor}`);
    expect(polled.status).toBe(200);
    expect((polled.json.data as Row[]).map((r) => r.id).sort()).toEqual([apparel.id, shirts.id].sort());
  });
});

// ---------------------------------------------------------------------------------------------
// Effects on products.

describe("Spec, Delete rules (brand): products that used it get no brand, each with a new version", () => {
  it("deleting Northwind sets brand_id null on TOTE-CANVAS and CAP-BASEBALL only; they move to the end of the products feed", async () => {
    const sim = makeSim();
    const northwind = await byName(sim, "brands", "Northwind");
    const before = await productMap(sim);
    sim.clock.advance(300);
    expect((await call(sim, "DELETE", `${P}/brands/${northwind.id}`)).status).toBe(204);

    const after = await productMap(sim);
    const affected = carriers(before, (p) => p.brand_id === northwind.id, ["TOTE-CANVAS", "CAP-BASEBALL"]);
    expectChangedExactly(before, after, affected);
    for (const [id, was] of before) {
      if (affected.includes(was.sku)) {
        expect(was.brand_id).toBe(northwind.id);
        expect(after.get(id)).toStrictEqual({
          ...was,
          brand_id: null,
          updated_at: "2026-01-01T00:05:00.000Z",
          version,
        });
      } else {
        expect(after.get(id)).toStrictEqual(was);
      }
    }
    const feed = (await listAll(sim, `${P}/products`)).rows;
    expect(
      feed
        .slice(-affected.length)
        .map((p) => p.sku)
        .sort(),
    ).toEqual(affected);
  });

  it("Soft deletion: a product cannot be given a deleted brand afterwards (choice: unknown brand 422)", async () => {
    const sim = makeSim();
    const northwind = await byName(sim, "brands", "Northwind");
    const mug = await bySku(sim, "MUG-ENAMEL");
    expect((await call(sim, "DELETE", `${P}/brands/${northwind.id}`)).status).toBe(204);
    expectError(
      await call(sim, "PATCH", `${P}/products/${mug.id}`, { body: { brand_id: northwind.id } }),
      422,
      "UNPROCESSABLE",
      "any",
    );
  });

  it("deleting a brand no product uses changes no product", async () => {
    const sim = makeSim();
    const created = (await call(sim, "POST", `${P}/brands`, { body: { name: "Unused" } })).json.data as Row;
    const before = await productMap(sim);
    expect((await call(sim, "DELETE", `${P}/brands/${created.id}`)).status).toBe(204);
    expectChangedExactly(before, await productMap(sim), []);
  });
});

describe("Spec, Delete rules (tag): removed from every product carrying it, each with a new version", () => {
  it("deleting Summer removes it from TOTE-CANVAS (keeping Bestseller) and TEE-CLASSIC; others keep their version", async () => {
    const sim = makeSim();
    const summer = await byName(sim, "tags", "Summer");
    const bestseller = await byName(sim, "tags", "Bestseller");
    const before = await productMap(sim);
    sim.clock.advance(60);
    expect((await call(sim, "DELETE", `${P}/tags/${summer.id}`)).status).toBe(204);

    const after = await productMap(sim);
    expectChangedExactly(before, after, carriers(before, hasTag(summer.id), ["TOTE-CANVAS", "TEE-CLASSIC"]));
    const tote = [...after.values()].find((p) => p.sku === "TOTE-CANVAS")!;
    const tee = [...after.values()].find((p) => p.sku === "TEE-CLASSIC")!;
    expect(tote).toStrictEqual({
      ...before.get(tote.id),
      tags: [{ id: bestseller.id, name: "Bestseller" }],
      updated_at: "2026-01-01T00:01:00.000Z",
      version,
    });
    expect(tee).toStrictEqual({ ...before.get(tee.id), tags: [], updated_at: "2026-01-01T00:01:00.000Z", version });
    for (const p of after.values()) expect(p.tags.map((t: Row) => t.id)).not.toContain(summer.id);
  });

  it("Spec, Product write rules 8: the deleted tag's id is then an unknown tag id (400)", async () => {
    const sim = makeSim();
    const summer = await byName(sim, "tags", "Summer");
    const mug = await bySku(sim, "MUG-ENAMEL");
    expect((await call(sim, "DELETE", `${P}/tags/${summer.id}`)).status).toBe(204);
    const reply = await call(sim, "PATCH", `${P}/products/${mug.id}`, { body: { tags: [{ id: summer.id }] } });
    expect(reply.status).toBe(400);
    expect(errorOf(reply).code).toBe("VALIDATION_FAILED");
    expect((await call(sim, "GET", `${P}/products/${mug.id}`)).json.data).toStrictEqual(mug);
  });
});

describe("Spec, Delete rules (supplier): removed from every product carrying it, each with a new version", () => {
  it("deleting Acme Wholesale removes it from TOTE-CANVAS (keeping Pacific Textiles) and BOTTLE-STEEL; others keep their version", async () => {
    const sim = makeSim();
    const acme = await byName(sim, "suppliers", "Acme Wholesale");
    const before = await productMap(sim);
    sim.clock.advance(60);
    expect((await call(sim, "DELETE", `${P}/suppliers/${acme.id}`)).status).toBe(204);

    const after = await productMap(sim);
    expectChangedExactly(before, after, carriers(before, hasSupplier(acme.id), ["TOTE-CANVAS", "BOTTLE-STEEL"]));
    const toteBefore = [...before.values()].find((p) => p.sku === "TOTE-CANVAS")!;
    const bottleBefore = [...before.values()].find((p) => p.sku === "BOTTLE-STEEL")!;
    expect(after.get(toteBefore.id)).toStrictEqual({
      ...toteBefore,
      suppliers: toteBefore.suppliers.filter((s: { supplier_id: string }) => s.supplier_id !== acme.id),
      updated_at: "2026-01-01T00:01:00.000Z",
      version,
    });
    expect(after.get(toteBefore.id)!.suppliers).toHaveLength(1);
    expect(after.get(bottleBefore.id)).toStrictEqual({
      ...bottleBefore,
      suppliers: [],
      updated_at: "2026-01-01T00:01:00.000Z",
      version,
    });
  });

  it("deleting Pacific Textiles (primary on TOTE-CANVAS and TEE-CLASSIC) removes it from both", async () => {
    const sim = makeSim();
    const pacific = await byName(sim, "suppliers", "Pacific Textiles");
    const acme = await byName(sim, "suppliers", "Acme Wholesale");
    const before = await productMap(sim);
    expect((await call(sim, "DELETE", `${P}/suppliers/${pacific.id}`)).status).toBe(204);
    const after = await productMap(sim);
    expectChangedExactly(before, after, carriers(before, hasSupplier(pacific.id), ["TOTE-CANVAS", "TEE-CLASSIC"]));
    const tote = [...after.values()].find((p) => p.sku === "TOTE-CANVAS")!;
    expect(tote.suppliers.map((s: { supplier_id: string }) => s.supplier_id)).toEqual([acme.id]);
    expect([...after.values()].find((p) => p.sku === "TEE-CLASSIC")!.suppliers).toStrictEqual([]);
  });
});

describe("Spec, Product (version): it also changes when an attached tag or supplier is renamed", () => {
  it("renaming tag Summer changes the version of TOTE-CANVAS and TEE-CLASSIC, which show the new name; others keep theirs", async () => {
    const sim = makeSim();
    const summer = await byName(sim, "tags", "Summer");
    const bestseller = await byName(sim, "tags", "Bestseller");
    const before = await productMap(sim);
    sim.clock.advance(60);
    const renamed = await call(sim, "PATCH", `${P}/tags/${summer.id}`, { body: { name: "Summer Days" } });
    expect(renamed.status).toBe(200);
    expect(renamed.json.data).toStrictEqual({ id: summer.id, name: "Summer Days", version });

    const after = await productMap(sim);
    expectChangedExactly(before, after, carriers(before, hasTag(summer.id), ["TOTE-CANVAS", "TEE-CLASSIC"]));
    const tote = [...after.values()].find((p) => p.sku === "TOTE-CANVAS")!;
    const tee = [...after.values()].find((p) => p.sku === "TEE-CLASSIC")!;
    expect(tote).toStrictEqual({
      ...before.get(tote.id),
      tags: [
        { id: summer.id, name: "Summer Days" },
        { id: bestseller.id, name: "Bestseller" },
      ],
      updated_at: "2026-01-01T00:01:00.000Z",
      version,
    });
    expect(tee).toStrictEqual({
      ...before.get(tee.id),
      tags: [{ id: summer.id, name: "Summer Days" }],
      updated_at: "2026-01-01T00:01:00.000Z",
      version,
    });
    expect((await call(sim, "GET", `${P}/products/${tee.id}`)).json.data).toStrictEqual(tee);
  });

  it("renaming supplier Pacific Textiles changes the version of TOTE-CANVAS and TEE-CLASSIC, which show the new supplier_name", async () => {
    const sim = makeSim();
    const pacific = await byName(sim, "suppliers", "Pacific Textiles");
    const before = await productMap(sim);
    sim.clock.advance(60);
    expect((await call(sim, "PATCH", `${P}/suppliers/${pacific.id}`, { body: { name: "Pacific Mills" } })).status).toBe(
      200,
    );

    const after = await productMap(sim);
    expectChangedExactly(before, after, carriers(before, hasSupplier(pacific.id), ["TOTE-CANVAS", "TEE-CLASSIC"]));
    for (const sku of ["TOTE-CANVAS", "TEE-CLASSIC"]) {
      const was = [...before.values()].find((p) => p.sku === sku)!;
      expect(after.get(was.id)).toStrictEqual({
        ...was,
        suppliers: was.suppliers.map((s: { supplier_id: string; supplier_name: string }) =>
          s.supplier_id === pacific.id ? { ...s, supplier_name: "Pacific Mills" } : s,
        ),
        updated_at: "2026-01-01T00:01:00.000Z",
        version,
      });
    }
  });

  it("renaming supplier Harbour Distribution changes only the products carrying it (MUG-ENAMEL)", async () => {
    const sim = makeSim();
    const harbour = await byName(sim, "suppliers", "Harbour Distribution");
    const before = await productMap(sim);
    expect((await call(sim, "PATCH", `${P}/suppliers/${harbour.id}`, { body: { name: "Harbour Dist." } })).status).toBe(
      200,
    );
    expectChangedExactly(before, await productMap(sim), carriers(before, hasSupplier(harbour.id), ["MUG-ENAMEL"]));
  });

  it("renaming a tag on no product changes no product; renaming Sale changes only its carriers (BUNDLE-PICNIC)", async () => {
    const sim = makeSim();
    const fresh = (await call(sim, "POST", `${P}/tags`, { body: { name: "Unused" } })).json.data as Row;
    const before = await productMap(sim);
    expect((await call(sim, "PATCH", `${P}/tags/${fresh.id}`, { body: { name: "Still unused" } })).status).toBe(200);
    expectChangedExactly(before, await productMap(sim), []);
    const sale = await byName(sim, "tags", "Sale");
    expect((await call(sim, "PATCH", `${P}/tags/${sale.id}`, { body: { name: "On Sale" } })).status).toBe(200);
    expectChangedExactly(before, await productMap(sim), carriers(before, hasTag(sale.id), ["BUNDLE-PICNIC"]));
  });

  it("choice (a write that changes nothing keeps version): re-sending a tag's own name changes neither the tag nor its products", async () => {
    const sim = makeSim();
    const summer = await byName(sim, "tags", "Summer");
    const before = await productMap(sim);
    const reply = await call(sim, "PATCH", `${P}/tags/${summer.id}`, { body: { name: "Summer" } });
    expect(reply.status).toBe(200);
    expect(reply.json.data).toStrictEqual(summer);
    expectChangedExactly(before, await productMap(sim), []);
  });

  it("choice: a brand rename keeps every product's version", async () => {
    const sim = makeSim();
    const northwind = await byName(sim, "brands", "Northwind");
    const before = await productMap(sim);
    const reply = await call(sim, "PATCH", `${P}/brands/${northwind.id}`, { body: { name: "Northwind Outdoor" } });
    expect(reply.status).toBe(200);
    bigger(reply.json.data.version, northwind.version);
    expectChangedExactly(before, await productMap(sim), []);
  });

  it("choice: a category rename keeps every product's version", async () => {
    const sim = makeSim();
    const shirts = await byName(sim, "categories", "Shirts");
    const before = await productMap(sim);
    expect((await call(sim, "PATCH", `${P}/categories/${shirts.id}`, { body: { name: "Tops" } })).status).toBe(200);
    expectChangedExactly(before, await productMap(sim), []);
  });
});

// ---------------------------------------------------------------------------------------------
// Polling.

describe("Spec, Pagination and polling: after a delete or rename, a poll of /products from an earlier cursor returns exactly the affected products, each once", () => {
  interface PollCase {
    readonly label: string;
    readonly kind: string;
    readonly name: string;
    /** A PATCH body, or undefined for a DELETE. */
    readonly rename?: Record<string, unknown>;
    /** Which products (read before the change) are affected. */
    readonly affects: (row: Row) => (p: Product) => boolean;
    /** Demo products that must be among them. */
    readonly known: string[];
  }
  const TEE = ["TEE-CLASSIC", "TEE-CLASSIC-S-NAVY", "TEE-CLASSIC-M-NAVY", "TEE-CLASSIC-L-NAVY", "TEE-CLASSIC-M-WHITE"];
  const brand = (row: Row) => (p: Product) => p.brand_id === row.id;
  const category = (row: Row) => (p: Product) => p.category_id === row.id;
  const tag = (row: Row) => hasTag(row.id);
  const supplier = (row: Row) => hasSupplier(row.id);
  const none = () => () => false;
  const cases: PollCase[] = [
    {
      label: "deleting brand Northwind",
      kind: "brands",
      name: "Northwind",
      affects: brand,
      known: ["TOTE-CANVAS", "CAP-BASEBALL"],
    },
    {
      label: "deleting brand Harbour & Co",
      kind: "brands",
      name: "Harbour & Co",
      affects: brand,
      known: [...TEE, "SOCKS-WOOL"],
    },
    { label: "deleting tag Summer", kind: "tags", name: "Summer", affects: tag, known: ["TOTE-CANVAS", "TEE-CLASSIC"] },
    { label: "deleting tag New", kind: "tags", name: "New", affects: tag, known: ["BOTTLE-STEEL", "SOCKS-WOOL"] },
    {
      label: "deleting supplier Acme Wholesale",
      kind: "suppliers",
      name: "Acme Wholesale",
      affects: supplier,
      known: ["TOTE-CANVAS", "BOTTLE-STEEL"],
    },
    { label: "deleting category Shirts", kind: "categories", name: "Shirts", affects: category, known: TEE },
    {
      label: "deleting category Accessories",
      kind: "categories",
      name: "Accessories",
      affects: category,
      known: ["TOTE-CANVAS", "BOTTLE-STEEL", "BUNDLE-PICNIC", "MUG-ENAMEL"],
    },
    {
      label: "renaming tag Summer",
      kind: "tags",
      name: "Summer",
      rename: { name: "Sunny" },
      affects: tag,
      known: ["TOTE-CANVAS", "TEE-CLASSIC"],
    },
    {
      label: "renaming supplier Pacific Textiles",
      kind: "suppliers",
      name: "Pacific Textiles",
      rename: { name: "Pacific" },
      affects: supplier,
      known: ["TOTE-CANVAS", "TEE-CLASSIC"],
    },
    {
      label: "renaming brand Northwind (choice: no product changes)",
      kind: "brands",
      name: "Northwind",
      rename: { name: "Nw" },
      affects: none,
      known: [],
    },
    {
      label: "renaming category Apparel (choice: no product changes)",
      kind: "categories",
      name: "Apparel",
      rename: { name: "Clothes" },
      affects: none,
      known: [],
    },
  ];

  for (const c of cases) {
    it(`${c.label}: the poll returns exactly the affected products${c.known.length ? ` (${c.known.join(", ")})` : " (none)"}, each once`, async () => {
      const sim = makeSim();
      const row = await byName(sim, c.kind, c.name);
      const before = await productMap(sim);
      const expected = carriers(before, c.affects(row), c.known);
      const cursor = await productsCursor(sim);
      const reply = c.rename
        ? await call(sim, "PATCH", `${P}/${c.kind}/${row.id}`, { body: c.rename })
        : await call(sim, "DELETE", `${P}/${c.kind}/${row.id}`);
      expect(reply.status).toBe(c.rename ? 200 : 204);
      const polled = await pollProducts(sim, cursor);
      expect(polled.map((p) => p.sku).sort()).toEqual(expected);
      expect(new Set(polled.map((p) => p.id)).size).toBe(polled.length);
      for (const p of polled) {
        bigger(p.version, before.get(p.id)!.version);
        expect((await call(sim, "GET", `${P}/products/${p.id}`)).json.data).toStrictEqual(p);
      }
    });
  }

  it("a poll with limit=1 after deleting brand Northwind pages through the 2 affected products, each once", async () => {
    const sim = makeSim();
    const cursor = await productsCursor(sim);
    expect((await call(sim, "DELETE", `${P}/brands/${(await byName(sim, "brands", "Northwind")).id}`)).status).toBe(
      204,
    );
    const first = await call(sim, "GET", `${P}/products?limit=1&cursor=${cursor}`);
    expect(first.status).toBe(200);
    expect(first.json.data).toHaveLength(1);
    expect(first.json.has_more).toBe(true);
    const second = await call(sim, "GET", `${P}/products?limit=1&cursor=${first.json.next_cursor}`);
    expect(second.json.data).toHaveLength(1);
    expect(second.json.has_more).toBe(false);
    expect([first.json.data[0].sku, second.json.data[0].sku].sort()).toEqual(["CAP-BASEBALL", "TOTE-CANVAS"]);
    const third = await call(sim, "GET", `${P}/products?limit=1&cursor=${second.json.next_cursor}`);
    expect(third.json).toStrictEqual({ data: [], next_cursor: null, has_more: false });
  });
});
