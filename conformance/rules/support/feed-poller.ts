import type { RuleContext, RunState } from "../../context.js";
import { Mismatch } from "../../outcomes.js";
import { type FeedRow, pageOf } from "../../shapes.js";
import { show } from "./catalog.js";

// The product feed of the catalog rules, polled from a held cursor.

/**
 * A polling client of `GET /products`: it holds its cursor between polls, keeps it on an empty page
 * (rule 2), and, where the last page of a poll came without a cursor (accepted by spec-choices), sees
 * that page's rows once more on the next poll and drops them as already seen.
 */
export class Poller {
  cursor: string | null = null;
  private again = new Set<string>();

  constructor(readonly includeDeleted: boolean) {}

  async poll(ctx: RuleContext, limit = 200): Promise<FeedRow[]> {
    const skip = this.again;
    this.again = new Set();
    const rows: FeedRow[] = [];
    const list = `/products?limit=${limit}${this.includeDeleted ? "&include_deleted=true" : ""}`;
    for (let pages = 0; ; pages++) {
      if (pages > 2000) throw new Mismatch(`${list}: the feed to end`, "more than 2000 pages");
      const reply = await ctx.call("GET", `${list}${this.cursor ? `&cursor=${encodeURIComponent(this.cursor)}` : ""}`);
      ctx.status(reply, 200);
      const page = pageOf<FeedRow>(reply);
      const { next_cursor, has_more } = page ?? {};
      if (!page || typeof has_more !== "boolean" || !(next_cursor === null || typeof next_cursor === "string"))
        throw new Mismatch(`${list}: {data: [...], next_cursor, has_more}`, reply.text.slice(0, 300));
      const data = page.data;
      if (has_more)
        ctx.check(
          typeof next_cursor === "string" && data.length > 0,
          `${list}: a cursor on a page with has_more true`,
          show({ next_cursor, rows: data.length }),
        );
      const keys = data.map((r) => `${String(r?.id).toLowerCase()}@${r?.version}`);
      data.forEach((row, i) => {
        if (skip.has(keys[i] as string)) skip.delete(keys[i] as string);
        else rows.push(row);
      });
      if (typeof next_cursor === "string") this.cursor = next_cursor;
      else for (const k of keys) this.again.add(k);
      if (!has_more) return rows;
    }
  }

  /** Remembers where this client got to, for the next rule that needs the end of the feed. */
  save(ctx: RuleContext): void {
    tails.set(ctx.run, {
      ...tails.get(ctx.run),
      [String(this.includeDeleted)]: { cursor: this.cursor, again: [...this.again] },
    });
  }

  /** A poller at the end of the feed (the polls in between are thrown away). */
  static async atEnd(ctx: RuleContext, includeDeleted: boolean): Promise<Poller> {
    const poller = new Poller(includeDeleted);
    const saved = tails.get(ctx.run)?.[String(includeDeleted)];
    if (saved) {
      poller.cursor = saved.cursor;
      poller.again = new Set(saved.again);
    }
    await poller.poll(ctx);
    poller.save(ctx);
    return poller;
  }
}

const tails = new WeakMap<RunState, Record<string, { cursor: string | null; again: string[] }>>();

/** Our rows of a poll (by id), in feed order. */
export const ours = <T extends { readonly id?: unknown }>(rows: readonly T[], ids: ReadonlySet<string>): T[] =>
  rows.filter((r) => typeof r?.id === "string" && ids.has(r.id.toLowerCase()));
