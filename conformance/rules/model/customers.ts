import fc from "fast-check";
import { bodyDefect, idDefect, made, queryDefect, drawn, accessDefects } from "./defects.js";
import { type Command, command, is2xx, Session } from "./session.js";
import { controlDocOf, dataOf, idOf, type Json, rowsOf } from "../../shapes.js";

// Generated customer and sales requests: customers made, changed, read, listed and erased (and read
// again after); with a control plane, sales and refunds made in the back office and the sales list
// read through every filter, at the instants its rows were completed and around them.

const PERSONAL = {
  last_name: "Ünïcode-Ńame",
  company_name: "Ltd & Co",
  email: "person@example.com",
  phone: "+1 555 0100",
  date_of_birth: "2000-02-29",
  city: "Zürich",
  note: "",
  custom_field_1: "c1",
};

const customer = fc
  .record({
    op: fc.constantFrom("create", "create", "update", "get", "list", "delete", "walk-in", "group"),
    fields: fc.subarray(Object.keys(PERSONAL) as (keyof typeof PERSONAL)[], { maxLength: 4 }),
    code: fc.boolean(),
    nulls: fc.boolean(),
    extra: fc.constantFrom("none", "group", "limit", "flags"),
    pick: fc.nat(),
    version: fc.constantFrom("none", "current", "stale"),
    list: fc.record({
      deleted: fc.boolean(),
      order: fc.constantFrom(undefined, "desc"),
      limit: fc.constantFrom(undefined, 1, 3, 200),
    }),
    defects: accessDefects("customers:write", [
      drawn((s, n) => idDefect(s, n)),
      drawn((_s, n) => bodyDefect(n, ["first_name", "email", "date_of_birth", "on_account_limit"])),
    ]),
  })
  .map((c) =>
    command(
      `${c.op}Customer(${c.fields.join(",")}${c.nulls ? " as null" : ""}, ${c.extra}, ${c.defects.length} defects)`,
      async (s) => {
        const row = s.pick("customers", c.pick, Session.mine);
        const all = made(s, c.defects);
        const body: Record<string, unknown> = {};
        for (const f of c.fields) body[f] = c.nulls ? null : PERSONAL[f];
        if (c.code) body.customer_code = s.name("CODE");
        if (c.extra === "group") body.customer_group_id = s.pick("groups", c.pick)?.id ?? null;
        if (c.extra === "limit") body.on_account_limit = [0, 1, 500_000][c.pick % 3];
        if (c.extra === "flags")
          Object.assign(body, { enable_loyalty: true, dont_email: c.pick % 2 === 0, dont_sms: true });
        switch (c.op) {
          case "create": {
            const reply = await s.sendWith(
              s.request(
                "POST",
                "/customers",
                { first_name: s.name("first"), ...body },
                c.pick % 3 === 0 ? { "idempotency-key": s.name("key") } : {},
              ),
              all,
            );
            const id = idOf(reply);
            if (is2xx(reply) && id !== undefined) {
              s.learn("customers", dataOf(reply), true);
              s.ctx.track(`/customers/${id}`);
            }
            return;
          }
          case "update": {
            if (!row) return;
            if (c.version !== "none")
              body.version =
                (c.version === "current" ? row.versions.at(-1) : row.versions.at(-2)) ?? row.versions.at(-1);
            const reply = await s.sendWith(s.request("PATCH", `/customers/${row.id}`, body), all);
            if (is2xx(reply)) s.learn("customers", dataOf(reply));
            return;
          }
          case "get": {
            const any = s.pick("customers", c.pick, () => true);
            if (any) await s.sendWith(s.request("GET", `/customers/${any.id}`), all);
            return;
          }
          case "group": {
            const group = s.pick("groups", c.pick);
            if (group) await s.sendWith(s.request("GET", `/customer-groups/${group.id}`), all);
            return;
          }
          case "list": {
            const q = new URLSearchParams();
            if (c.list.limit) q.set("limit", String(c.list.limit));
            if (c.list.order) q.set("order", c.list.order);
            if (c.list.deleted && !c.list.order) q.set("include_deleted", "true");
            const reply = await s.sendWith(s.request("GET", `/customers${q.size ? `?${q}` : ""}`), all);
            for (const doc of rowsOf<Json>(reply) ?? []) if (doc?.deleted_at === undefined) s.learn("customers", doc);
            return;
          }
          case "delete":
          case "walk-in": {
            // The walk-in customer's erasure is refused (Delete rules); the others erased are the run's own.
            const target =
              c.op === "walk-in"
                ? s.pick("customers", 0, (r) => r.doc?.is_walk_in === true)
                : s.pick("customers", c.pick, Session.mine);
            if (!target) return;
            if (c.op === "walk-in" && !s.control) return;
            const reply = await s.sendWith(s.request("DELETE", `/customers/${target.id}`), all);
            if (reply.status === 204) {
              s.gone("customers", target.id);
              // Erased: it reads as gone, and its tombstone is all the list shows of it.
              await s.send(s.request("GET", `/customers/${target.id}`));
              await s.send(s.request("GET", "/customers?include_deleted=true&limit=200"));
            }
          }
        }
      },
    ),
  );

/** A UTC date-time a sales filter can be given: a sale's own instant, one millisecond either side, a day, or forms the spec refuses. */
function instant(s: Session, form: string, n: number): string {
  const sale = s.pick("sales", n, () => true)?.doc?.completed_at;
  const at = typeof sale === "string" ? Date.parse(sale) : Date.parse("2026-01-01T00:00:00Z");
  switch (form) {
    case "exact":
      return new Date(at).toISOString();
    case "before":
      return new Date(at - 1).toISOString();
    case "after":
      return new Date(at + 1).toISOString();
    case "date only":
      return new Date(at).toISOString().slice(0, 10);
    case "offset":
      return new Date(at).toISOString().replace("Z", "+00:00");
    case "no seconds":
      return `${new Date(at).toISOString().slice(0, 16)}Z`;
    default:
      return new Date(at + 86_400_000 * (n % 3 === 0 ? -1 : 1)).toISOString();
  }
}

const listSales = fc
  .record({
    from: fc.constantFrom(undefined, "exact", "before", "after", "date only", "offset", "far"),
    to: fc.constantFrom(undefined, "exact", "before", "after", "far"),
    status: fc.constantFrom(undefined, "completed", "partially_refunded", "refunded", "voided", "open"),
    filter: fc.constantFrom("none", "outlet_id", "customer_id", "parent_sale_id", "include_deleted"),
    read: fc.boolean(),
    pick: fc.nat(),
    limit: fc.constantFrom(undefined, 1, 2, 200),
    defects: accessDefects("sales:read", [drawn((_s, n) => queryDefect(n))]),
  })
  .map((c) =>
    command(
      `listSales(from ${c.from}, to ${c.to}, status ${c.status}, ${c.filter}${c.read ? ", then one read" : ""}, ${c.defects.length} defects)`,
      async (s) => {
        const q = new URLSearchParams();
        if (c.from) q.set("completed_from", instant(s, c.from, c.pick));
        if (c.to) q.set("completed_to", instant(s, c.to, c.pick));
        if (c.status) q.set("status", c.status);
        const sale = s.pick("sales", c.pick, () => true)?.doc;
        if (c.filter === "outlet_id") q.set("outlet_id", sale?.outlet_id ?? s.pick("outlets", c.pick)?.id ?? "");
        if (c.filter === "customer_id")
          q.set("customer_id", sale?.customer_id ?? s.pick("customers", c.pick)?.id ?? "");
        if (c.filter === "parent_sale_id") q.set("parent_sale_id", sale?.parent_sale_id ?? sale?.id ?? "");
        if (c.filter === "include_deleted") q.set("include_deleted", c.pick % 2 === 0 ? "true" : "false");
        if (c.limit) q.set("limit", String(c.limit));
        const reply = await s.sendWith(s.request("GET", `/sales${q.size ? `?${q}` : ""}`), made(s, c.defects));
        for (const doc of rowsOf(reply) ?? []) s.learn("sales", doc);
        if (c.read) {
          const one = s.pick("sales", c.pick + 1, () => true);
          if (one) await s.send(s.request("GET", `/sales/${one.id}`));
        }
      },
    ),
  );

/** Back-office sales (control plane): a sale, a refund of some or all of what is left, a void. */
const backOffice = fc
  .record({
    op: fc.constantFrom("sale", "sale", "refund", "refund-all", "void", "parked"),
    pick: fc.nat(),
    lines: fc.integer({ min: 1, max: 3 }),
    quantity: fc.constantFrom(1, 2, 0.5),
    walkIn: fc.boolean(),
  })
  .map((c) =>
    command(`backOffice ${c.op}(${c.pick}, ${c.lines} lines)`, async (s) => {
      const store = `/stores/${encodeURIComponent(s.prefix)}`;
      if (c.op === "sale" || c.op === "parked") {
        const outlet = s.pick("outlets", c.pick)?.id;
        const products = Array.from(
          { length: c.lines },
          (_, i) => s.pick("products", c.pick + i, (r) => r.live && r.doc?.is_gift_card !== true)?.id,
        ).filter((id): id is string => id !== undefined);
        if (!outlet || products.length === 0) return;
        const customer = c.walkIn ? undefined : s.pick("customers", c.pick)?.id;
        const made = await s.ctx.control("POST", `${store}/sales`, {
          outlet_id: outlet,
          ...(customer ? { customer_id: customer } : {}),
          lines: [...new Set(products)].map((product_id, i) => ({
            product_id,
            quantity: c.quantity,
            unit_price: 250 + i * 99,
          })),
          ...(c.op === "parked" ? { parked: true } : {}),
        });
        if (is2xx(made) && c.op === "sale") s.learn("sales", controlDocOf(made), true);
        return;
      }
      const sale = s.pick(
        "sales",
        c.pick,
        (r) => r.doc?.parent_sale_id === null && ["completed", "partially_refunded"].includes(r.doc?.status),
      );
      if (!sale) return;
      if (c.op === "void") {
        await s.ctx.control("POST", `${store}/sales/${sale.id}/void`);
        return;
      }
      const items: any[] = sale.doc?.line_items ?? [];
      const lines = items
        .slice(0, 1)
        .filter((l) => typeof l?.product_id === "string")
        .map((l) => ({ product_id: l.product_id, quantity: Math.min(0.5, Math.abs(Number(l.quantity) || 0.5)) }));
      const refund = await s.ctx.control(
        "POST",
        `${store}/sales/${sale.id}/refunds`,
        c.op === "refund" && lines.length ? { lines } : {},
      );
      if (is2xx(refund)) s.learn("sales", controlDocOf(refund));
    }),
  );

export const CUSTOMER_COMMANDS: fc.Arbitrary<Command> = customer;
export const SALES_COMMANDS: fc.Arbitrary<Command> = fc.oneof(
  { weight: 2, arbitrary: listSales },
  { weight: 1, arbitrary: backOffice },
);
export const SALES_READS: fc.Arbitrary<Command> = listSales;
