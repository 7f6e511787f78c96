import fc from "fast-check";
import { rule, SPEC } from "./rule.js";
import { trackCreated } from "./support/access.js";
import {
  createProduct,
  expectError,
  expectNoProduct,
  expectUnchanged,
  freshSku,
  readProduct,
  show,
} from "./support/catalog.js";
import { bodyOf, expectRows, type Json } from "../shapes.js";

// Spec, What the service does: JSON in and out, every success wrapped in {data}, errors in the error
// envelope, ids as UUIDs and timestamps in UTC.

/** Ways a body is not JSON: a JSON object cut short (never valid JSON), one with more text after it, or a form. */
type Malformed = { kind: "cut"; at: number } | { kind: "tail"; tail: string } | { kind: "form" };
const malformed: fc.Arbitrary<Malformed> = fc.oneof(
  fc.double({ min: 0.05, max: 0.95, noNaN: true }).map((at) => ({ kind: "cut" as const, at })),
  fc.constantFrom("}", ",", " x", "{}").map((tail) => ({ kind: "tail" as const, tail })),
  fc.constant({ kind: "form" as const }),
);

function malform(body: Record<string, string | number>, m: Malformed): { raw: string; contentType: string } {
  const text = JSON.stringify(body);
  if (m.kind === "cut")
    return { raw: text.slice(0, Math.max(1, Math.floor(text.length * m.at))), contentType: "application/json" };
  if (m.kind === "tail") return { raw: `${text}${m.tail}`, contentType: "application/json" };
  return {
    raw: new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString(),
    contentType: "application/x-www-form-urlencoded",
  };
}

export const envelopeRules = [
  rule({
    id: "envelope.success-data",
    area: "Envelope",
    title: "Every success wraps its payload as {data}; lists add next_cursor and has_more",
    spec: {
      section: SPEC.what,
      quote: 'Every success response wraps its payload as {"data": ...}. List responses add next_cursor and has_more.',
    },
    cost: 3,
    async run(ctx) {
      const me = await ctx.call("GET", "/me");
      ctx.status(me, 200);
      const identity = bodyOf(me)?.data;
      ctx.check(
        typeof identity === "object" && identity !== null,
        "GET /me answers {data: {...}}",
        me.text.slice(0, 200),
      );
      const outlets = await ctx.call("GET", "/outlets");
      ctx.status(outlets, 200);
      const list = bodyOf(outlets);
      ctx.check(
        Array.isArray(list?.data) && "next_cursor" in list && typeof list.has_more === "boolean",
        "a list answers {data: [...], next_cursor, has_more}",
        outlets.text.slice(0, 200),
      );
    },
  }),
  rule({
    id: "envelope.unknown-path",
    area: "Envelope",
    title: "Unknown paths answer 404 NOT_FOUND in the error envelope",
    spec: {
      section: SPEC.errors,
      quote: "NOT_FOUND | 404 | missing, deleted, other store's, non-UUID id, or unknown path",
    },
    cost: 10,
    async run(ctx) {
      await ctx.property(
        fc.stringMatching(/^[a-z][a-z0-9-]{2,20}$/),
        async (segment) => {
          const reply = await ctx.call("GET", `/zz-${segment}`);
          ctx.error(reply, 404, "NOT_FOUND");
        },
        Math.min(ctx.run.runs, 10),
      );
    },
  }),
  rule({
    id: "envelope.non-uuid-id",
    area: "Envelope",
    title: "A non-UUID id answers 404 NOT_FOUND",
    spec: {
      section: SPEC.errors,
      quote: "NOT_FOUND | 404 | missing, deleted, other store's, non-UUID id, or unknown path",
    },
    cost: 10,
    async run(ctx) {
      await ctx.property(
        fc.stringMatching(/^[A-Za-z0-9_-]{1,30}$/).filter((s) => !/^[0-9a-f]{8}-/.test(s)),
        async (id) => {
          ctx.error(await ctx.call("GET", `/products/${id}`), 404, "NOT_FOUND");
        },
        Math.min(ctx.run.runs, 10),
      );
    },
  }),
  rule({
    id: "envelope.timestamps-utc",
    area: "Envelope",
    title: "Timestamps are ISO 8601 in UTC ending in Z; ids are UUIDs",
    spec: {
      section: SPEC.what,
      quote: "Timestamps are ISO 8601 date-times in UTC and end in Z. Ids are UUID strings.",
    },
    cost: 2,
    async run(ctx) {
      const page = await ctx.call("GET", "/products?limit=20");
      ctx.status(page, 200);
      for (const p of expectRows<Json>(page, "GET /products?limit=20: {data: [...]}")) {
        ctx.check(
          /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(String(p.id)),
          "every id a UUID",
          JSON.stringify(p.id),
        );
        for (const key of ["created_at", "updated_at"]) {
          ctx.check(
            typeof p[key] === "string" && /Z$/.test(p[key]) && !Number.isNaN(Date.parse(p[key] as string)),
            `${key} a UTC date-time ending in Z`,
            JSON.stringify(p[key]),
          );
        }
      }
    },
  }),
  rule({
    id: "envelope.json-body",
    area: "Envelope",
    title:
      "A write whose body is not JSON (cut short, with more after it, or a form) answers 400 VALIDATION_FAILED and writes nothing",
    spec: { section: SPEC.what, quote: "All requests and responses are JSON." },
    cost: 24,
    async run(ctx) {
      const p = await createProduct(ctx, { sku: await freshSku(ctx) });
      await ctx.property(
        fc.record({ op: fc.constantFrom("create", "update"), m: malformed }),
        async ({ op, m }) => {
          const sku = await freshSku(ctx);
          const { raw, contentType } = malform(
            op === "create" ? { name: ctx.name("not-json"), retail_price: 100, sku } : { name: ctx.name("not-json") },
            m,
          );
          if (op === "create") {
            const reply = await ctx.call("POST", "/products", { raw, contentType });
            trackCreated(ctx, reply, "/products");
            expectError(
              ctx,
              reply,
              400,
              "VALIDATION_FAILED",
              undefined,
              `POST /products with the body ${show(raw, 120)} (${contentType})`,
            );
            await expectNoProduct(ctx, sku, "a create whose body is not JSON");
          } else {
            const before = await readProduct(ctx, p.id);
            const reply = await ctx.call("PATCH", `/products/${p.id}`, { raw, contentType });
            expectError(
              ctx,
              reply,
              400,
              "VALIDATION_FAILED",
              undefined,
              `PATCH /products/{id} with the body ${show(raw, 120)} (${contentType})`,
            );
            await expectUnchanged(ctx, before, "an update whose body is not JSON");
          }
        },
        Math.min(ctx.run.runs, 6),
      );
    },
  }),
];
