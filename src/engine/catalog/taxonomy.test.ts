// Tests of brands, categories, tags and suppliers as resources against the spec: "Resources" (Brand, Category,
// Tag and Supplier), "Soft deletion", "Errors" (CONFLICT for a duplicate brand or tag name), "Pagination and
// polling rules" 1 to 4, "Limits" (idempotency of creates), and the recorded catalog choices (paths, 201 on
// create, standalone fields, duplicate names compared without case). Categories: categories.test.ts; the
// effects of deletes and renames on products: taxonomy-effects.test.ts. A deleted row listed with
// include_deleted=true is checked by the conformance rules of the catalog, not here.
import { describe, expect, it } from "vitest";
import { call, makeSim, type Reply } from "../../test-support/sim.js";
import { errorOf, expectError } from "../../test-support/errors.js";
import { uuid, version, UNKNOWN_ID, P, type Row, bigger, rowsOf, byName, KINDS } from "../../test-support/taxonomy.js";

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
