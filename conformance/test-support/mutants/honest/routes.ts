import type { Mutant } from "../base.js";
import { jsonOf, liveRows, mapResponseJson, mapResponseText, type Next, storeState, sub, withPath } from "./support.js";

// Honest variants of routes the spec leaves open: where the operations whose paths are "not shown"
// live, the scope of the adjustment reasons list, and what that unpaginated list carries.

const REASONS = "/inventory/adjustment-reasons";
const KINDS = "brands|categories|tags|suppliers";

/**
 * Operations whose paths the spec does not show, at this server's own paths (client path, method, and
 * the simulator's path and method). Their simulator paths answer 404 here, like any unknown path.
 */
const MOVED: readonly { from: RegExp; method: string; to: (m: RegExpExecArray) => string; as: string }[] = [
  { from: new RegExp(`^/catalog/(${KINDS})$`), method: "GET", to: (m) => `/${m[1]}`, as: "GET" },
  { from: /^\/catalog\/suppliers\/([^/]+)$/, method: "GET", to: (m) => `/suppliers/${m[1]}`, as: "GET" },
  { from: new RegExp(`^/(${KINDS}|customers)/([^/]+)$`), method: "PUT", to: (m) => `/${m[1]}/${m[2]}`, as: "PATCH" },
  { from: /^\/customers\/([^/]+)\/profile$/, method: "GET", to: (m) => `/customers/${m[1]}`, as: "GET" },
];
const HIDDEN: readonly { path: RegExp; method: string }[] = [
  { path: new RegExp(`^/(${KINDS})$`), method: "GET" },
  { path: new RegExp(`^/(${KINDS}|customers)/[^/]+$`), method: "PATCH" },
  { path: /^\/(suppliers|customers)\/[^/]+$/, method: "GET" },
];

/** The OpenAPI document with the moved operations under their paths here. */
function movedDocument(doc: any): any {
  const paths = doc?.paths;
  if (paths === null || typeof paths !== "object") return doc;
  const move = (from: string, method: string, to: string, as: string) => {
    const op = paths[from]?.[method];
    if (op === undefined) return;
    delete paths[from][method];
    if (Object.keys(paths[from]).length === 0) delete paths[from];
    paths[to] = { ...paths[to], [as]: op };
  };
  for (const kind of KINDS.split("|")) {
    move(`/${kind}`, "get", `/catalog/${kind}`, "get");
    move(`/${kind}/{id}`, "patch", `/${kind}/{id}`, "put");
  }
  move("/suppliers/{id}", "get", "/catalog/suppliers/{id}", "get");
  move("/customers/{id}", "get", "/customers/{id}/profile", "get");
  move("/customers/{id}", "patch", "/customers/{id}", "put");
  return doc;
}

function movedPaths(next: Next): Next {
  return async (req) => {
    const s = sub(req);
    if (s === null) return next(req);
    const base = req.path.slice(0, req.path.length - s.length);
    if (HIDDEN.some((h) => h.method === req.method && h.path.test(s)))
      return mapResponseText(await next(withPath(req, `${base}/~${s}`)), (text) => text.replace(" /~/", " /"));
    for (const m of MOVED) {
      const found = m.method === req.method ? m.from.exec(s) : null;
      if (found) return next({ ...withPath(req, base + m.to(found)), method: m.as });
    }
    const res = await next(req);
    if (s !== "/openapi.json" || res.status !== 200) return res;
    return mapResponseJson(res, (b) => (b?.paths ? movedDocument(b) : { ...b, data: movedDocument(b?.data) }));
  };
}

/** The adjustment reasons as the API lists them, built from the stored state: oldest change first. */
const reasonsOf = (store: any): any[] =>
  liveRows(store?.adjustment_reasons)
    .sort((a, b) => a.seq - b.seq)
    .map((r) => ({ id: r.id, name: r.name, type: r.type, is_system: r.is_system, version: String(r.seq) }));

export const routeVariants: readonly Mutant[] = [
  {
    name: "honest.unshown-paths-elsewhere",
    breaks:
      'Allowed: the operations whose paths are not shown live elsewhere (lists at /catalog/brands and the like, updates by PUT, GET /catalog/suppliers/{id}, GET /customers/{id}/profile, PUT /customers/{id}), as the OpenAPI document says; GET /brands, PATCH /brands/{id}, GET and PATCH /customers/{id} answer 404. Spec, Endpoints: "Not shown: the customer read-by-id and update paths, and the create payloads and list/update paths of brands, categories, tags and suppliers." (spec-choices: skipped when the target answers 404 for a path the spec does not show)',
    caughtBy: [],
    wrap: movedPaths,
  },
  {
    name: "honest.reasons-no-scope",
    breaks:
      'Allowed: GET /inventory/adjustment-reasons needs no scope (like GET /outlets). Spec, Authentication: "Scope of the adjustment-reasons list: not shown." (spec-choices: 200 or 403 for a key without inventory:read)',
    caughtBy: [],
    // Authentication, limits and the store's state are those of any scope-free call, GET /me's; the
    // list itself is read from the stored state.
    wrap: (next) => async (req) => {
      const s = sub(req);
      if (req.method !== "GET" || s !== REASONS) return next(req);
      const res = await next(withPath(req, `${req.path.slice(0, -s.length)}/me`));
      if (res.status !== 200) return res;
      const reasons = reasonsOf(await storeState(next, req));
      return mapResponseJson(res, () => ({ data: reasons }));
    },
  },
  {
    name: "honest.disabled-reasons-hidden",
    breaks:
      'Allowed: GET /inventory/adjustment-reasons leaves out disabled reasons. Spec, Inventory rules 5: "422 REASON_NOT_ALLOWED (system reason or disabled reason)"; the list is "list of AdjustmentReason" and does not say it lists disabled ones (spec-choices, Disabled adjustment reasons: either).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "GET" || sub(req) !== REASONS || res.status !== 200) return res;
      const store = await storeState(next, req);
      const disabled = new Set(liveRows(store?.adjustment_reasons).flatMap((r) => (r.enabled === false ? [r.id] : [])));
      if (disabled.size === 0) return res;
      return mapResponseJson(res, (b) => ({ ...b, data: (b.data as any[]).filter((r) => !disabled.has(r.id)) }));
    },
  },
  {
    name: "honest.reasons-paging-fields",
    breaks:
      'Allowed: GET /inventory/adjustment-reasons carries next_cursor null and has_more false beside data. Spec, Endpoints: "list of AdjustmentReason; not paginated" next to "Response: {data: [...], next_cursor: string or null, has_more: boolean}" (spec-choices: with or without paging fields).',
    caughtBy: [],
    wrap: (next) => async (req) => {
      const res = await next(req);
      if (req.method !== "GET" || sub(req) !== REASONS || res.status !== 200 || !jsonOf(res)) return res;
      return mapResponseJson(res, (b) => ({ ...b, next_cursor: null, has_more: false }));
    },
  },
];
