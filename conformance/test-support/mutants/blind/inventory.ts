import type { Mutant } from "../base.js";
import {
  bodyJson,
  errorCode,
  isReset,
  json,
  keyOf,
  on,
  prefixOf,
  re,
  reError,
  withBody,
  withJson,
  withKey,
} from "./util.js";

// Blind mutants of stock writes and reads (Inventory rules, InventoryLevel, batch results).

const BATCH = re("/inventory/batch");
const STOCK_SET = re("/products/:id/inventory/:id");
const LEVELS = re("/products/:id/inventory");

export const inventoryMutants: readonly Mutant[] = [
  {
    name: "blind.batch-key-optional",
    breaks:
      'Limits, Idempotency: "Idempotency-Key is required on POST /inventory/adjustments and POST /inventory/batch" (the batch makes one up when it is missing)',
    caughtBy: ["inventory.idempotency-key-required"],
    wrap: (next) => {
      let n = 0;
      return async (req) =>
        on(req, "POST", BATCH) && req.headers["idempotency-key"] === undefined
          ? next(withKey(req, `server-${++n}-${Date.now()}`))
          : next(req);
    },
  },
  {
    name: "blind.batch-sku-case-sensitive",
    breaks:
      'Inventory rules 2: "A sku is matched case-insensitively against live products only, never against barcodes." (an exact, case-sensitive match)',
    caughtBy: ["inventory.batch-sku-matching"],
    wrap: (next) => async (req) => {
      const body = bodyJson(req);
      if (
        !on(req, "POST", BATCH) ||
        !Array.isArray(body?.lines) ||
        !body.lines.some((l: any) => typeof l?.sku === "string")
      )
        return next(req);
      const prefix = prefixOf(req) as string;
      const token = await keyOf(next, req, prefix, "full");
      if (!token) return next(req);
      const lines = [];
      for (const line of body.lines.slice(0, 100)) {
        if (typeof line?.sku !== "string") {
          lines.push(line);
          continue;
        }
        const look = await next({
          ...req,
          method: "GET",
          path: `/${prefix}/v1/products`,
          query: `sku=${encodeURIComponent(line.sku)}`,
          headers: { authorization: `Bearer ${token}` },
          body: null,
        });
        const exact = (json(look)?.data ?? []).some((p: { sku: string }) => p.sku === line.sku);
        lines.push(exact ? line : { ...line, sku: `${line.sku}\u0000` });
      }
      return next(withBody(req, { ...body, lines: [...lines, ...body.lines.slice(100)] }));
    },
  },
  {
    name: "blind.outlet-deleted-legacy-unprocessable",
    breaks:
      'Inventory rules 5: "422 OUTLET_DELETED (nothing written; a batch writes no lines)" (still the old 422 UNPROCESSABLE)',
    caughtBy: ["inventory.outlet-deleted"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return errorCode(res) === "OUTLET_DELETED"
        ? reError(res, 422, "UNPROCESSABLE", { fields: json(res).error.fields })
        : res;
    },
  },
  {
    name: "blind.batch-outlet-deleted-writes-other-lines",
    breaks:
      'Inventory rules 5: "422 OUTLET_DELETED (nothing written; a batch writes no lines)" (the lines at live outlets are written)',
    caughtBy: ["inventory.outlet-deleted"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const body = bodyJson(req);
      if (
        !on(req, "POST", BATCH) ||
        errorCode(res) !== "OUTLET_DELETED" ||
        res.headers["idempotent-replayed"] === "true" ||
        !Array.isArray(body?.lines)
      )
        return res;
      const key = req.headers["idempotency-key"];
      let i = 0;
      for (const line of body.lines.slice(0, 100))
        await next(withKey(withBody(req, { lines: [line] }), `${key}.line${i++}`));
      return res;
    },
  },
  {
    name: "blind.insufficient-stock-409",
    breaks: 'Inventory rules 5: "Refusals: 422 INSUFFICIENT_STOCK (would go below zero)" (answered 409)',
    caughtBy: ["inventory.insufficient-stock"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return errorCode(res) === "INSUFFICIENT_STOCK" && res.status === 422 ? { ...res, status: 409 } : res;
    },
  },
  {
    name: "blind.set-ignores-unit-cost",
    breaks:
      'Inventory rules 4: "unit_cost (integer cents): on a set, it becomes the outlet\'s average cost" (PUT drops it)',
    caughtBy: ["inventory.unit-cost-accepted", "inventory.unit-cost-average"],
    wrap: (next) => async (req) => {
      const body = bodyJson(req);
      if (!on(req, "PUT", STOCK_SET) || !body || typeof body !== "object" || !Number.isInteger(body.unit_cost))
        return next(req);
      const { unit_cost: _cost, ...rest } = body;
      return next(withBody(req, rest));
    },
  },
  {
    name: "blind.batch-sku-not-echoed",
    breaks: 'Resources, InventoryBatchLineResult: "sku is echoed only when the line was given by sku." (never echoed)',
    caughtBy: ["inventory.batch-sku-matching"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (!on(req, "POST", BATCH) || res.status >= 300) return res;
      const b = json(res);
      if (!Array.isArray(b?.data)) return res;
      return withJson(res, { ...b, data: b.data.map(({ sku: _sku, ...line }: any) => line) });
    },
  },
  {
    name: "blind.levels-keep-deleted-outlets",
    breaks:
      'Resources: "InventoryLevel (one row per live outlet where the product is stocked)" (a cached row of a deleted outlet stays)',
    caughtBy: ["inventory.outlet-deleted"],
    wrap: (next) => {
      const seen = new Map<string, Map<string, unknown>>();
      return async (req) => {
        if (isReset(req)) seen.clear();
        const res = await next(req);
        if (!on(req, "GET", LEVELS) || res.status !== 200) return res;
        const b = json(res);
        if (!Array.isArray(b?.data)) return res;
        const key = req.path.toLowerCase();
        const rows = seen.get(key) ?? new Map<string, unknown>();
        for (const row of b.data) rows.set(row.outlet_id, row);
        seen.set(key, rows);
        const live = new Set(b.data.map((r: { outlet_id: string }) => r.outlet_id));
        return withJson(res, {
          ...b,
          data: [...b.data, ...[...rows.entries()].filter(([id]) => !live.has(id)).map(([, row]) => row)],
        });
      };
    },
  },
];
