import { bodyText, mapJson, withBody, type Mutant } from "./base.js";

// Broken stock writes: each violates one inventory rule of the spec.

const BATCH = /^\/[^/]+\/v1\/inventory\/batch$/;
const STOCK_SET = /^\/[^/]+\/v1\/products\/[^/]+\/inventory\/[^/]+$/;

export const inventoryMutants: readonly Mutant[] = [
  {
    name: "batch-writes-half",
    breaks: "Inventory 3: a batch is all or nothing (this one writes the lines before the bad one)",
    caughtBy: ["inventory.batch-all-or-nothing"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "POST" || !BATCH.test(req.path) || res.status < 400 || typeof res.body !== "string")
        return res;
      const fields = (JSON.parse(res.body)?.error?.fields ?? []) as { field: string }[];
      const bad = fields
        .map((f) => /^lines\.(\d+)/.exec(f.field)?.[1])
        .filter((n): n is string => n !== undefined)
        .map(Number);
      const n = Math.min(...bad);
      if (!(n > 0 && n < Infinity)) return res;
      const lines = (JSON.parse(bodyText(req)) as { lines: unknown[] }).lines.slice(0, n);
      await next({
        ...withBody(req, { lines }),
        headers: { ...req.headers, "idempotency-key": `${req.headers["idempotency-key"]}-half` },
      });
      return res;
    },
  },
  {
    name: "batch-replay-not-marked",
    breaks: "Inventory 3: a replayed batch marks every line replayed: true",
    caughtBy: ["inventory.batch-replay"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!BATCH.test(req.path) || res.headers["idempotent-replayed"] !== "true") return res;
      return mapJson(res, (b) =>
        Array.isArray(b?.data) ? { ...b, data: b.data.map((line: object) => ({ ...line, replayed: false })) } : b,
      );
    },
  },
  {
    name: "stock-repeat-reports-change",
    breaks: "Inventory 1: repeating the same on_hand changes nothing (changed false)",
    caughtBy: ["inventory.set-result"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "PUT" || !STOCK_SET.test(req.path)) return res;
      return mapJson(res, (b) => (b?.data?.delta === 0 ? { ...b, data: { ...b.data, changed: true } } : b));
    },
  },
  {
    name: "stock-two-decimals",
    breaks: "Resources, InventoryLevel: on_hand keeps up to 3 decimal places (this one rounds sets to 2)",
    caughtBy: ["inventory.quantity-three-decimals"],
    wrap: (next) => async (req) => {
      if (req.method !== "PUT" || !STOCK_SET.test(req.path)) return next(req);
      const body = JSON.parse(bodyText(req) || "{}");
      if (typeof body.on_hand !== "number") return next(req);
      return next(withBody(req, { ...body, on_hand: Math.round(body.on_hand * 100) / 100 }));
    },
  },
];
