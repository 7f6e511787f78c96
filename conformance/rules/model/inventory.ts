import fc from "fast-check";
import { bodyDefect, idDefect, keyDefect, made, drawn, accessDefects } from "./defects.js";
import type { Sent } from "../../model/translate.js";
import { bodyOf, type Command, command, is2xx, type Row, Session, withBody } from "./session.js";
import { dataOf, idOf, type InventoryLevel, rowsOf, type StockWrite } from "../../shapes.js";

// Generated stock requests: absolute sets, relative adjustments and batches, at quantities with up to 3
// decimals, with reasons of every kind (the system one, disabled ones, either direction), products that
// track no stock, deleted products, SKUs in another case, lines at and past the batch cap of 100.

const QUANTITIES = [0, 1, 5, 0.001, 12.345, 1_000_000, 2.5] as const;
const DELTAS = [-1000, -1, -0.5, 0.001, 1, 7.25] as const;

/** A product: tracked, untracked, deleted, a variant parent or a composite; n-th of its kind. */
const productKind = fc.constantFrom("tracked", "tracked", "untracked", "deleted", "parent", "any");
function product(s: Session, kind: string, n: number): Row | undefined {
  // Stock is written only on the run's own products (a refusal changes nothing, so any row may be refused).
  const where = (r: Row) => {
    const d = r.doc ?? {};
    if (kind === "deleted") return !r.live;
    if (!r.live || !r.ours) return false;
    if (kind === "tracked") return d.has_inventory !== false;
    if (kind === "untracked") return d.has_inventory === false;
    if (kind === "parent") return d.has_variants === true || (d.components ?? []).length > 0;
    return true;
  };
  return s.pick("products", n, where) ?? s.pick("products", n, Session.mine);
}

/** A reason of the kind asked (none: left out); the reasons list shows every reason of the store. */
function reason(s: Session, kind: string, n: number): string | undefined {
  if (kind === "none") return undefined;
  if (kind === "unknown") return "5e9d1c2b-3a4f-4b6e-8d7c-0f1e2d3c4b5a";
  const system = (r: Row) => r.doc?.is_system === true;
  const row = kind === "system" ? s.pick("reasons", n, system) : s.pick("reasons", n, (r) => !system(r));
  return row?.id;
}
const reasonKind = fc.constantFrom("none", "any", "any", "system", "unknown");

const outlet = (s: Session, n: number) => s.pick("outlets", n)?.id;

/** A reason for a change in this direction, as the reasons list types it (the simulator's `increase`, `decrease` or `any`). */
const reasonFor = (s: Session, up: boolean): string | undefined =>
  (
    s.pick("reasons", 0, (r) => r.doc?.is_system !== true && r.doc?.type === (up ? "increase" : "decrease")) ??
    s.pick("reasons", 0, (r) => r.doc?.is_system !== true && r.doc?.type === "any")
  )?.id;

/** A SKU as a batch line or adjustment may give it: as stored, in another case, or one no product has. */
function skuForm(s: Session, row: Row | undefined, form: string): string {
  const sku = String(row?.doc?.sku ?? s.name("no-such-sku"));
  if (form === "lower") return sku.toLowerCase();
  if (form === "upper") return sku.toUpperCase();
  if (form === "unknown") return s.name("no-such-sku");
  return sku;
}

const setStock = fc
  .record({
    kind: productKind,
    pick: fc.nat(),
    outlet: fc.nat(),
    onHand: fc.oneof(fc.constantFrom(...QUANTITIES), fc.constantFrom("same", "negative", "four decimals")),
    reason: reasonKind,
    cost: fc.constantFrom(undefined, 0, 150, 99_999),
    key: fc.constantFrom("none", "fresh", "replay"),
    defects: accessDefects("inventory:write", [
      drawn((s, n) => idDefect(s, n, n % 2)),
      drawn((_s, n) => bodyDefect(n, ["on_hand", "unit_cost"])),
    ]),
  })
  .map((c) =>
    command(
      `setStock(${c.kind} ${c.pick}, on_hand ${c.onHand}, reason ${c.reason}, unit_cost ${c.cost}, key ${c.key}, ${c.defects.length} defects)`,
      async (s) => {
        const p = product(s, c.kind, c.pick);
        const o = outlet(s, c.outlet);
        if (!p || !o) return;
        const current = s.levels.get(`${p.id}/${o}`) ?? 0;
        const onHand =
          c.onHand === "same"
            ? current
            : c.onHand === "negative"
              ? -1
              : c.onHand === "four decimals"
                ? 1.2345
                : c.onHand;
        const body: Record<string, unknown> = { on_hand: onHand };
        const r = reason(s, c.reason, c.pick);
        if (r) body.reason_id = r;
        if (c.cost !== undefined) body.unit_cost = c.cost;
        const path = `/products/${p.id}/inventory/${o}`;
        const previous = s.keyed.filter((k) => k.path === path).at(-1);
        const key = c.key === "replay" && previous ? previous.key : c.key === "none" ? undefined : s.name("key");
        const base = s.request(
          "PUT",
          path,
          c.key === "replay" && previous ? JSON.parse(previous.body) : body,
          key ? { "idempotency-key": key } : {},
        );
        const reply = await s.sendWith(base, made(s, c.defects), repairs(s, base, c.pick));
        const level: unknown = dataOf<StockWrite>(reply)?.on_hand;
        if (is2xx(reply) && typeof level === "number") s.levels.set(`${p.id}/${o}`, level);
        if (key && base.body) s.keyed.push({ method: "PUT", path, key, body: base.body, token: s.ctx.token });
      },
    ),
  );

const adjust = fc
  .record({
    kind: productKind,
    pick: fc.nat(),
    bySku: fc.constantFrom("id", "sku", "lower", "upper", "unknown"),
    outlet: fc.nat(),
    quantity: fc.constantFrom(...DELTAS),
    reason: fc.constantFrom("any", "any", "system", "unknown", "none"),
    cost: fc.constantFrom(undefined, 0, 150),
    key: fc.constantFrom("fresh", "fresh", "replay", "reuse"),
    defects: accessDefects("inventory:write", [
      drawn((_s, n) => keyDefect(n, true)),
      drawn((_s, n) => bodyDefect(n, ["quantity", "reason_id", "outlet_id"])),
    ]),
  })
  .map((c) =>
    command(
      `createAdjustment(${c.kind} ${c.pick} by ${c.bySku}, quantity ${c.quantity}, reason ${c.reason}, unit_cost ${c.cost}, key ${c.key}, ${c.defects.length} defects)`,
      async (s) => {
        const p = product(s, c.kind, c.pick);
        const o = outlet(s, c.outlet);
        if (!p || !o) return;
        const body: Record<string, unknown> = c.bySku === "id" ? { product_id: p.id } : { sku: skuForm(s, p, c.bySku) };
        Object.assign(body, { outlet_id: o, quantity: c.quantity });
        const r = reason(s, c.reason, c.pick);
        if (r) body.reason_id = r;
        if (c.cost !== undefined) body.unit_cost = c.cost;
        const previous = s.keyed.filter((k) => k.path === "/inventory/adjustments").at(-1);
        const key = previous && c.key !== "fresh" ? previous.key : s.name("key");
        const sent = c.key === "replay" && previous ? previous.body : JSON.stringify(body);
        const base = s.request("POST", "/inventory/adjustments", sent, { "idempotency-key": key });
        const reply = await s.sendWith(base, made(s, c.defects), repairs(s, base, c.pick));
        if (is2xx(reply)) s.levels.delete(`${p.id}/${o}`);
        s.keyed.push({ method: "POST", path: "/inventory/adjustments", key, body: sent, token: s.ctx.token });
      },
    ),
  );

/**
 * Stock writes with the problems of the request itself fixed one at a time (spec-choices, Order of
 * refusals: "any order"): a tracked product of the run, no reason or a valid one, a quantity that
 * keeps the level at or above zero; for a batch, each line alone.
 */
function repairs(s: Session, req: Sent, n: number): Sent[] {
  const body = bodyOf(req);
  if (body === null || typeof body !== "object") return [];
  const tracked = s.pick(
    "products",
    n,
    (r) => Session.mine(r) && r.doc?.has_inventory !== false && r.doc?.has_variants !== true,
  );
  const fix = (f: (b: any) => unknown): Sent => withBody(req, f(structuredClone(body)) ?? body);
  if (Array.isArray(body.lines)) return body.lines.map((line: unknown) => withBody(req, { lines: [line] }));
  const out: Sent[] = [];
  if (req.method === "PUT" && tracked)
    out.push({ ...req, url: req.url.replace(/\/products\/[^/]+/, `/products/${tracked.id}`) });
  if (tracked && ("product_id" in body || "sku" in body))
    out.push(
      fix((b) => {
        delete b.sku;
        b.product_id = tracked.id;
      }),
    );
  const up = typeof body.quantity === "number" ? body.quantity > 0 : true;
  out.push(
    fix((b) => {
      if (req.method === "PUT") delete b.reason_id;
      else b.reason_id = reasonFor(s, up);
    }),
  );
  if (typeof body.quantity === "number") out.push(fix((b) => void (b.quantity = Math.abs(b.quantity) || 1)));
  if (typeof body.on_hand === "number") out.push(fix((b) => void (b.on_hand = 1)));
  return out;
}

const batch = fc
  .record({
    lines: fc.oneof(
      { weight: 5, arbitrary: fc.integer({ min: 1, max: 4 }) },
      { weight: 1, arbitrary: fc.constantFrom(0, 100, 101) },
    ),
    forms: fc.array(
      fc.record({
        kind: productKind,
        pick: fc.nat(),
        by: fc.constantFrom("id", "sku", "lower", "upper", "unknown"),
        set: fc.boolean(),
        outlet: fc.nat(),
        amount: fc.constantFrom(...QUANTITIES),
        delta: fc.constantFrom(...DELTAS),
        reason: reasonKind,
        cost: fc.constantFrom(undefined, 0, 75),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    duplicate: fc.boolean(),
    key: fc.constantFrom("fresh", "fresh", "replay", "reuse"),
    defects: accessDefects("inventory:write", [
      drawn((_s, n) => keyDefect(n, true)),
      drawn((_s, n) => bodyDefect(n, ["lines"])),
    ]),
  })
  .map((c) =>
    command(
      `stockBatch(${c.lines} lines${c.duplicate ? ", a pair repeated" : ""}, key ${c.key}, ${c.defects.length} defects)`,
      async (s) => {
        const lines: Record<string, unknown>[] = [];
        const pairs = new Set<string>();
        for (let i = 0; i < c.lines; i++) {
          const f = c.forms[i % c.forms.length] as (typeof c.forms)[number];
          // Past the forms given, lines name SKUs no product has (a bad line: the batch writes nothing).
          const p = i < c.forms.length ? product(s, f.kind, f.pick + i) : undefined;
          const o = outlet(s, f.outlet + i);
          if (!o) return;
          const by = p ? f.by : "unknown";
          const line: Record<string, unknown> = by === "id" && p ? { product_id: p.id } : { sku: skuForm(s, p, by) };
          const pair = `${p?.id ?? line.sku}/${o}`;
          if (pairs.has(pair) && !(c.duplicate && i === 1)) continue;
          pairs.add(pair);
          line.outlet_id = o;
          const r = reason(s, f.reason, f.pick);
          line[f.set ? "set" : "adjust"] = f.set
            ? {
                on_hand: f.amount,
                ...(f.cost === undefined ? {} : { unit_cost: f.cost }),
                ...(r ? { reason_id: r } : {}),
              }
            : {
                quantity: f.delta,
                ...(f.cost === undefined ? {} : { unit_cost: f.cost }),
                ...(r ? { reason_id: r } : {}),
              };
          lines.push(line);
        }
        if (c.duplicate && lines[0]) lines.push({ ...lines[0] });
        const previous = s.keyed.filter((k) => k.path === "/inventory/batch").at(-1);
        const key = previous && c.key !== "fresh" ? previous.key : s.name("key");
        const sent = c.key === "replay" && previous ? previous.body : JSON.stringify({ lines });
        const base = s.request("POST", "/inventory/batch", sent, { "idempotency-key": key });
        const reply = await s.sendWith(base, made(s, c.defects), repairs(s, base, 0));
        if (is2xx(reply)) s.levels.clear();
        s.keyed.push({ method: "POST", path: "/inventory/batch", key, body: sent, token: s.ctx.token });
      },
    ),
  );

const levels = fc
  .record({
    kind: productKind,
    pick: fc.nat(),
    reasons: fc.boolean(),
    defects: accessDefects("inventory:read", [drawn((s, n) => idDefect(s, n))]),
  })
  .map((c) =>
    command(
      `${c.reasons ? "listAdjustmentReasons" : `getProductInventory(${c.kind} ${c.pick})`}, ${c.defects.length} defects`,
      async (s) => {
        if (c.reasons) {
          await s.sendWith(s.request("GET", "/inventory/adjustment-reasons"), made(s, c.defects.slice(0, 1)));
          return;
        }
        const p = product(s, c.kind, c.pick);
        if (!p) return;
        const reply = await s.sendWith(s.request("GET", `/products/${p.id}/inventory`), made(s, c.defects));
        if (reply.status === 200)
          for (const l of rowsOf<InventoryLevel>(reply) ?? []) s.levels.set(`${p.id}/${l.outlet_id}`, l.on_hand);
      },
    ),
  );

export const INVENTORY_COMMANDS: fc.Arbitrary<Command> = fc.oneof(
  { weight: 3, arbitrary: setStock },
  { weight: 3, arbitrary: adjust },
  { weight: 3, arbitrary: batch },
  { weight: 2, arbitrary: levels },
);

/**
 * A level's story on one of the run's products: an absolute set (with a cost), adjustments up (with a
 * cost, blended) and down, the same level set again, and the levels read at each step (Inventory rules
 * 1 and 4). Or a product with a non-ASCII SKU written by batch lines and adjustments naming it in
 * another case (Inventory rules 2: "matched case-insensitively").
 */
const story = fc
  .record({
    kind: fc.constantFrom("levels", "levels", "sku case", "100 lines", "101 lines"),
    down: fc.boolean(),
    start: fc.constantFrom(0, 3, 10.5),
    up: fc.constantFrom(1, 2.25, 40),
    costs: fc.tuple(fc.constantFrom(100, 250), fc.constantFrom(90, 400, 1)),
    n: fc.nat(),
  })
  .map((c) =>
    command(`stock ${c.kind} (start ${c.start}, up ${c.up}, costs ${c.costs.join("/")})`, async (s) => {
      const o = outlet(s, c.n);
      if (!o) return;
      if (c.kind === "100 lines" || c.kind === "101 lines") {
        // Spec, Limits: "Batch lines | 100": the hundredth line is a line like any other (here one that names
        // no product, so the batch is refused for it), the 101st one too many.
        const lines = Array.from({ length: c.kind === "100 lines" ? 100 : 101 }, (_, i) => ({
          sku: s.name(`none-${i}`),
          outlet_id: o,
          set: { on_hand: 1 },
        }));
        await s.send(s.request("POST", "/inventory/batch", { lines }, { "idempotency-key": s.name("key") }));
        return;
      }
      const sku = c.kind === "sku case" ? `Ärm-Ölçü-${s.name("x").slice(-6)}` : s.name("SKU");
      const made = await s.send(
        s.request("POST", "/products", { name: s.name("product"), retail_price: 100, sku, has_inventory: true }),
      );
      const id = idOf(made);
      if (!is2xx(made) || id === undefined) return;
      s.learn("products", dataOf(made), true);
      s.ctx.track(`/products/${id}`);
      const key = () => ({ "idempotency-key": s.name("key") });
      const read = () => s.send(s.request("GET", `/products/${id}/inventory`));
      if (c.kind === "sku case") {
        await s.send(
          s.request(
            "POST",
            "/inventory/batch",
            { lines: [{ sku: sku.toLowerCase(), outlet_id: o, set: { on_hand: c.start } }] },
            key(),
          ),
        );
        await s.send(
          s.request(
            "POST",
            "/inventory/adjustments",
            { sku: sku.toUpperCase(), outlet_id: o, quantity: c.up, reason_id: reasonFor(s, true) },
            key(),
          ),
        );
        await read();
        return;
      }
      await s.send(s.request("PUT", `/products/${id}/inventory/${o}`, { on_hand: c.start, unit_cost: c.costs[0] }));
      await s.send(
        s.request(
          "POST",
          "/inventory/adjustments",
          { product_id: id, outlet_id: o, quantity: c.up, unit_cost: c.costs[1], reason_id: reasonFor(s, true) },
          key(),
        ),
      );
      await read();
      if (c.down)
        await s.send(
          s.request(
            "POST",
            "/inventory/adjustments",
            { product_id: id, outlet_id: o, quantity: -c.up, reason_id: reasonFor(s, false) },
            key(),
          ),
        );
      // The same level again: a change after an adjustment, none after one that was undone (Inventory rules 1).
      await s.send(s.request("PUT", `/products/${id}/inventory/${o}`, { on_hand: c.start }));
      await read();
    }),
  );

export const STOCK_STORIES: fc.Arbitrary<Command> = story;
