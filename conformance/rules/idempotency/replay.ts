import fc from "fast-check";
import type { Reply, RuleContext } from "../../context.js";
import { rule, SPEC } from "../rule.js";
import { apiPath, createKey, is2xx, sameJson, storePrefix, trackCreated } from "../support/access.js";
import { bySku } from "../support/catalog.js";
import { bodyOf, errorCode, errorOf, idOf, isObject, listOf } from "../../shapes.js";

// Limits: Idempotency, on POST /products (a create whose payload the spec shows, findable by `?sku=`).
// Every product carries a name from ctx.name and is tracked for the run's cleanup.

const printable = fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c));

const replayed = (reply: Reply): boolean =>
  (reply.headers["idempotent-replayed"] ?? "").trim().toLowerCase() === "true";

/** A fresh product body; the SKU is unique to the run (and the name is the SKU). */
function productBody(ctx: RuleContext, price = 4200, suffix = ""): { name: string; retail_price: number; sku: string } {
  const sku = ctx.name("idem");
  return { name: suffix ? `${sku} ${suffix}` : sku, retail_price: price, sku };
}

async function create(ctx: RuleContext, body: unknown, key: string | undefined, token?: string): Promise<Reply> {
  const reply = await ctx.call("POST", "/products", {
    body,
    headers: key === undefined ? {} : { "idempotency-key": key },
    token,
  });
  trackCreated(ctx, reply, "/products");
  return reply;
}

/**
 * The first create held in the middle of processing by a hold fault (POST /_sim/faults, `hold`), four
 * more sent with the same key and body meanwhile, then the first let go: the in-progress state for
 * certain. Undefined where the control plane has no hold faults.
 */
async function whileHeld(ctx: RuleContext, body: unknown, key: string): Promise<Reply[] | undefined> {
  const path = apiPath(ctx, "/products");
  const fault = await ctx.control("POST", "/faults", { method: "POST", path, hold: true, times: 1 });
  const id: unknown = bodyOf(fault)?.id;
  if (!is2xx(fault) || (typeof id !== "number" && typeof id !== "string")) return undefined;
  try {
    const first = create(ctx, body, key);
    let held = false;
    for (let i = 0; i < 200 && !held; i++) {
      const listed = await ctx.control("GET", "/faults");
      held = listOf(listed.json).some((f) => f.id === id && typeof f.held === "number" && f.held > 0);
      if (!held) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const others = await Promise.all(Array.from({ length: 4 }, () => create(ctx, body, key)));
    await ctx.control("POST", `/faults/${id}/release`);
    return [await first, ...others];
  } finally {
    await ctx.control("DELETE", "/faults");
  }
}

/** Spec, Errors: VALIDATION_FAILED for an invalid Idempotency-Key header, naming it (in `fields`, or else in the message). */
function namesIdempotencyKey(reply: Reply): boolean {
  const fields = errorOf(reply)?.fields;
  if (
    Array.isArray(fields) &&
    fields.some((f: unknown) => isObject(f) && typeof f.field === "string" && /^idempotency-key$/i.test(f.field))
  )
    return true;
  return /idempotency-key/i.test(String(errorOf(reply)?.message ?? ""));
}

export const replayRules = [
  rule({
    id: "idempotency.replay",
    area: "Idempotency",
    title: "Same key, same body: the same status and data with Idempotent-Replayed: true, and one resource created",
    spec: {
      section: SPEC.idempotency,
      quote:
        "A retry with the same key and same body returns the same status and data with header Idempotent-Replayed: true.",
    },
    cost: 22,
    leniency:
      "Bodies are compared as JSON (key order aside); the first answer may carry Idempotent-Replayed with any value but true.",
    async run(ctx) {
      const cases = fc.record({
        key: fc.string({ unit: printable, minLength: 1, maxLength: 255 }),
        price: fc.integer({ min: 1, max: 10_000_000 }),
        suffix: fc.stringMatching(/^[A-Za-z0-9]{0,16}$/),
      });
      await ctx.property(
        cases,
        async ({ key, price, suffix }) => {
          const body = productBody(ctx, price, suffix);
          // The run's unique SKU leads the key, so a case run again (shrinking, replay) never meets its own earlier record.
          const idem = `${body.sku}.${key}`.slice(0, 255);
          ctx.check((await bySku(ctx, body.sku)).length === 0, `no product with SKU ${body.sku} yet`, "one exists");
          const first = await create(ctx, body, idem);
          ctx.check(
            first.status === 200 || first.status === 201,
            "the create answers 200 or 201",
            `status ${first.status} ${first.text.slice(0, 160)}`,
          );
          ctx.check(
            !replayed(first),
            "no Idempotent-Replayed: true on the first answer",
            `Idempotent-Replayed: ${first.headers["idempotent-replayed"]}`,
          );
          const again = await create(ctx, body, idem);
          ctx.check(
            again.status === first.status,
            `the retry answers the same status ${first.status}`,
            `status ${again.status} ${again.text.slice(0, 160)}`,
          );
          ctx.check(
            sameJson(again.json, first.json),
            "the retry answers the same data",
            `first ${first.text.slice(0, 120)}; retry ${again.text.slice(0, 120)}`,
          );
          ctx.check(
            replayed(again),
            "Idempotent-Replayed: true on the retry",
            `Idempotent-Replayed: ${again.headers["idempotent-replayed"] ?? "(absent)"}`,
          );
          const found = await bySku(ctx, body.sku);
          ctx.check(found.length === 1, `exactly one product with SKU ${body.sku}`, `${found.length}`);
        },
        Math.min(ctx.run.runs, 5),
      );
    },
  }),
  rule({
    id: "idempotency.key-reused",
    area: "Idempotency",
    title: "The same key with a different body answers 422 IDEMPOTENCY_KEY_REUSED and writes nothing",
    spec: {
      section: SPEC.idempotency,
      quote: "A different body under the same key answers 422 IDEMPOTENCY_KEY_REUSED.",
    },
    cost: 6,
    async run(ctx) {
      const body = productBody(ctx, 100);
      const key = ctx.name("key-reused");
      ctx.check((await bySku(ctx, body.sku)).length === 0, `no product with SKU ${body.sku} yet`, "one exists");
      const first = await create(ctx, body, key);
      ctx.status(first, 200, 201);
      ctx.error(await create(ctx, { ...body, retail_price: 101 }, key), 422, "IDEMPOTENCY_KEY_REUSED");
      const other = productBody(ctx, 100);
      ctx.error(await create(ctx, other, key), 422, "IDEMPOTENCY_KEY_REUSED");
      const found = await bySku(ctx, body.sku);
      ctx.check(
        found.length === 1 && found[0]?.retail_price === 100,
        `one product with SKU ${body.sku}, retail_price 100`,
        JSON.stringify(found.map((p) => p.retail_price)),
      );
      ctx.check((await bySku(ctx, other.sku)).length === 0, `no product with SKU ${other.sku}`, "it was created");
    },
  }),
  rule({
    id: "idempotency.client-error-replayed",
    area: "Idempotency",
    title: "A client error is remembered: the retry replays it even after its cause is gone",
    spec: { section: SPEC.idempotency, quote: "A client error replays the same failure." },
    cost: 5,
    leniency:
      "Once the conflicting product is deleted, a server may still refuse its SKU; only a fresh execution that succeeds is a failure.",
    async run(ctx) {
      const body = productBody(ctx, 300);
      const key = ctx.name("client-error");
      ctx.check((await bySku(ctx, body.sku)).length === 0, `no product with SKU ${body.sku} yet`, "one exists");
      const holder = await create(ctx, body, undefined);
      ctx.status(holder, 200, 201);
      // SKU in use: 409 CONFLICT (Product write rules 8), remembered under the key.
      const refused = await create(ctx, { ...body, name: `${body.sku} again` }, key);
      ctx.error(refused, 409, "CONFLICT");
      const holderId = ctx.defined(idOf(holder), "the product created: {data: {id, ...}}", holder.text.slice(0, 160));
      ctx.status(await ctx.call("DELETE", `/products/${holderId}`), 204);
      const retry = await create(ctx, { ...body, name: `${body.sku} again` }, key);
      ctx.check(
        retry.status === 409 && sameJson(retry.json, refused.json),
        "the retry replays the 409 CONFLICT with the same body",
        `status ${retry.status} ${retry.text.slice(0, 160)}`,
      );
      ctx.check(
        replayed(retry),
        "Idempotent-Replayed: true on the replayed failure",
        `Idempotent-Replayed: ${retry.headers["idempotent-replayed"] ?? "(absent)"}`,
      );
    },
  }),
  rule({
    id: "idempotency.key-format",
    area: "Idempotency",
    title:
      "An Idempotency-Key over 255 characters or with a space answers 400 VALIDATION_FAILED naming it; 255 printable characters are accepted",
    spec: {
      section: SPEC.limits,
      quote: "Idempotency key | 1 to 255 printable characters without spaces; remembered 24 hours, per credential",
    },
    cost: 8,
    leniency: "The header may be named in `fields` (any letter case) or in the message.",
    async run(ctx) {
      const longest = `${ctx.name("k")}${"x".repeat(255)}`.slice(0, 255);
      ctx.status(await create(ctx, productBody(ctx), longest), 200, 201);
      const invalid = fc.oneof(
        fc.string({ unit: printable, minLength: 256, maxLength: 600 }),
        fc
          .tuple(
            fc.string({ unit: printable, minLength: 1, maxLength: 60 }),
            fc.string({ unit: printable, minLength: 1, maxLength: 60 }),
          )
          .map(([a, b]) => `${a} ${b}`),
      );
      await ctx.property(
        invalid,
        async (key) => {
          const reply = await create(ctx, productBody(ctx), key);
          ctx.error(reply, 400, "VALIDATION_FAILED");
          ctx.check(namesIdempotencyKey(reply), "the error names Idempotency-Key", reply.text.slice(0, 200));
        },
        Math.min(ctx.run.runs, 6),
      );
    },
  }),
  rule({
    id: "idempotency.per-credential",
    area: "Idempotency",
    title:
      "Keys are remembered per credential: another credential's same key, with the same or another body, is a new request",
    spec: {
      section: SPEC.limits,
      quote: "Idempotency key | 1 to 255 printable characters without spaces; remembered 24 hours, per credential",
    },
    needs: { control: true, orCredentials: ["key"] },
    cost: 9,
    leniency:
      "The other credential is a key of catalog:write: made through the control plane, or without one the key given to --key catalog:write=TOKEN.",
    async run(ctx) {
      const body = productBody(ctx, 500);
      const key = ctx.name("per-credential");
      ctx.check((await bySku(ctx, body.sku)).length === 0, `no product with SKU ${body.sku} yet`, "one exists");
      const other = await createKey(ctx, await storePrefix(ctx), ["catalog:write"]);
      const first = await create(ctx, body, key);
      ctx.status(first, 200, 201);
      // The same key and body from another credential is not a retry of the first credential's request:
      // it is processed anew, and its SKU is the one the first request just took (Product write rules 8:
      // SKU in use, 409 CONFLICT).
      const anew = await create(ctx, body, key, other.token);
      ctx.check(
        !replayed(anew),
        "another credential's same key and body is processed anew: no Idempotent-Replayed: true",
        `status ${anew.status}, Idempotent-Replayed: ${anew.headers["idempotent-replayed"]}, ${anew.text.slice(0, 160)}`,
      );
      ctx.error(anew, 409, "CONFLICT");
      ctx.check(
        (await bySku(ctx, body.sku)).length === 1,
        `exactly one product with SKU ${body.sku}`,
        "a different count",
      );
      // A different body under a key the first credential used is a new request too, not a reuse.
      const key2 = ctx.name("per-credential");
      ctx.status(await create(ctx, productBody(ctx, 550), key2), 200, 201);
      const second = productBody(ctx, 600);
      const created = await create(ctx, second, key2, other.token);
      ctx.check(
        is2xx(created) && !replayed(created),
        `another credential creates ${second.sku} under the same key: 200 or 201, not replayed`,
        `status ${created.status} ${created.text.slice(0, 160)}`,
      );
      // And the first credential's record is intact.
      const again = await create(ctx, body, key);
      ctx.check(
        again.status === first.status && replayed(again),
        `the first credential's retry still replays ${first.status} with Idempotent-Replayed: true`,
        `status ${again.status}, Idempotent-Replayed: ${again.headers["idempotent-replayed"] ?? "(absent)"}`,
      );
    },
  }),
  rule({
    id: "idempotency.concurrent-same-key",
    area: "Idempotency",
    title:
      "Concurrent requests with one key and body create one resource; the others replay it or answer 409 IDEMPOTENCY_IN_PROGRESS",
    spec: { section: SPEC.idempotency, quote: "Processing in progress answers 409 IDEMPOTENCY_IN_PROGRESS." },
    cost: 8,
    leniency:
      "Each concurrent request may be the original, a replay (same status and body, Idempotent-Replayed: true) or 409 IDEMPOTENCY_IN_PROGRESS. With a control plane the first is held mid-processing by a hold fault (POST /_sim/faults) while the others are sent, so the in-progress state is met for certain.",
    async run(ctx) {
      const body = productBody(ctx, 3100);
      const key = `${body.sku}.concurrent`;
      const replies =
        (ctx.hasControl ? await whileHeld(ctx, body, key) : undefined) ??
        (await Promise.all(Array.from({ length: 5 }, () => create(ctx, body, key))));
      const made = replies.filter((r) => is2xx(r) && !replayed(r));
      const replays = replies.filter((r) => is2xx(r) && replayed(r));
      const busy = replies.filter((r) => r.status === 409 && errorCode(r) === "IDEMPOTENCY_IN_PROGRESS");
      ctx.check(
        made.length === 1 && made.length + replays.length + busy.length === 5,
        "one original, and replays or 409 IDEMPOTENCY_IN_PROGRESS for the rest",
        JSON.stringify(replies.map((r) => [r.status, r.headers["idempotent-replayed"] ?? null])),
      );
      for (const r of replays)
        ctx.check(
          sameJson(r.json, made[0]!.json) && r.status === made[0]!.status,
          "replays identical to the original",
          r.text.slice(0, 160),
        );
      ctx.check(
        (await bySku(ctx, body.sku)).length === 1,
        `exactly one product with SKU ${body.sku}`,
        "a different count",
      );
    },
  }),
];
