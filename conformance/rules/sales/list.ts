import fc from "fast-check";
import type { RuleContext } from "../../context.js";
import { Mismatch, Skip } from "../../outcomes.js";
import { UUID, isUtc, makeSale, poll, readSale, refundSale, rowKey, salesSetup, voidSale } from "../support/sales.js";
import { rule, SPEC } from "../rule.js";
import { errorFields, isObject, type Json, rowsOf, type Sale } from "../../shapes.js";

// Sales and refunds: read-only on any target; sales, refunds and voids are made only through a
// control plane, for a customer of the run, whose customer_id filter keeps the feed small.

const STATUSES = ["completed", "partially_refunded", "refunded", "voided"] as const;

/** Spec, Resources: Sale. The named fields, with integer-cent totals (What the service does 2). */
function saleShape(ctx: RuleContext, value: unknown): void {
  const s: Json = isObject(value) ? value : {};
  const problems: string[] = [];
  const need = (ok: boolean, field: string) => ok || problems.push(`${field}=${JSON.stringify(s?.[field])}`);
  const uuidOrNull = (v: unknown) => v === null || UUID.test(String(v));
  need(UUID.test(String(s?.id)), "id");
  need((STATUSES as readonly unknown[]).includes(s?.status), "status");
  need(isUtc(s?.completed_at), "completed_at");
  need(UUID.test(String(s?.outlet_id)), "outlet_id");
  need(uuidOrNull(s?.customer_id), "customer_id");
  need(uuidOrNull(s?.parent_sale_id), "parent_sale_id");
  need(typeof s?.version === "string", "version");
  for (const f of ["total", "tax_total", "paid_total"]) need(Number.isInteger(s?.[f]), f);
  ctx.check(
    problems.length === 0,
    "a sale document: id, status (never open), completed_at, outlet_id, customer_id, parent_sale_id, version, integer cents total, tax_total, paid_total",
    `sale ${s?.id}: ${problems.join(", ")}`,
  );
}

/** JSON with keys sorted, so two documents compare whatever their key order. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, value) =>
    value && typeof value === "object" && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)))
      : value,
  );

const q = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join("&");

/**
 * Ids (among `ids`) that GET /sales with these filters returns, every row checked to lie within the
 * range: every page when `walk` (a narrow range), else the first page only (an open-ended range).
 */
async function inRange(
  ctx: RuleContext,
  filters: Record<string, string>,
  ids: readonly string[],
  walk = true,
): Promise<string[]> {
  let rows: readonly Sale[];
  if (walk) rows = (await poll<Sale>(ctx, "/sales", q(filters), null, 5)).rows;
  else {
    const page = await ctx.call("GET", `/sales?${q({ ...filters, limit: "50" })}`);
    ctx.status(page, 200);
    rows = rowsOf<Sale>(page) ?? [];
  }
  const from = filters.completed_from ? Date.parse(filters.completed_from) : -Infinity;
  const to = filters.completed_to ? Date.parse(filters.completed_to) : Infinity;
  for (const r of rows) {
    const at = Date.parse(String(r?.completed_at));
    ctx.check(
      at >= from && at <= to,
      `every sale within ${filters.completed_from ?? "…"} to ${filters.completed_to ?? "…"}`,
      `${r?.id} completed at ${r?.completed_at}`,
    );
  }
  return ids.filter((id) => rows.some((r) => r?.id === id));
}

export const listRules = [
  rule({
    id: "sales.document",
    area: "Sales",
    title:
      "Every listed sale has the named fields with integer-cent totals, and GET /sales/{id} returns the same document",
    spec: { section: SPEC.what, quote: "The sale list and a single sale read return the same full sale document." },
    cost: 6,
    leniency:
      "Only the fields the spec names are checked; a sale whose version changed between the two reads is not compared.",
    choices: ["Row `version`"],
    async run(ctx) {
      const page = await ctx.call("GET", "/sales?limit=50");
      ctx.status(page, 200);
      const sales = rowsOf<Sale>(page) ?? [];
      if (sales.length === 0) throw new Skip("the store has no sales to read");
      for (const s of sales) saleShape(ctx, s);
      // The store's change sequence number: a decimal string, so no two sales of one page share one.
      const versions = sales.map((s) => s.version);
      ctx.choice(
        "Row `version`",
        versions.every((v) => /^[0-9]+$/.test(String(v))) && new Set(versions).size === versions.length,
        "every sale's version a decimal string, none shared",
        JSON.stringify(versions),
      );
      const sample = [...new Set([...sales.slice(0, 3), ...sales.slice(-2)])];
      for (const listed of sample) {
        const single = await readSale(ctx, listed.id);
        saleShape(ctx, single);
        if (single.version !== listed.version) continue;
        ctx.check(
          canonical(single) === canonical(listed),
          `GET /sales/${listed.id} equal to the listed document ${canonical(listed).slice(0, 400)}`,
          canonical(single).slice(0, 400),
        );
      }
    },
  }),
  rule({
    id: "sales.status-filter",
    area: "Sales",
    title: "status=completed, partially_refunded, refunded or voided returns only sales of that status",
    spec: { section: SPEC.sales, quote: "status accepts completed, partially_refunded, refunded, voided." },
    cost: 4,
    async run(ctx) {
      for (const status of STATUSES) {
        const reply = await ctx.call("GET", `/sales?status=${status}&limit=50`);
        ctx.status(reply, 200);
        const other = (rowsOf<Sale>(reply) ?? []).filter((s) => s.status !== status);
        ctx.check(
          other.length === 0,
          `only ${status} sales`,
          other.map((s: { id: string; status: string }) => `${s.id}: ${s.status}`).join(", "),
        );
      }
    },
  }),
  rule({
    id: "sales.status-open-refused",
    area: "Sales",
    title: "status=open answers 400 VALIDATION_FAILED",
    spec: { section: SPEC.sales, quote: "status=open answers 400 VALIDATION_FAILED." },
    cost: 1,
    async run(ctx) {
      ctx.error(await ctx.call("GET", "/sales?status=open"), 400, "VALIDATION_FAILED");
    },
  }),
  rule({
    id: "sales.include-deleted-refused",
    area: "Sales",
    title: "include_deleted on the sales list answers 400 VALIDATION_FAILED",
    spec: { section: SPEC.sales, quote: "include_deleted on sales answers 400 VALIDATION_FAILED." },
    cost: 1,
    leniency: "Checked with include_deleted=true only.",
    choices: ["`include_deleted` on sales"],
    async run(ctx) {
      const reply = await ctx.call("GET", "/sales?include_deleted=true");
      ctx.error(reply, 400, "VALIDATION_FAILED");
      const fields = errorFields(reply);
      ctx.choice(
        "`include_deleted` on sales",
        JSON.stringify(fields) === '["include_deleted"]',
        "400 naming include_deleted",
        JSON.stringify(fields),
      );
    },
  }),
  rule({
    id: "sales.completed-offset-refused",
    area: "Sales",
    title:
      "completed_from and completed_to with a UTC offset answer 400 VALIDATION_FAILED; the same time ending in Z is accepted",
    spec: { section: SPEC.sales, quote: "they must be UTC ending in Z (an offset is refused)" },
    cost: 10,
    async run(ctx) {
      const cases = fc.record({
        ms: fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
        sign: fc.constantFrom("+", "-"),
        hours: fc.integer({ min: 0, max: 14 }),
        minutes: fc.constantFrom(0, 30, 45),
        param: fc.constantFrom("completed_from", "completed_to"),
      });
      await ctx.property(
        cases,
        async ({ ms, sign, hours, minutes, param }) => {
          const utc = new Date(ms).toISOString();
          const offset = `${utc.slice(0, -1)}${sign}${String(hours).padStart(2, "0")}:${String(minutes).padStart(2, "0")}`;
          ctx.status(await ctx.call("GET", `/sales?${q({ [param]: utc, limit: "1" })}`), 200);
          ctx.error(await ctx.call("GET", `/sales?${q({ [param]: offset, limit: "1" })}`), 400, "VALIDATION_FAILED");
        },
        Math.min(ctx.run.runs, 5),
      );
    },
  }),
  rule({
    id: "sales.completed-range-filter",
    area: "Sales",
    title:
      "completed_from and completed_to select sales by completed_at, both ends inclusive (on the target's own sales)",
    spec: {
      section: SPEC.sales,
      quote:
        "completed_from and completed_to filter completed_at; they must be UTC ending in Z (an offset is refused); both ends are inclusive.",
    },
    cost: 4,
    async run(ctx) {
      const page = await ctx.call("GET", "/sales?limit=50");
      ctx.status(page, 200);
      const sale = (rowsOf<Sale>(page) ?? []).find((s) => isUtc(s?.completed_at));
      if (!sale) throw new Skip("the store has no sales to filter");
      const at = sale.completed_at as string;
      const found = await inRange(ctx, { completed_from: at, completed_to: at }, [sale.id]);
      ctx.check(
        found.length === 1,
        `sale ${sale.id} in completed_from=completed_to=${at} (both ends inclusive)`,
        "not listed",
      );
      await inRange(ctx, { completed_from: at }, [], false);
      await inRange(ctx, { completed_to: at }, [], false);
    },
  }),
  rule({
    id: "sales.completed-range-inclusive",
    area: "Sales",
    title: "Two sales a minute apart: each range end includes the sale at it and excludes the other",
    spec: {
      section: SPEC.sales,
      quote:
        "completed_from and completed_to filter completed_at; they must be UTC ending in Z (an offset is refused); both ends are inclusive.",
    },
    needs: { control: true, clock: true },
    cost: 14,
    async run(ctx) {
      const s = await salesSetup(ctx);
      const a = await makeSale(ctx, s, 1);
      const moved = await ctx.control("POST", "/clock", { advance_seconds: 61 });
      if (moved.status !== 200) throw new Skip(`the control plane did not move the clock (status ${moved.status})`);
      const b = await makeSale(ctx, s, 1);
      const [ta, tb] = [
        (await readSale(ctx, a.id)).completed_at as string,
        (await readSale(ctx, b.id)).completed_at as string,
      ];
      ctx.check(
        Date.parse(tb) - Date.parse(ta) >= 60_000,
        "the second sale completed at least 60 s after the first",
        `${ta} and ${tb}`,
      );
      const justAfter = new Date(Date.parse(ta) + 1).toISOString();
      const justBefore = new Date(Date.parse(tb) - 1).toISOString();
      const expectations: [Record<string, string>, string[]][] = [
        [{ completed_from: ta, completed_to: ta }, [a.id]],
        [{ completed_from: tb, completed_to: tb }, [b.id]],
        [{ completed_from: ta, completed_to: tb }, [a.id, b.id]],
        [{ completed_from: justAfter, completed_to: justBefore }, []],
        [{ completed_from: tb }, [b.id]],
        [{ completed_to: ta }, [a.id]],
      ];
      for (const [filters, expected] of expectations) {
        const found = await inRange(ctx, { ...filters, customer_id: s.customer }, [a.id, b.id]);
        ctx.check(
          found.join() === expected.join(),
          `${q(filters)} to return ${expected.length ? expected.join(" and ") : "neither sale"}`,
          found.length ? found.join(" and ") : "neither",
        );
      }
    },
  }),
  rule({
    id: "sales.refund-new-version",
    area: "Sales",
    title:
      "A refund is a sale with parent_sale_id; the original gets a new version and status and moves to the end of the feed",
    spec: { section: SPEC.states, quote: "a sale that is refunded later receives a new version and its new status." },
    needs: { control: true },
    cost: 30,
    leniency: "The original's new status may be partially_refunded or refunded (transitions are not shown).",
    async run(ctx) {
      const s = await salesSetup(ctx);
      const feed = `customer_id=${s.customer}`;
      const cases = fc
        .integer({ min: 1, max: 4 })
        .chain((sold) => fc.record({ sold: fc.constant(sold), refunded: fc.integer({ min: 1, max: sold }) }));
      await ctx.property(
        cases,
        async ({ sold, refunded }) => {
          const tail = await poll<Sale>(ctx, "/sales", feed, null);
          const sale = await makeSale(ctx, s, sold);
          const seen = await poll<Sale>(ctx, "/sales", feed, tail.cursor);
          const before = ctx.defined(
            seen.rows.filter((r) => r?.id === sale.id).pop(),
            `the new sale ${sale.id} in the feed after the held cursor`,
            seen.rows.map((r) => r?.id).join(", "),
          );
          const refund = await refundSale(ctx, s, sale.id, refunded);
          const child = await readSale(ctx, refund.id);
          ctx.check(
            child.parent_sale_id === sale.id,
            `the refund's parent_sale_id ${sale.id}`,
            JSON.stringify(child.parent_sale_id),
          );
          const original = await readSale(ctx, sale.id);
          ctx.check(
            original.version !== before.version,
            `a new version for the refunded original (was ${before.version})`,
            JSON.stringify(original.version),
          );
          ctx.check(
            original.status === "partially_refunded" || original.status === "refunded",
            "the original's new status partially_refunded or refunded",
            JSON.stringify(original.status),
          );
          const moved = await poll<Sale>(ctx, "/sales", feed, seen.cursor);
          const again = moved.rows.filter((r) => r?.id === sale.id).pop();
          ctx.check(
            again?.version === original.version,
            `the original again at the end of the feed, with version ${original.version}`,
            again ? JSON.stringify(again.version) : `absent from ${moved.rows.map((r) => r?.id).join(", ")}`,
          );
          if (child.customer_id === s.customer) {
            ctx.check(
              moved.rows.some((r) => r?.id === refund.id),
              "the refund listed with the originals (no parent_sale_id filter)",
              moved.rows.map((r) => r?.id).join(", "),
            );
          }
          const children = await ctx.call("GET", `/sales?parent_sale_id=${sale.id}`);
          ctx.status(children, 200);
          const ids = (rowsOf<Sale>(children) ?? []).map((r) =>
            r.parent_sale_id === sale.id ? r.id : `not a refund of it: ${r.id}`,
          );
          ctx.check(
            ids.length === 1 && ids[0] === refund.id,
            `parent_sale_id=${sale.id} listing just the refund ${refund.id}`,
            ids.join(", "),
          );
        },
        Math.min(ctx.run.runs, 3),
      );
    },
  }),
  rule({
    id: "sales.polling-each-change-once",
    area: "Sales",
    title:
      "A client polling with its cursor sees every change of a sale exactly once, ending with every sale's latest version",
    spec: { section: SPEC.what, quote: "Every list endpoint pages with a cursor and supports polling for changes" },
    needs: { control: true },
    cost: 40,
    leniency:
      "When a last non-empty page returns next_cursor null, the client keeps its cursor and may read that page's rows again.",
    async run(ctx) {
      const s = await salesSetup(ctx);
      const feed = `customer_id=${s.customer}`;
      const ops = fc.array(fc.constantFrom("sale", "sale", "refund", "void", "poll"), { minLength: 3, maxLength: 7 });
      await ctx.property(
        ops,
        async (steps) => {
          let { cursor } = await poll<Sale>(ctx, "/sales", feed, null);
          let reread = new Set<string>();
          const delivered = new Set<string>();
          const client = new Map<string, string>();
          const touched = new Set<string>();
          const made: { id: string; sold: number; refunded: number; voided: boolean }[] = [];
          const pollOnce = async () => {
            const p = await poll<Sale>(ctx, "/sales", feed, cursor);
            const ids = p.rows.map((r) => r?.id);
            ctx.check(new Set(ids).size === ids.length, "each sale at most once in one poll", ids.join(", "));
            for (const row of p.rows) {
              const key = rowKey(row);
              if (delivered.has(key) && !reread.has(key))
                throw new Mismatch("each change delivered once", `${key} delivered again`);
              delivered.add(key);
              client.set(row.id, row.version);
            }
            cursor = p.cursor;
            reread = p.reread;
          };
          for (const step of [...steps, "poll"]) {
            if (step === "sale") {
              const sale = await makeSale(ctx, s, 2);
              made.push({ id: sale.id, sold: 2, refunded: 0, voided: false });
              touched.add(sale.id);
            } else if (step === "refund") {
              const target = made.filter((m) => !m.voided && m.refunded < m.sold).pop();
              if (!target) continue;
              const refund = await refundSale(ctx, s, target.id, 1);
              target.refunded += 1;
              touched.add(target.id).add(refund.id);
            } else if (step === "void") {
              const target = made.filter((m) => !m.voided && m.refunded === 0).pop();
              if (!target) continue;
              await voidSale(ctx, s, target.id);
              target.voided = true;
              touched.add(target.id);
            } else {
              await pollOnce();
            }
          }
          const truth = await poll<Sale>(ctx, "/sales", feed, null);
          for (const row of truth.rows) {
            if (!touched.has(row.id)) continue;
            ctx.check(
              client.get(row.id) === row.version,
              `the polling client holding sale ${row.id} at version ${row.version}`,
              JSON.stringify(client.get(row.id) ?? "never seen"),
            );
          }
        },
        Math.min(ctx.run.runs, 3),
      );
    },
  }),
];
