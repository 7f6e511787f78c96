// Tests of the paginated reference-data lists (/outlets, /payment-types, /taxes) against the spec:
// "Endpoints" (common list parameters), "Resources" (Outlet, PaymentType, version; the tax record is a recorded
// choice: {id, name, rate, version}), rule 7 of "What the service does", "Errors", and "Pagination and polling
// rules" 1 (each list and store has its own cursors). Paging and polling: lists-polling.test.ts.
// Rows are changed through the store state, since these lists have no public write endpoint.
import { describe, expect, it } from "vitest";
import { call, makeSim } from "../../test-support/sim.js";
import { errorOf, expectError } from "../../test-support/errors.js";
import { UUID, DECIMAL, CASES, get, page, addRows, change, big } from "../../test-support/lists.js";

for (const c of CASES) {
  const list = c.path.replace("/demo/v1", "");

  describe(`GET ${list}`, () => {
    describe("Spec, Resources and rule 7 of What the service does: list shape and every field", () => {
      it(`returns {data, next_cursor, has_more} with every fixture row in full, exactly`, async () => {
        const sim = makeSim();
        const reply = await get(sim, c.path);
        expect(reply.status).toBe(200);
        expect(reply.headers.get("content-type")).toMatch(/^application\/json/);
        expect(Object.keys(reply.json).sort()).toEqual(["data", "has_more", "next_cursor"]);
        expect(reply.json).toStrictEqual({
          data: await c.fixture(sim),
          next_cursor: expect.any(String),
          has_more: false,
        });
      });

      it("gives every row a distinct UUID id and a decimal-string version", async () => {
        const sim = makeSim();
        const { data } = await page(sim, c.path);
        for (const row of data) {
          expect(row.id).toMatch(UUID);
          expect(typeof row.version).toBe("string");
          expect(row.version).toMatch(DECIMAL);
        }
        expect(new Set(data.map((r) => r.id)).size).toBe(data.length);
      });
    });

    describe("Spec, Endpoints and Limits: limit is an integer 1 to 200, default 50", () => {
      it("defaults to 50 rows a page", async () => {
        const sim = makeSim();
        addRows(sim, c, 60);
        const body = await page(sim, c.path);
        expect(body.data).toHaveLength(50);
        expect(body.has_more).toBe(true);
        expect(body.next_cursor).toEqual(expect.any(String));
        expect(await page(sim, c.path, "limit=50")).toStrictEqual(body);
      });

      it("accepts limit=1 and limit=200", async () => {
        const sim = makeSim();
        addRows(sim, c, 205);
        const one = await page(sim, c.path, "limit=1");
        expect(one.data).toHaveLength(1);
        expect(one.has_more).toBe(true);
        const max = await page(sim, c.path, "limit=200");
        expect(max.data).toHaveLength(200);
        expect(max.has_more).toBe(true);
        expect(max.data[0]).toStrictEqual(one.data[0]);
      });

      for (const value of ["0", "201", "-1", "1.5", "abc", "", "1e2", "+5", " 5"]) {
        it(`refuses limit=${JSON.stringify(value)} with 400 VALIDATION_FAILED on field limit`, async () => {
          const sim = makeSim();
          expectError(await get(sim, c.path, `limit=${encodeURIComponent(value)}`), 400, "VALIDATION_FAILED", "limit");
        });
      }
    });

    describe("Choices: list parameters are validated strictly (Spec, Errors: query parameter invalid)", () => {
      it("refuses an unknown query parameter with 400 VALIDATION_FAILED naming it", async () => {
        const sim = makeSim();
        expectError(await get(sim, c.path, "colour=red"), 400, "VALIDATION_FAILED", "colour");
      });

      it("refuses a parameter given twice with 400 VALIDATION_FAILED", async () => {
        const sim = makeSim();
        expectError(await get(sim, c.path, "limit=1&limit=2"), 400, "VALIDATION_FAILED", "limit");
        expectError(await get(sim, c.path, "order=asc&order=asc"), 400, "VALIDATION_FAILED", "order");
      });

      for (const value of ["sideways", "DESC", ""]) {
        it(`refuses order=${JSON.stringify(value)} with 400 VALIDATION_FAILED on field order`, async () => {
          const sim = makeSim();
          expectError(await get(sim, c.path, `order=${encodeURIComponent(value)}`), 400, "VALIDATION_FAILED", "order");
        });
      }

      for (const value of ["yes", "1", "TRUE", ""]) {
        it(`refuses include_deleted=${JSON.stringify(value)} with 400 VALIDATION_FAILED on field include_deleted`, async () => {
          const sim = makeSim();
          expectError(
            await get(sim, c.path, `include_deleted=${encodeURIComponent(value)}`),
            400,
            "VALIDATION_FAILED",
            "include_deleted",
          );
        });
      }

      it("treats order=asc as the default order", async () => {
        const sim = makeSim();
        addRows(sim, c, 3);
        expect(await page(sim, c.path, "order=asc")).toStrictEqual(await page(sim, c.path));
      });
    });

    describe("Spec, Resources: version is a string that increases with every change to the row", () => {
      it("versions are decimal strings that rise with every change and deletion", async () => {
        const sim = makeSim();
        const before = await page(sim, c.path);
        const target = before.data[0]!;
        const seen: bigint[] = [big(target.version)];
        for (let n = 1; n <= 3; n++) {
          change(sim, c, target.id, n);
          const row = (await page(sim, c.path)).data.find((r) => r.id === target.id)!;
          expect(row.version).toMatch(DECIMAL);
          seen.push(big(row.version));
        }
        c.feed(sim).markDeleted(target.id, sim.world.env.clock.now());
        const deleted = (await page(sim, c.path, "include_deleted=true")).data.find((r) => r.id === target.id)!;
        expect(deleted.version).toMatch(DECIMAL);
        seen.push(big(deleted.version));
        for (let i = 1; i < seen.length; i++) expect(seen[i]! > seen[i - 1]!, `change ${i}`).toBe(true);
      });

      it("versions stay plain decimal integers (no sign, no leading zeros) and keep rising as they gain digits", async () => {
        const sim = makeSim();
        // Enough changes that versions cross a power of ten whatever the fixture's starting point.
        const [id] = addRows(sim, c, 1);
        const versions: string[] = [];
        for (let n = 1; n <= 120; n++) {
          change(sim, c, id!, n);
          if (n % 10 === 0) versions.push((await page(sim, c.path, "order=desc&limit=1")).data[0]!.version);
        }
        for (const v of versions) expect(v).toMatch(/^(0|[1-9][0-9]*)$/);
        for (let i = 1; i < versions.length; i++) expect(big(versions[i]!) > big(versions[i - 1]!)).toBe(true);
      });

      it("a row left alone keeps its version", async () => {
        const sim = makeSim();
        const before = await page(sim, c.path);
        change(sim, c, before.data[0]!.id, 1);
        const after = await page(sim, c.path);
        for (const row of before.data.slice(1))
          expect(after.data.find((r) => r.id === row.id)!.version).toBe(row.version);
      });
    });
  });
}

describe("Spec, Pagination and polling rules 1: each list has its own cursors", () => {
  it("a cursor of one list is unreadable on each other list (400, field cursor)", async () => {
    const sim = makeSim();
    const cursors = new Map<string, string>();
    for (const c of CASES) cursors.set(c.path, (await page(sim, c.path, "limit=1")).next_cursor!);
    for (const target of CASES) {
      for (const [source, cursor] of cursors) {
        if (source === target.path) continue;
        const reply = await get(sim, target.path, `cursor=${encodeURIComponent(cursor)}`);
        expect(reply.status, `${source} cursor on ${target.path}`).toBe(400);
        expect(errorOf(reply)).toStrictEqual({
          code: "VALIDATION_FAILED",
          message: expect.any(String),
          fields: [{ field: "cursor", message: expect.any(String) }],
        });
      }
    }
  });
});

describe("Spec, Pagination and polling rules 1: a cursor belongs to the list and store that issued it", () => {
  it("a cursor of store other's outlets is unreadable on demo's outlets (400, field cursor)", async () => {
    const sim = makeSim();
    const other = await call(sim, "GET", "/other/v1/outlets?limit=1");
    expect(other.status).toBe(200);
    expect(typeof other.json.next_cursor).toBe("string");
    const reply = await call(sim, "GET", `/demo/v1/outlets?cursor=${other.json.next_cursor}`);
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe("VALIDATION_FAILED");
    expect(reply.json.error.fields.map((f: { field: string }) => f.field)).toEqual(["cursor"]);
  });
});
