import type { Compare, OperationProjection } from "../../src/contract/projection.js";
import type { Opaque, Rows } from "./memory.js";

// Compares the payload of a target's answer with the model's prediction on the projection
// (src/contract/projection.ts): values the spec fixes are equal (opaque ones through the pairing of
// the model's and the target's), versions and date-times are related, choices are held once seen,
// and everything else is free. Extra fields of the target are never differences.

export interface Difference {
  /** Where in the payload (`data.tags[1].id`). */
  readonly path: string;
  readonly predicted: unknown;
  readonly observed: unknown;
  /** What the spec asks of it, in words. */
  readonly expected: string;
  /** The kind of check (`exact`, `version`, `instant`, ...): failures group by operation and kind. */
  readonly kind: string;
}

export interface CompareContext {
  readonly projection: OperationProjection;
  readonly opaque: Opaque;
  readonly rows: Rows;
  /** The target key of the row a write names in its path (its version may be renewed by the write). */
  readonly written?: string;
  /** Keys the write's body set on its row: exact from now on. Undefined for reads. */
  readonly sent?: ReadonlySet<string>;
  /** Milliseconds two date-times may differ (the clocks are read to the second). */
  readonly toleranceMs: number;
  /** The model's `{api_root}` and the target's: URLs are compared after replacing one by the other. */
  readonly roots: readonly [model: string, target: string];
  /** True for the model id of the walk-in customer. */
  readonly isWalkIn: (modelId: string) => boolean;
  /** The row the request's path names (a product, for its stock levels), when the payload has no id of its own. */
  readonly pathRow?: string;
  /** The answer is a replay: it shows rows as they were when the key was first used. */
  readonly replay?: boolean;
  /** Called with each field the target adds to a row (`tags[].version`): a client sends it back, and the model must not see it. */
  readonly extra?: (field: string) => void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** Fields of a row the API owns: never a client's, never a choice held. */
const OWNED = new Set(["id", "version", "created_at", "updated_at", "deleted_at"]);

const show = (v: unknown): string => (v === undefined ? "(absent)" : JSON.stringify(v));
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The projection's rule for a payload path (indices written `[]`): the nearest entry above it. */
function ruleAt(p: OperationProjection, path: string): Compare | undefined {
  const fields = p.fields;
  if (!fields) return undefined;
  for (let at = path; ; ) {
    const rule = fields[at];
    if (rule !== undefined) return rule;
    if (at === "") return undefined;
    const cut = Math.max(at.lastIndexOf("."), at.endsWith("[]") ? at.length - 2 : -1);
    at = cut <= 0 ? "" : at.slice(0, cut).replace(/\.$/, "");
  }
}

const join = (at: string, key: string) => (at === "" ? key : `${at}.${key}`);

/** The differences between the target's payload and the model's, on the projection. */
export function comparePayload(ctx: CompareContext, model: unknown, target: unknown): Difference[] {
  const out: Difference[] = [];
  walk(ctx, model, target, { shown: "data", rule: "", row: ctx.pathRow, field: "" }, out);
  return out;
}

interface Where {
  /** The path shown in reports (`data[2].tags[0].id`). */
  readonly shown: string;
  /** The projection's path (`[].tags[].id`). */
  readonly rule: string;
  /** The target key of the innermost row (an object with an id or a version). */
  readonly row: string | undefined;
  /** The path inside that row. */
  readonly field: string;
}

/** True when the projection names a path below this one (a free object with some fixed parts). */
const namesBelow = (p: OperationProjection, path: string) =>
  Object.keys(p.fields ?? {}).some(
    (k) => k !== path && (path === "" || k.startsWith(`${path}.`) || k.startsWith(`${path}[]`)),
  );

/** Strings a client may send back (generated SKUs and codes): paired like ids, so that requests carry the model's. */
const CODE_LIKE = /^(?=.*[-_.0-9])[^\s]{8,}$/;

function walk(ctx: CompareContext, m: unknown, t: unknown, at: Where, out: Difference[]): void {
  const rule = ruleAt(ctx.projection, at.rule) ?? "exact";
  if (rule === "free" && (m === null || typeof m !== "object" || !namesBelow(ctx.projection, at.rule))) return;
  const differ = (expected: string, kind: string) =>
    out.push({ path: at.shown, predicted: m, observed: t, expected, kind });
  const top = at.field.split(/[.[]/)[0] ?? "";
  // A choice of the server held on this row: an erasure's placeholder, a create's default, a variant's field.
  const chosen = at.row !== undefined && top !== "" && !OWNED.has(top) && ctx.rows.isChosen(at.row, top);
  if (rule === "stable" || chosen) {
    if (rule !== "stable" && ctx.sent !== undefined && at.row === ctx.written && ctx.sent.has(top)) {
      ctx.rows.fix(at.row as string, top);
    } else {
      const wrong = ctx.rows.held(at.row ?? `*${at.rule}`, at.field || at.rule, m, t);
      if (wrong) differ(wrong, "choice");
      else if (typeof m === "string" && typeof t === "string" && m !== t && CODE_LIKE.test(m) && CODE_LIKE.test(t))
        ctx.opaque.pair(m, t);
      return;
    }
  }
  if (Array.isArray(m)) {
    if (!Array.isArray(t)) {
      differ(`an array like ${show(m).slice(0, 80)}`, "shape");
      return;
    }
    const keys = ctx.projection.unordered?.[at.rule];
    if (keys) {
      compareSet(ctx, m, t, keys, at, out);
      return;
    }
    if (m.length !== t.length) {
      differ(`${m.length} items`, "count");
      return;
    }
    m.forEach((item, i) => {
      walk(ctx, item, t[i], { ...at, shown: `${at.shown}[${i}]`, rule: `${at.rule}[]`, field: `${at.field}[]` }, out);
    });
    return;
  }
  if (isObject(m)) {
    if (!isObject(t)) {
      differ(`an object with ${Object.keys(m).slice(0, 6).join(", ")}`, "shape");
      return;
    }
    // A row: an object with an id (or, inside one, with a version of its own: an inventory level).
    let row = at.row;
    let field = at.field;
    if (typeof m.id === "string" && typeof t.id === "string" && UUID.test(m.id)) {
      // Another row than the model's: nothing of it is compared (nor remembered) as if it were that row.
      if (!ctx.opaque.pair(m.id, t.id)) {
        out.push({
          path: join(at.shown, "id"),
          predicted: ctx.opaque.target(m.id) ?? m.id,
          observed: t.id,
          expected: "the row the model has here (each row keeps one id, and two rows never share one)",
          kind: "id",
        });
        return;
      }
      row = t.id;
      field = "";
    } else if (typeof m.version === "string" && at.row !== undefined) {
      row = `${at.row}/${typeof t.outlet_id === "string" ? t.outlet_id : at.field}`;
      field = "";
    }
    if (ctx.extra)
      for (const key of Object.keys(t))
        if (!Object.hasOwn(m, key)) ctx.extra(join(at.rule, key).replace(/^\[\]\.?/, ""));
    for (const [key, value] of Object.entries(m)) {
      if (key === "id" && row !== at.row) continue;
      const next: Where = { shown: join(at.shown, key), rule: join(at.rule, key), row, field: join(field, key) };
      if (!Object.hasOwn(t, key)) {
        const r = ruleAt(ctx.projection, next.rule);
        if (r === "free" || (r === "false-or-absent" && value === false)) continue;
        out.push({
          path: next.shown,
          predicted: value,
          observed: undefined,
          expected: `${key} present`,
          kind: "missing",
        });
        continue;
      }
      if (key === "version" && typeof value === "string" && row !== undefined && r0(ctx, next) === "exact") {
        const written = ctx.written !== undefined && row === ctx.written;
        const wrong = ctx.replay
          ? ctx.rows.replayed(row, value, String(t[key]))
          : ctx.rows.version(row, value, String(t[key]), written);
        if (wrong) out.push({ path: next.shown, predicted: value, observed: t[key], expected: wrong, kind: "version" });
        continue;
      }
      walk(ctx, value, t[key], next, out);
    }
    return;
  }
  compareValue(ctx, rule, m, t, differ);
}

const r0 = (ctx: CompareContext, at: Where) => ruleAt(ctx.projection, at.rule) ?? "exact";

function compareValue(
  ctx: CompareContext,
  rule: Compare,
  m: unknown,
  t: unknown,
  differ: (expected: string, kind: string) => void,
): void {
  if (rule === "exact-or-null" && t === null) return;
  if (rule === "opaque" && typeof m === "string" && typeof t === "string") {
    if (ctx.opaque.pair(m, t)) return;
    differ(`the same value as before for ${m} (each opaque value stands for one thing)`, "opaque");
    return;
  }
  if (rule === "false-or-absent") {
    if (m === false ? t === false || t === undefined : t === m) return;
    differ(show(m), "exact");
    return;
  }
  if (rule === "caseless" && typeof m === "string" && typeof t === "string") {
    if (m.toLowerCase() === t.toLowerCase()) return;
    differ(`${show(m)} (in any case)`, "exact");
    return;
  }
  if (rule === "walk-in-or-null" && t === null && typeof m === "string" && ctx.isWalkIn(m)) return;
  if (typeof m === "string" && typeof t === "string") {
    if (DATE_TIME.test(m)) {
      const dm = Date.parse(m);
      const dt = Date.parse(t);
      if (!Number.isNaN(dt) && Math.abs(dm - dt) <= ctx.toleranceMs) return;
      differ(`the instant ${m}${ctx.toleranceMs > 0 ? ` (within ${ctx.toleranceMs / 1000} s)` : ""}`, "instant");
      return;
    }
    const twin = ctx.opaque.target(m);
    if (twin !== undefined) {
      if (twin === t) return;
      differ(show(twin), UUID.test(m) ? "id" : "exact");
      return;
    }
    if (UUID.test(m)) {
      if (ctx.opaque.pair(m, t)) return;
      differ(`the id of the row the model names (${m})`, "id");
      return;
    }
    const [modelRoot, targetRoot] = ctx.roots;
    if (m.startsWith(modelRoot) && `${targetRoot}${m.slice(modelRoot.length)}` === t) return;
  }
  if (m === t) return;
  if (typeof m === "number" && typeof t === "number" && Math.abs(m - t) < 1e-9) return;
  differ(show(m), "exact");
}

/** An array whose order is open: each model item matched with the target item of the same identity. */
function compareSet(
  ctx: CompareContext,
  m: unknown[],
  t: unknown[],
  keys: readonly string[],
  at: Where,
  out: Difference[],
): void {
  const identity = (item: unknown, side: "model" | "target"): string =>
    JSON.stringify(
      keys.length === 0
        ? side === "model"
          ? twinOf(ctx, item)
          : item
        : keys.map((k) => {
            const v = isObject(item) ? item[k] : undefined;
            return side === "model" ? twinOf(ctx, v) : v;
          }),
    );
  const byIdentity = new Map(t.map((item) => [identity(item, "target"), item]));
  const subset = ctx.projection.subset === true && at.rule === "";
  if (!subset && m.length !== t.length)
    out.push({ path: at.shown, predicted: m.length, observed: t.length, expected: `${m.length} items`, kind: "count" });
  const modelIds = new Set(m.map((item) => identity(item, "model")));
  for (const item of t)
    if (!modelIds.has(identity(item, "target")))
      out.push({
        path: at.shown,
        predicted: undefined,
        observed: item,
        expected: `no item ${identity(item, "target")} (the model has none)`,
        kind: "count",
      });
  m.forEach((item, i) => {
    const twin = byIdentity.get(identity(item, "model"));
    if (twin === undefined) {
      if (!subset)
        out.push({
          path: `${at.shown}[${i}]`,
          predicted: item,
          observed: undefined,
          expected: "this item",
          kind: "missing",
        });
      return;
    }
    walk(ctx, item, twin, { ...at, shown: `${at.shown}[${i}]`, rule: `${at.rule}[]`, field: `${at.field}[]` }, out);
  });
}

/** A model value as the target would write it: opaque values through their pairing. */
function twinOf(ctx: CompareContext, v: unknown): unknown {
  return typeof v === "string" ? (ctx.opaque.target(v) ?? v) : v;
}
