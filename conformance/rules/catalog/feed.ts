import fc from "fast-check";
import type { RuleContext } from "../../context.js";
import type { Rule } from "../../rule.js";
import { createProduct, expectError, expectNewVersion, show } from "../support/catalog.js";
import { ours, Poller } from "../support/feed-poller.js";
import { expectTombstone } from "../support/product-shape.js";
import { rule, SPEC } from "../rule.js";
import { dataOf, type Product } from "../../shapes.js";

// Model-based: random sequences of product creates, updates and deletes, with polls of the product
// feed from held cursors (one with include_deleted=true, one without), against a model written from
// the spec. Rows come oldest change first; a change moves its row to the end of the feed, so a poll
// shows every product changed since the previous poll exactly once, at its latest version, in the
// order of those latest changes; deleted products come back as tombstones only with include_deleted.
//
// The commands are fast-check AsyncCommands run by fc.asyncModelRun, generated as a plain array
// (not fc.commands): fc.commands shrinks by what actually ran and needs its replayPath as well, while
// an array replays exactly from the run's seed and path (--seed S --replay PATH).

interface Tracked {
  readonly id: string;
  readonly sku: string;
  /** Every live version the writes answered, oldest first. */
  readonly versions: string[];
  deleted: boolean;
  tombstone?: string;
}

interface FeedModel {
  readonly products: Tracked[];
  /** Ids changed since the last poll of each list, in the order of their latest change. */
  readonly pending: { all: string[]; live: string[] };
}

interface FeedReal {
  readonly ctx: RuleContext;
  readonly limit: number;
  readonly ids: Set<string>;
  readonly all: Poller;
  readonly live: Poller;
}

type FeedCommand = fc.AsyncCommand<FeedModel, FeedReal>;

const MAX_PRODUCTS = 4;

function changed(m: FeedModel, id: string): void {
  for (const list of [m.pending.all, m.pending.live]) {
    const at = list.indexOf(id);
    if (at !== -1) list.splice(at, 1);
    list.push(id);
  }
}

const last = (t: Tracked) => t.versions[t.versions.length - 1] as string;

class CreateProduct implements FeedCommand {
  constructor(readonly price: number) {}
  check(m: Readonly<FeedModel>): boolean {
    return m.products.length < MAX_PRODUCTS;
  }
  async run(m: FeedModel, r: FeedReal): Promise<void> {
    const p = await createProduct(r.ctx, { retail_price: this.price });
    r.ctx.check(typeof p.version === "string", "a created product with a version", show(p.version));
    const id = (p.id as string).toLowerCase();
    r.ids.add(id);
    m.products.push({ id, sku: p.sku, versions: [p.version], deleted: false });
    changed(m, id);
  }
  toString(): string {
    return `create(retail_price ${this.price})`;
  }
}

class UpdateProduct implements FeedCommand {
  constructor(
    readonly target: number,
    readonly price: number,
  ) {}
  check(m: Readonly<FeedModel>): boolean {
    return m.products.length > 0;
  }
  async run(m: FeedModel, r: FeedReal): Promise<void> {
    const t = m.products[this.target % m.products.length] as Tracked;
    const reply = await r.ctx.call("PATCH", `/products/${t.id}`, {
      body: { name: r.ctx.name("feed"), retail_price: this.price },
    });
    if (t.deleted) {
      expectError(r.ctx, reply, 404, "NOT_FOUND", undefined, "PATCH of a deleted product");
      return;
    }
    r.ctx.check(
      reply.status === 200,
      `PATCH /products/${t.id}: status 200`,
      `status ${reply.status} ${reply.text.slice(0, 200)}`,
    );
    t.versions.push(expectNewVersion(r.ctx, dataOf<Product>(reply)?.version, t.versions, `PATCH /products/${t.id}`));
    changed(m, t.id);
  }
  toString(): string {
    return `update(#${this.target}, retail_price ${this.price})`;
  }
}

class DeleteProduct implements FeedCommand {
  constructor(readonly target: number) {}
  check(m: Readonly<FeedModel>): boolean {
    return m.products.length > 0;
  }
  async run(m: FeedModel, r: FeedReal): Promise<void> {
    const t = m.products[this.target % m.products.length] as Tracked;
    const reply = await r.ctx.call("DELETE", `/products/${t.id}`);
    if (t.deleted) {
      expectError(r.ctx, reply, 404, "NOT_FOUND", undefined, "DELETE of a deleted product");
      return;
    }
    r.ctx.check(
      reply.status === 204 && reply.text === "",
      `DELETE /products/${t.id}: 204 with no body`,
      `status ${reply.status} ${reply.text.slice(0, 200)}`,
    );
    t.deleted = true;
    changed(m, t.id);
  }
  toString(): string {
    return `delete(#${this.target})`;
  }
}

class PollFeed implements FeedCommand {
  constructor(readonly includeDeleted: boolean) {}
  check(): boolean {
    return true;
  }
  run(m: FeedModel, r: FeedReal): Promise<void> {
    return poll(m, r, this.includeDeleted);
  }
  toString(): string {
    return `poll(${this.includeDeleted ? "include_deleted=true" : "live"})`;
  }
}

/** Polls one list from its held cursor and compares our rows with the model. */
async function poll(m: FeedModel, r: FeedReal, includeDeleted: boolean): Promise<void> {
  const { ctx } = r;
  const list = includeDeleted ? "GET /products?include_deleted=true" : "GET /products";
  const rows = ours(await (includeDeleted ? r.all : r.live).poll(ctx, r.limit), r.ids);
  const byId = new Map(m.products.map((t) => [t.id, t]));
  const expected = includeDeleted ? m.pending.all : m.pending.live.filter((id) => !byId.get(id)?.deleted);
  const got = rows.map((row) => String(row.id).toLowerCase());
  ctx.check(
    JSON.stringify(got) === JSON.stringify(expected),
    `${list} from the held cursor: each product changed since the last poll exactly once, oldest change first: ${show(expected)}`,
    show(
      rows.map((row) => ({
        id: row.id,
        version: row.version,
        ...(row.deleted_at ? { deleted_at: row.deleted_at } : {}),
      })),
    ),
  );
  for (const row of rows) {
    const t = byId.get(String(row.id).toLowerCase()) as Tracked;
    if (t.deleted) {
      expectTombstone(ctx, row, t.id, list);
      if (t.tombstone !== undefined)
        ctx.check(
          row.version === t.tombstone,
          `${list}: the tombstone at version ${t.tombstone} again`,
          show(row.version),
        );
      else expectNewVersion(ctx, row.version, t.versions, `${list}: the tombstone of ${t.id}`);
      t.tombstone = row.version;
    } else {
      ctx.check(
        row.version === last(t) && row.sku === t.sku,
        `${list}: product ${t.id} at version ${last(t)}`,
        show({ version: row.version, sku: row.sku }),
      );
    }
  }
  if (includeDeleted) m.pending.all.length = 0;
  else m.pending.live.length = 0;
}

const command: fc.Arbitrary<FeedCommand> = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 99_999 }).map((price) => new CreateProduct(price)), weight: 3 },
  {
    arbitrary: fc
      .tuple(fc.nat(MAX_PRODUCTS - 1), fc.integer({ min: 0, max: 99_999 }))
      .map(([t, price]) => new UpdateProduct(t, price)),
    weight: 3,
  },
  { arbitrary: fc.nat(MAX_PRODUCTS - 1).map((t) => new DeleteProduct(t)), weight: 2 },
  { arbitrary: fc.boolean().map((b) => new PollFeed(b)), weight: 2 },
);

export const feedRules: Rule[] = [
  rule({
    id: "catalog.feed-model",
    area: "Catalog",
    title:
      "Polling the product feed from a held cursor sees every change once, oldest first, at rising versions; deletes as tombstones with include_deleted",
    spec: {
      section: SPEC.paging,
      quote: "Rows come oldest change first.",
    },
    cost: 80,
    leniency:
      "Rows of other products (other clients) are ignored; a product changed twice between polls shows once at its latest version; the last page may come without a cursor (its rows then come again and count once).",
    async run(ctx) {
      const arb = fc.record({
        limit: fc.integer({ min: 1, max: 3 }),
        price: fc.integer({ min: 0, max: 99_999 }),
        commands: fc.array(command, { minLength: 2, maxLength: 12 }),
      });
      await ctx.property(
        arb,
        async ({ limit, price, commands }) => {
          const real: FeedReal = {
            ctx,
            limit,
            ids: new Set(),
            all: await Poller.atEnd(ctx, true),
            live: await Poller.atEnd(ctx, false),
          };
          const model: FeedModel = { products: [], pending: { all: [], live: [] } };
          // One product from the start, so updates and deletes always have a target.
          await new CreateProduct(price).run(model, real);
          await fc.asyncModelRun(() => ({ model, real }), commands);
          await poll(model, real, true);
          await poll(model, real, false);
          real.all.save(ctx);
          real.live.save(ctx);
        },
        Math.min(ctx.run.runs, 5),
      );
    },
  }),
];
