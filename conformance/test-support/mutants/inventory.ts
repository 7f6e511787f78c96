import type { SimRequest } from "../../../src/http/types.js";
import { bodyOf, bodyText, mapJson, withBody, type Mutant } from "./base.js";
import { API_PATH, CONTROL_PATH, answer, apiError, codeOf, jsonOf, textOf, withText } from "./support.js";

// Broken stock writes, unit costs and batches: each violates one inventory rule of the spec.

const BATCH = /^\/[^/]+\/v1\/inventory\/batch$/;
const STOCK_SET = /^\/[^/]+\/v1\/products\/[^/]+\/inventory\/[^/]+$/;
const ADJUSTMENTS = /^\/[^/]+\/v1\/inventory\/adjustments$/;
const LEVELS = API_PATH("/products/([^/]+)/inventory");
const STOCK_WRITE = [
  API_PATH("/products/[^/]+/inventory/[^/]+"),
  API_PATH("/inventory/adjustments"),
  API_PATH("/inventory/batch"),
];
const REASON = CONTROL_PATH("/stores/[^/]+/adjustment-reasons/([^/]+)");

/** The JSON body of a request, or undefined when it is not a JSON object. */
function jsonBody(req: SimRequest): Record<string, unknown> | undefined {
  try {
    const body = JSON.parse(bodyText(req));
    return typeof body === "object" && body !== null && !Array.isArray(body) ? body : undefined;
  } catch {
    return undefined;
  }
}

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
  {
    name: "adjustment-drops-unit-cost",
    breaks:
      "Inventory 4: unit_cost on an adjustment that raises stock is blended into the average (this one drops it: the average never moves)",
    caughtBy: ["inventory.unit-cost-average"],
    wrap: (next) => async (req) => {
      const body = req.method === "POST" && ADJUSTMENTS.test(req.path) ? jsonBody(req) : undefined;
      if (!body || !("unit_cost" in body)) return next(req);
      const { unit_cost: _dropped, ...rest } = body;
      return next(withText(req, JSON.stringify(rest)));
    },
  },
  {
    name: "set-without-cost-zeroes-average",
    breaks: "Inventory 4: a set without unit_cost keeps the average (this one defaults unit_cost to 0)",
    caughtBy: ["inventory.unit-cost-average"],
    wrap: (next) => async (req) => {
      const body = req.method === "PUT" && STOCK_SET.test(req.path) ? jsonBody(req) : undefined;
      if (!body || "unit_cost" in body) return next(req);
      return next(withText(req, JSON.stringify({ ...body, unit_cost: 0 })));
    },
  },
  {
    name: "adjustment-refuses-unit-cost",
    breaks:
      "Endpoints: POST /inventory/adjustments takes unit_cost? (this one still has the 1.0.0 schema and refuses the property with 400)",
    caughtBy: ["inventory.unit-cost-accepted"],
    wrap: (next) => async (req) => {
      const body = req.method === "POST" && ADJUSTMENTS.test(req.path) ? jsonBody(req) : undefined;
      if (!body || !("unit_cost" in body)) return next(req);
      // Answered as the older schema does: 400 VALIDATION_FAILED naming unit_cost.
      return next(withText(req, JSON.stringify({ ...body, unit_cost: "not part of this version" })));
    },
  },
  {
    name: "unit-cost-fraction-rounded",
    breaks:
      "Inventory 4 and What the service does 2: unit_cost is integer cents (this one rounds 12.5 to 13 instead of refusing it)",
    caughtBy: ["inventory.unit-cost-accepted"],
    wrap: (next) => async (req) => {
      const writes =
        (req.method === "PUT" && STOCK_SET.test(req.path)) || (req.method === "POST" && ADJUSTMENTS.test(req.path));
      const body = writes ? jsonBody(req) : undefined;
      if (!body || typeof body.unit_cost !== "number" || Number.isInteger(body.unit_cost)) return next(req);
      return next(withText(req, JSON.stringify({ ...body, unit_cost: Math.round(body.unit_cost) })));
    },
  },
  {
    name: "level-version-frozen",
    breaks:
      "Resources: a stock level's version increases with every change (this one keeps the version the level was created with)",
    caughtBy: ["inventory.level-version-rises"],
    wrap: (next) => {
      const first = new Map<string, string>();
      return async (req) => {
        const res = await next(req);
        const product = LEVELS.exec(req.path)?.[1];
        const page = jsonOf(res);
        if (req.method !== "GET" || product === undefined || res.status !== 200 || !Array.isArray(page?.data))
          return res;
        const data = page.data.map((row: any) => {
          const key = `${product}:${row.outlet_id}`;
          if (!first.has(key)) first.set(key, row.version);
          return { ...row, version: first.get(key) };
        });
        return answer(res, 200, { ...page, data });
      };
    },
  },
  {
    name: "batch-line-set-wins",
    breaks:
      "Inventory rules 2: a batch line has exactly one of set or adjust (this one applies the set of a line that has both)",
    caughtBy: ["inventory.batch-line-shape"],
    wrap: (next) => async (req) => {
      const body = bodyOf(req);
      if (req.method !== "POST" || !BATCH.test(req.path) || !Array.isArray(body?.lines)) return next(req);
      const lines = body.lines.map((line: any) =>
        line && typeof line === "object" && line.set !== undefined && line.adjust !== undefined
          ? { ...line, adjust: undefined }
          : line,
      );
      return next(withBody(req, { ...body, lines }));
    },
  },
  {
    name: "batch-empty-accepted",
    breaks: "Endpoints: a batch has 1 to 100 lines (this one answers a batch of no lines with 200 and no result)",
    caughtBy: ["inventory.batch-line-count"],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const body = bodyOf(req);
      return req.method === "POST" && BATCH.test(req.path) && Array.isArray(body?.lines) && body.lines.length === 0
        ? answer(res, 200, { data: [] })
        : res;
    },
  },
  {
    name: "disabled-reason-unknown",
    breaks:
      "Inventory rules 5: a disabled reason answers 422 REASON_NOT_ALLOWED (this one looks reasons up among enabled ones only and answers 422 UNPROCESSABLE)",
    caughtBy: ["inventory.disabled-reason-refused"],
    wrap: (next) => {
      const disabled = new Set<string>();
      return async (req) => {
        const res = await next(req);
        const reason = REASON.exec(req.path)?.[1]?.toLowerCase();
        if (reason !== undefined && req.method === "PATCH" && res.status === 200) {
          if (bodyOf(req)?.enabled === false) disabled.add(reason);
          else disabled.delete(reason);
          return res;
        }
        if (!STOCK_WRITE.some((p) => p.test(req.path)) || codeOf(res) !== "REASON_NOT_ALLOWED") return res;
        const text = textOf(req).toLowerCase();
        return [...disabled].some((id) => text.includes(id))
          ? apiError(res, 422, "UNPROCESSABLE", "Unknown adjustment reason.", [
              { field: "reason_id", message: "not found" },
            ])
          : res;
      };
    },
  },
];
