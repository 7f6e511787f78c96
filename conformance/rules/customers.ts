import fc from "fast-check";
import type { RuleContext } from "../context.js";
import { Skip } from "../outcomes.js";
import { createProduct, outletIds } from "./support/inventory.js";
import { storePrefix } from "./support/access.js";
import { UUID, createCustomer, isUtc, makeSale, poll, readSale, untrack } from "./support/sales.js";
import { rule, SPEC } from "./rule.js";
import { type Customer, controlDocOf, dataOf, expectRows, isObject, type Json, type Sale } from "../shapes.js";

// Customers: the Customer resource (no unknown properties), customer_code conflicts, deletion
// (tombstones, 404s, erasure) and the walk-in customer. Only customers the run created are ever deleted. The customer routes have
// their own limit of 30 requests a minute: each rule stays well under 20.

const NULLABLE = [
  "last_name",
  "company_name",
  "email",
  "phone",
  "mobile",
  "website",
  "gender",
  "tax_id",
  "note",
  "address_1",
  "address_2",
  "city",
  "state",
  "zipcode",
  "country",
  "custom_field_1",
  "custom_field_2",
  "custom_field_3",
  "custom_field_4",
] as const;
const BOOLEANS = ["enable_loyalty", "dont_email", "dont_sms", "do_not_sell_share", "is_walk_in"] as const;

/** Spec, Resources: Customer. Every listed field present, with its type. */
function customerShape(ctx: RuleContext, value: unknown): void {
  const c: Json = isObject(value) ? value : {};
  const problems: string[] = [];
  const need = (ok: boolean, field: string) => ok || problems.push(`${field}=${JSON.stringify(c?.[field])}`);
  need(UUID.test(String(c?.id)), "id");
  need(UUID.test(String(c?.customer_group_id)), "customer_group_id");
  need(typeof c?.customer_code === "string", "customer_code");
  need(typeof c?.first_name === "string", "first_name");
  for (const f of NULLABLE) need(c?.[f] === null || typeof c?.[f] === "string", f);
  need(
    c?.date_of_birth === null || (typeof c?.date_of_birth === "string" && /^\d{4}-\d{2}-\d{2}$/.test(c.date_of_birth)),
    "date_of_birth",
  );
  need(Number.isInteger(c?.on_account_limit), "on_account_limit");
  for (const f of BOOLEANS) need(typeof c?.[f] === "boolean", f);
  need(isUtc(c?.created_at), "created_at");
  need(isUtc(c?.updated_at), "updated_at");
  need(typeof c?.version === "string", "version");
  ctx.check(problems.length === 0, "every Customer field present with its type", problems.join(", "));
}

/** Personal details of a customer, unique to the run, so that any of them left behind is noticed. */
function personal(ctx: RuleContext): Record<string, string> {
  const tag = ctx.name("person");
  return {
    first_name: `First ${tag}`,
    last_name: `Last ${tag}`,
    company_name: `Company ${tag}`,
    email: `${tag}@example.com`,
    phone: "+1 555 0100 4242",
    note: `Note ${tag}`,
    address_1: `1 ${tag} Street`,
    city: `City ${tag}`,
    zipcode: "90210",
    date_of_birth: "1990-02-03",
    customer_code: ctx.name("CODE"),
  };
}

export const customerRules = [
  rule({
    id: "customers.create-fields",
    area: "Customers",
    title: "A created customer is returned with every Customer field, typed, and the values sent",
    spec: {
      section: SPEC.resources,
      quote: "All listed fields are always present in a read; nullable ones are marked.",
    },
    cost: 1,
    leniency: "200 or 201.",
    async run(ctx) {
      const sent = personal(ctx);
      const c = await createCustomer(ctx, sent);
      customerShape(ctx, c);
      // Values as sent (the phone number aside: a server may normalise its format).
      for (const [field, value] of Object.entries(sent))
        if (field !== "phone")
          ctx.check(c[field] === value, `${field} ${JSON.stringify(value)} as sent`, JSON.stringify(c[field]));
      ctx.check(typeof c.phone === "string", "the phone number kept", JSON.stringify(c.phone));
      ctx.check(
        c.is_walk_in === false,
        "is_walk_in false for a customer created through the API",
        JSON.stringify(c.is_walk_in),
      );
    },
  }),
  rule({
    id: "customers.do-not-sell-share-read-only",
    area: "Customers",
    title: "do_not_sell_share cannot be set through the API",
    spec: {
      section: SPEC.resources,
      quote:
        "do_not_sell_share | boolean; read only; set only through the admin UI or a privacy request, never through this API",
    },
    cost: 1,
    leniency: "The field may be ignored (the customer created with do_not_sell_share false) or refused with 400.",
    async run(ctx) {
      const reply = await ctx.call("POST", "/customers", {
        body: { first_name: ctx.name("first"), do_not_sell_share: true },
      });
      if (reply.status === 400) return ctx.error(reply, 400, "VALIDATION_FAILED");
      ctx.status(reply, 200, 201);
      const made = dataOf<Customer>(reply);
      if (typeof made?.id === "string") ctx.track(`/customers/${made.id}`);
      ctx.check(
        made?.do_not_sell_share === false,
        "do_not_sell_share false (not set through the API)",
        JSON.stringify(made?.do_not_sell_share),
      );
    },
  }),
  rule({
    id: "customers.code-conflict",
    area: "Customers",
    title: "Creating a customer with a customer_code in use answers 409 CONFLICT",
    spec: { section: SPEC.errors, quote: "CONFLICT | 409 | collision or rule" },
    cost: 2,
    async run(ctx) {
      const code = ctx.name("CODE");
      await createCustomer(ctx, { customer_code: code });
      const again = await ctx.call("POST", "/customers", {
        body: { first_name: ctx.name("first"), customer_code: code },
      });
      const madeAgain = dataOf<Customer>(again);
      if (typeof madeAgain?.id === "string") ctx.track(`/customers/${madeAgain.id}`);
      ctx.error(again, 409, "CONFLICT");
    },
  }),
  rule({
    id: "customers.delete-tombstone",
    area: "Customers",
    title:
      "Deleting a customer answers 204; then its id answers 404 and the list with include_deleted shows a tombstone",
    spec: { section: SPEC.paging, quote: "On products and customers deleted rows are tombstones" },
    cost: 8,
    leniency: "GET /customers/{id} (a path the spec does not show) is checked only when the target serves it.",
    async run(ctx) {
      const tail = await poll<Customer>(ctx, "/customers", "include_deleted=true", null, 15);
      const sent = personal(ctx);
      const c = await createCustomer(ctx, sent);
      const read = await ctx.call("GET", `/customers/${c.id}`);
      const readable = read.status === 200;
      const deleted = await ctx.call("DELETE", `/customers/${c.id}`);
      ctx.status(deleted, 204);
      untrack(ctx, `/customers/${c.id}`);
      ctx.check(deleted.text === "", "204 with no body", deleted.text.slice(0, 100));
      ctx.error(await ctx.call("DELETE", `/customers/${c.id}`), 404, "NOT_FOUND");
      if (readable) ctx.error(await ctx.call("GET", `/customers/${c.id}`), 404, "NOT_FOUND");
      const { rows } = await poll<Customer>(ctx, "/customers", "include_deleted=true", tail.cursor, 15);
      const tombstone = ctx.defined(
        rows.filter((r) => r?.id === c.id).pop(),
        `a row for the deleted customer ${c.id} after the held cursor`,
        `${rows.length} rows: ${rows.map((r) => r?.id).join(", ")}`,
      );
      ctx.check(
        isUtc(tombstone.deleted_at) && typeof tombstone.version === "string",
        "a tombstone {id, deleted_at, version}",
        JSON.stringify(tombstone),
      );
      ctx.check(tombstone.version !== c.version, "a new version for the deletion", JSON.stringify(tombstone));
      const kept = Object.values(sent).filter((v) => v.includes("rsconf-") && JSON.stringify(tombstone).includes(v));
      ctx.check(kept.length === 0, "no personal details in the tombstone", JSON.stringify(tombstone));
    },
  }),
  rule({
    id: "customers.walk-in-undeletable",
    area: "Customers",
    title: "The store has a single walk-in customer, and deleting it answers 409 CONFLICT",
    spec: { section: SPEC.deletes, quote: "walk-in customer: 409 CONFLICT" },
    needs: { control: true, destructive: true },
    cost: 3,
    leniency:
      "Runs only with a control plane: on a server that wrongly accepts the delete, the store's walk-in customer would be erased for good.",
    async run(ctx) {
      const { rows } = await poll<Customer>(ctx, "/customers", "", null, 15);
      const walkIns = rows.filter((r) => r?.is_walk_in === true);
      ctx.check(
        walkIns.length === 1,
        "exactly one customer with is_walk_in true",
        `${walkIns.length}: ${walkIns.map((r) => r.id).join(", ")}`,
      );
      ctx.error(await ctx.call("DELETE", `/customers/${walkIns[0]?.id}`), 409, "CONFLICT");
    },
  }),
  rule({
    id: "customers.erasure",
    area: "Customers",
    title:
      "Deleting a customer scrubs its personal details and replaces its customer_code (seen through the control plane)",
    spec: {
      section: SPEC.deletes,
      quote:
        "marked deleted; name, email, phone, address and other personal details scrubbed; customer_code replaced by a placeholder",
    },
    needs: { control: true },
    cost: 2,
    choices: ["Erasure"],
    leniency:
      "Needs GET /_sim/stores/{prefix}/customers/{id}; any scrubbed value is accepted, as long as none of the details sent remains.",
    async run(ctx) {
      const prefix = await storePrefix(ctx);
      const sent = personal(ctx);
      const c = await createCustomer(ctx, sent);
      const stored = await ctx.control("GET", `/stores/${prefix}/customers/${c.id}`);
      if (stored.status === 404) throw new Skip("the control plane does not show stored customers");
      ctx.check(
        stored.status === 200 && controlDocOf(stored)?.email === sent.email,
        "the control view of the new customer",
        stored.text.slice(0, 200),
      );
      ctx.status(await ctx.call("DELETE", `/customers/${c.id}`), 204);
      untrack(ctx, `/customers/${c.id}`);
      const erased = await ctx.control("GET", `/stores/${prefix}/customers/${c.id}`);
      ctx.check(erased.status === 200, "the erased record in the control view", `status ${erased.status}`);
      const view = controlDocOf(erased);
      // Each field sent is scrubbed, and no value unique to this run shows up anywhere in the record.
      const left = Object.entries(sent).filter(
        ([field, value]) =>
          view?.[field] === value || (value.includes("rsconf-") && JSON.stringify(view).includes(value)),
      );
      ctx.check(
        left.length === 0,
        "none of the personal details sent left in the record",
        left.map(([f, v]) => `${f}: ${v}`).join(", "),
      );
      ctx.check(
        typeof view?.customer_code === "string" && view.customer_code !== sent.customer_code,
        "customer_code replaced by a placeholder",
        JSON.stringify(view?.customer_code),
      );
      // The record as the simulator scrubs it: the same fields, personal ones null, kept ones kept.
      const kept = ["id", "customer_group_id", "on_account_limit", ...BOOLEANS, "created_at"] as const;
      const problems = [
        ...[...NULLABLE, "date_of_birth"].filter((f) => view?.[f] !== null),
        ...kept.filter((f) => view?.[f] !== c[f]),
        ...(view?.first_name === "Erased" ? [] : ["first_name"]),
        ...(/^ERASED-.{10}$/.test(String(view?.customer_code)) ? [] : ["customer_code"]),
        ...(isUtc(view?.deleted_at) && view?.updated_at === view?.deleted_at ? [] : ["deleted_at", "updated_at"]),
        ...(JSON.stringify(Object.keys(view ?? {}).sort()) === JSON.stringify([...Object.keys(c), "deleted_at"].sort())
          ? []
          : ["the fields"]),
      ];
      ctx.choice(
        "Erasure",
        problems.length === 0,
        'first_name "Erased", an ERASED- code, every other personal field null, the rest kept, deleted_at the erasure\'s updated_at',
        `${problems.join(", ")}: ${JSON.stringify(view)}`,
      );
    },
  }),
  rule({
    id: "customers.erasure-sales-remain",
    area: "Customers",
    title: "Sales of an erased customer remain readable and still refer to the customer",
    spec: { section: SPEC.deletes, quote: "sales remain and resolve to the anonymized customer; irreversible" },
    needs: { control: true },
    cost: 6,
    choices: ["Sales of an erased customer"],
    async run(ctx) {
      const prefix = await storePrefix(ctx);
      const [outlet] = await outletIds(ctx);
      const product = await createProduct(ctx);
      const c = await createCustomer(ctx);
      const sale = await makeSale(ctx, { prefix, outlet, product: product.id, customer: c.id }, 1);
      ctx.status(await ctx.call("DELETE", `/customers/${c.id}`), 204);
      untrack(ctx, `/customers/${c.id}`);
      const after = await readSale(ctx, sale.id);
      ctx.check(
        after.customer_id === c.id,
        `the sale still refers to customer ${c.id}`,
        JSON.stringify(after.customer_id),
      );
      ctx.choice(
        "Sales of an erased customer",
        after.version === sale.version,
        `the sale's version unchanged (${sale.version})`,
        JSON.stringify(after.version),
      );
      const listed = await ctx.call("GET", `/sales?customer_id=${c.id}`);
      ctx.status(listed, 200);
      const sales = expectRows<Sale>(listed, "GET /sales?customer_id=: {data: [...]}");
      ctx.check(
        sales.some((s) => s.id === sale.id),
        `GET /sales?customer_id= listing sale ${sale.id}`,
        JSON.stringify(sales.map((s) => s.id)),
      );
    },
  }),
  rule({
    id: "customers.unknown-property",
    area: "Customers",
    title:
      "A customer create with an unknown property answers 400 VALIDATION_FAILED naming it, and creates no customer",
    spec: { section: SPEC.resources, quote: "No resource accepts unknown properties." },
    cost: 12,
    leniency:
      "Nothing created is checked on the customer feed read from a held cursor (customers have no lookup by name).",
    async run(ctx) {
      const tail = await poll<Customer>(ctx, "/customers", "", null, 15);
      let cursor = tail.cursor;
      await ctx.property(
        fc.record({
          prop: fc.stringMatching(/^[a-z]{3,10}$/),
          value: fc.oneof(fc.boolean(), fc.integer(), fc.string({ maxLength: 8 })),
        }),
        async ({ prop, value }) => {
          const first_name = ctx.name("unknown-property");
          const reply = await ctx.call("POST", "/customers", { body: { first_name, [`zz_${prop}`]: value } });
          const refused = dataOf<Customer>(reply);
          if (typeof refused?.id === "string") ctx.track(`/customers/${refused.id}`);
          ctx.error(reply, 400, "VALIDATION_FAILED", [`zz_${prop}`]);
          const after = await poll<Customer>(ctx, "/customers", "", cursor, 15);
          cursor = after.cursor ?? cursor;
          const made = after.rows.filter((r) => r?.first_name === first_name);
          ctx.check(made.length === 0, `no customer named ${first_name}`, made.map((r) => r.id).join(", "));
        },
        Math.min(ctx.run.runs, 3),
      );
    },
  }),
];
