// The operation table types its handlers: what a declaration says about params, query, body and
// response is what the compiler holds each handler to. The `@ts-expect-error` lines are the checks
// (`npm test` type-checks this file); the assertions run the handlers that do compile.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { ok } from "../../kernel/result.js";
import { op } from "../../contract/operation.js";
import type { OperationOf } from "../../contract/operations/index.js";
import type { Handler, HandlerContext, HandlerOutput } from "./types.js";
import { HANDLERS } from "./index.js";

const Before = Type.Object({ price: Type.Integer() }, { additionalProperties: false });
const After = Type.Object({ amount: Type.Integer() }, { additionalProperties: false });

const declare = <B extends typeof Before | typeof After>(body: B) =>
  op({
    id: "priceThing",
    method: "PATCH",
    path: "/things/{id}",
    summary: "",
    description: "",
    tag: "Test",
    scope: null,
    body,
    kind: "single",
    response: body,
  });
const before = declare(Before);
const after = declare(After);

/** A handler written against the first declaration: it reads `price` from the body. */
const readsPrice = (ctx: HandlerContext<typeof before>) => ok({ price: ctx.body.price + 1 });

const context = <O extends typeof before | typeof after>(body: HandlerContext<O>["body"]) =>
  ({ params: { id: "t-1" }, query: {}, body }) as unknown as HandlerContext<O>;

describe("declarations type the handlers", () => {
  it("a handler that matches its operation's body schema compiles and runs", () => {
    const handler: Handler<typeof before> = readsPrice;
    expect(handler(context<typeof before>({ price: 41 }))).toStrictEqual({ ok: true, value: { price: 42 } });
  });

  it("renaming a body field breaks the compile of the handler that reads it", () => {
    // @ts-expect-error the body schema renamed `price` to `amount`: the old handler no longer fits
    const stale: Handler<typeof after> = readsPrice;
    // The same handler, rewritten for the new field, compiles.
    const fixed: Handler<typeof after> = (ctx) => ok({ amount: ctx.body.amount + 1 });
    expect(fixed(context<typeof after>({ amount: 1 }))).toStrictEqual({ ok: true, value: { amount: 2 } });
    expect(typeof stale).toBe("function");
  });

  it("path parameters are exactly the template's names", () => {
    const handler: Handler<typeof before> = (ctx) => {
      // @ts-expect-error `/things/{id}` has no {outlet_id}
      const outlet: string = ctx.params.outlet_id;
      return ok({ price: ctx.params.id.length + (outlet === undefined ? 0 : 1) });
    };
    expect(handler(context<typeof before>({ price: 0 }))).toStrictEqual({ ok: true, value: { price: 3 } });
  });

  it("a handler's result is the operation's response schema", () => {
    // @ts-expect-error the response schema has `price`, not `cost`
    const wrong: Handler<typeof before> = () => ok({ cost: 1 });
    expect(typeof wrong).toBe("function");
  });

  it("the real table: updateProduct's handler reads the typed ProductUpdate and answers a Product", () => {
    type Update = HandlerContext<OperationOf<"updateProduct">>;
    const sku = (ctx: Update): string | undefined => ctx.body.sku;
    // @ts-expect-error ProductUpdate has no `title` (the spec's field is `name`)
    const title = (ctx: Update): string => ctx.body.title;
    // @ts-expect-error updateProduct's only path parameter is {id}
    const outlet = (ctx: Update): string => ctx.params.outlet_id;
    // @ts-expect-error a list operation's handler answers a listing the pipeline pages, not a page
    const page: HandlerOutput<OperationOf<"listProducts">> = { data: [], next_cursor: null, has_more: false };
    expect([typeof sku, typeof title, typeof outlet, typeof page]).toStrictEqual([
      "function",
      "function",
      "function",
      "object",
    ]);
    expect(typeof HANDLERS.updateProduct).toBe("function");
  });
});
