import type { Mutant } from "../base.js";
import {
  eachObject,
  isControl,
  jsonOf,
  liveRows,
  mapBodyText,
  mapQuery,
  mapResponseJson,
  mapResponseText,
  storeState,
  sub,
} from "./support.js";

// Honest variants that shape answers differently where the spec does not fix the shape: statuses of
// creates, the precision of timestamps, fields beyond those listed, values "not shown", the
// shapes of /store, /taxes and /openapi.json, a product's tags with their version, and the layout of
// JSON. Each quotes the sentence that leaves the choice open.

/** A UTC date-time with milliseconds as the simulator writes it, inside a JSON string. */
const MILLIS = /"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{3})Z"/g;

/** The same JSON value with the keys of every object in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversed(v)]),
  );
}

/** Outlet status values of this server (spec-choices: ours are `active` and `inactive`). */
const OUTLET_STATUS: Record<string, string> = { active: "open", inactive: "closed" };
/** Adjustment reason types of this server (spec-choices: ours are `increase`, `decrease`, `any`). */
const REASON_TYPE: Record<string, string> = { increase: "stock_in", decrease: "stock_out", any: "either" };

const PRODUCT_WRITE = /^\/products(\/[^/]+)?$/;

/** Product documents (they alone carry both sku and tags) under an answer's data. */
const productsIn = (body: any): Record<string, any>[] => {
  const found: Record<string, any>[] = [];
  eachObject(body?.data, (o) => Array.isArray(o.tags) && "sku" in o && found.push(o));
  return found;
};

export const shapeVariants: readonly Mutant[] = [
  {
    name: "honest.create-200",
    breaks:
      'Allowed: every create answers 200 instead of 201. Spec, Endpoints: "Not shown: the HTTP success status of creates and writes other than the 204 of deletes." (spec-choices, Catalog and Customers: conformance accepts 200 or 201)',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      return sub(req) !== null && req.method === "POST" && res.status === 201 ? { ...res, status: 200 } : res;
    },
  },
  {
    name: "honest.timestamps-seconds",
    breaks:
      'Allowed: date-times without fractional seconds (2026-01-01T00:00:00Z). Spec, What the service does 5: "Timestamps are ISO 8601 date-times in UTC and end in Z." (spec-choices, Timestamps: any UTC date-time ending in Z)',
    caughtBy: [],
    // The simulator's clock moves in whole seconds, so dropping `.000` loses nothing; the server
    // reads date-times sent back (completed_from, completed_to) with or without fractions.
    wrap: (next) => async (req) => mapResponseText(await next(req), (text) => text.replace(MILLIS, '"$1Z"')),
  },
  {
    name: "honest.timestamps-microseconds",
    breaks:
      'Allowed: date-times with microseconds (2026-01-01T00:00:00.000000Z). Spec, What the service does 5: "Timestamps are ISO 8601 date-times in UTC and end in Z." (spec-choices, Timestamps: any UTC date-time ending in Z)',
    caughtBy: [],
    // Date-times it wrote and is sent back (sales filters, documents sent straight back) are read
    // at its own precision: the trailing three digits are translated back for the simulator.
    wrap: (next) => async (req) => {
      const back = (text: string) => text.replace(/(\d{2}(?::|%3A)\d{2}(?::|%3A)\d{2}\.\d{3})000Z/gi, "$1Z");
      const res = await next(mapBodyText(mapQuery(req, back), back));
      return mapResponseText(res, (text) => text.replace(MILLIS, '"$1.$2000Z"'));
    },
  },
  {
    name: "honest.extra-fields",
    breaks:
      'Allowed: every object a read returns carries a field the spec does not list (x_internal: 1), accepted and ignored when a document is sent back. Spec, Resources: "All listed fields are always present in a read"; Versioning 2: "later changes only add fields and refusals"; Product write rules 2: "a read document can be sent straight back".',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const s = sub(req);
      if (s === null) return next(req);
      // Documents sent back carry the field; the server ignores it like the other API-owned fields.
      const sent = mapBodyText(req, (text) => {
        if (!text.includes('"x_internal"')) return text;
        try {
          const body = JSON.parse(text);
          eachObject(body, (o) => delete o.x_internal);
          return JSON.stringify(body);
        } catch {
          return text;
        }
      });
      const res = await next(sent);
      if (s === "/openapi.json") return res;
      return mapResponseJson(res, (b) => {
        if (b !== null && typeof b === "object" && "data" in b) eachObject(b.data, (o) => (o.x_internal = 1));
        return b;
      });
    },
  },
  {
    name: "honest.outlet-status-values",
    breaks:
      'Allowed: Outlet status values open and closed. Spec, States: "Outlet status: values of the string: not shown." (spec-choices: any string)',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const outlets = /^\/outlets(\/|$)/.test(sub(req) ?? "") || (isControl(req) && /\/outlets(\/|$)/.test(req.path));
      if (!outlets) return res;
      return mapResponseJson(res, (b) => {
        eachObject(b?.data ?? b, (o) => {
          if ("timezone" in o && typeof o.status === "string") o.status = OUTLET_STATUS[o.status] ?? o.status;
        });
        return b;
      });
    },
  },
  {
    name: "honest.reason-type-values",
    breaks:
      'Allowed: AdjustmentReason type values stock_in, stock_out and either. Spec, Resources: "AdjustmentReason id, name, type (string), is_system (boolean), version" — the values are not given (spec-choices: any string).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const reasons =
        sub(req) === "/inventory/adjustment-reasons" || (isControl(req) && /\/adjustment-reasons(\/|$)/.test(req.path));
      if (!reasons) return res;
      return mapResponseJson(res, (b) => {
        eachObject(b?.data ?? b, (o) => {
          if ("is_system" in o && typeof o.type === "string") o.type = REASON_TYPE[o.type] ?? o.type;
        });
        return b;
      });
    },
  },
  {
    name: "honest.store-and-taxes-shapes",
    breaks:
      'Allowed: GET /store and GET /taxes answer other shapes (store settings nested under locale; taxes with label and rate_percent). Spec, Endpoints: "Not shown: response shapes of /store and /taxes." Every row keeps id and version (Resources: "Every resource row carries version").',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      const s = sub(req);
      if (req.method !== "GET" || res.status !== 200) return res;
      if (s === "/store")
        return mapResponseJson(res, (b) => {
          const d = b.data;
          return {
            data: {
              id: d.id,
              display_name: d.name,
              prefix: d.domain_prefix,
              locale: { currency_code: d.currency, time_zone: d.timezone, country_code: d.country },
              opened_at: d.created_at,
              version: d.version,
            },
          };
        });
      if (s === "/taxes")
        return mapResponseJson(res, (b) => ({
          ...b,
          data: (b.data as any[]).map((t) => ({
            id: t.id,
            label: t.name,
            rate_percent: String(Math.round(t.rate * 1e6) / 1e4),
            compound: false,
            version: t.version,
          })),
        }));
      return res;
    },
  },
  {
    name: "honest.openapi-in-envelope",
    breaks:
      'Allowed: GET /openapi.json answers {data: document}. Spec, What the service does 6 and 7: "GET /openapi.json ... serves the machine-readable description of the API" and "Every success response wraps its payload as {"data": ...}" (spec-choices: either the raw document or {data: document}).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (sub(req) !== "/openapi.json" || res.status !== 200) return res;
      return mapResponseJson(res, (doc) => ({ data: doc }));
    },
  },
  {
    name: "honest.json-layout",
    breaks:
      'Allowed: JSON answers indented, with the keys of every object in another order. Spec, What the service does 5: "All requests and responses are JSON." JSON gives no meaning to white space or to the order of an object\'s members (RFC 8259 4).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (sub(req) === "/openapi.json") return res;
      return mapResponseText(res, (text) => {
        try {
          return JSON.stringify(reversed(JSON.parse(text)), null, 2);
        } catch {
          return text;
        }
      });
    },
  },
  {
    name: "honest.product-tag-version",
    breaks:
      'Allowed: each ProductTag in a product carries the tag\'s version too ({id, name, version}), accepted and ignored when the document is sent back. Spec, Tag and Supplier: "Tags have id, name, version in product context."; Product write rules 2: "a read document can be sent straight back" (spec-choices, ProductTag in a product: a version too).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const s = sub(req);
      if (s === null) return next(req);
      const write = (req.method === "POST" || req.method === "PATCH") && PRODUCT_WRITE.test(s);
      const sent = !write
        ? req
        : mapBodyText(req, (text) => {
            try {
              const body = JSON.parse(text);
              if (
                !Array.isArray(body?.tags) ||
                !body.tags.some((t: any) => t !== null && typeof t === "object" && "version" in t)
              )
                return text;
              body.tags = body.tags.map((t: any) => {
                if (t === null || typeof t !== "object") return t;
                const { version: _v, ...tag } = t;
                return tag;
              });
              return JSON.stringify(body);
            } catch {
              return text;
            }
          });
      const res = await next(sent);
      if (!productsIn(jsonOf(res)).some((p) => p.tags.length > 0)) return res;
      const tags = liveRows((await storeState(next, req))?.catalog?.tags);
      const versions = new Map(tags.map((t) => [t.id, String(t.seq)]));
      return mapResponseJson(res, (b) => {
        for (const p of productsIn(b))
          p.tags = p.tags.map((t: any) => (versions.has(t.id) ? { ...t, version: versions.get(t.id) } : t));
        return b;
      });
    },
  },
];
