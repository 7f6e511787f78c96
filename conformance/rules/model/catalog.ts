import fc from "fast-check";
import { bodyDefect, idDefect, keyDefect, made, queryDefect, drawn, accessDefects } from "./defects.js";
import { type Command, command, is2xx, type Row, Session } from "./session.js";
import type { Reply } from "../../context.js";
import { dataOf, idOf, type Json, pageOf, rowsOf } from "../../shapes.js";

// Generated catalog requests: products (collections, variants, versions, deletes, lists) and brands,
// categories, tags and suppliers, with edge values (SKUs that differ only in case or in non-ASCII
// letters, collections at and past their caps, null against absent) and the defects of defects.ts.
// Arguments are choices made when the command runs, from the rows the session has seen.

const CODE_TYPES = ["upc", "isbn", "itf", "ean", "jan", "custom"] as const;
/** SKUs that differ from another only in case, or in the case of non-ASCII letters (Inventory rules 2). */
const SKU_FORMS = ["plain", "non-ascii", "case-of-existing", "generated"] as const;
/** Spec, Product: "At most 10" codes, "At most 20" tags, "At most 10" suppliers. */
const CAPS = { codes: 10, tags: 20, suppliers: 10 } as const;

/** A fresh SKU of the form asked (undefined: left out, so the service generates one). */
function skuOf(s: Session, form: (typeof SKU_FORMS)[number], n: number): string | undefined {
  switch (form) {
    case "generated":
      return undefined;
    case "non-ascii":
      return `Çafé-Ø${s.name("sku").slice(-8)}`;
    case "case-of-existing": {
      const sku = s.pick("products", n)?.doc?.sku;
      return typeof sku === "string" ? (n % 2 === 0 ? sku.toLowerCase() : sku.toUpperCase()) : s.name("SKU");
    }
    default:
      return s.name("SKU");
  }
}

const ids = (rows: (Row | undefined)[]) => [...new Set(rows.filter((r): r is Row => r !== undefined).map((r) => r.id))];

interface Shape {
  readonly sku: (typeof SKU_FORMS)[number];
  readonly price: number;
  readonly description: "omit" | "null" | "text";
  readonly inventory: boolean | undefined;
  readonly brand: number | null | undefined;
  readonly category: number | undefined;
  readonly tags: number;
  readonly codes: number;
  readonly suppliers: number;
  readonly components: number;
  readonly attributes: number;
  readonly pick: number;
}

const shape: fc.Arbitrary<Shape> = fc.record({
  sku: fc.constantFrom(...SKU_FORMS),
  price: fc.oneof(fc.constantFrom(0, 1, 999, 2_147_483_647), fc.nat({ max: 100_000 })),
  description: fc.constantFrom("omit", "null", "text"),
  inventory: fc.constantFrom(true, false, undefined),
  brand: fc.oneof(fc.constant(undefined), fc.constant(null), fc.nat()),
  category: fc.option(fc.nat(), { nil: undefined }),
  tags: fc.oneof(
    { weight: 3, arbitrary: fc.nat({ max: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom(CAPS.tags, CAPS.tags + 1) },
  ),
  codes: fc.oneof(
    { weight: 3, arbitrary: fc.nat({ max: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom(CAPS.codes, CAPS.codes + 1) },
  ),
  suppliers: fc.oneof(
    { weight: 3, arbitrary: fc.nat({ max: 2 }) },
    { weight: 1, arbitrary: fc.constantFrom(CAPS.suppliers, CAPS.suppliers + 1) },
  ),
  components: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.nat({ max: 3 }) }),
  attributes: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }) },
  ),
  pick: fc.nat(),
});

/** A product document of this shape, named and coded afresh (codes of distinct types and values). */
function productDoc(s: Session, sh: Shape): Record<string, unknown> {
  const n = sh.pick;
  const live = (kind: "tags" | "suppliers" | "products", count: number) =>
    Array.from({ length: count }, (_, i) => s.pick(kind, n + i)).filter((r): r is Row => r !== undefined);
  const doc: Record<string, unknown> = { name: s.name("product"), retail_price: sh.price };
  const sku = skuOf(s, sh.sku, n);
  if (sku !== undefined) doc.sku = sku;
  if (sh.description !== "omit") doc.description = sh.description === "null" ? null : `Ünïcode — ${s.name("text")}`;
  if (sh.inventory !== undefined) doc.has_inventory = sh.inventory;
  if (sh.brand !== undefined) doc.brand_id = sh.brand === null ? null : (s.pick("brands", sh.brand)?.id ?? null);
  if (sh.category !== undefined) {
    const category = s.pick("categories", sh.category, (r) => r.live && !/gift/i.test(String(r.doc?.name)));
    if (category) doc.category_id = category.id;
  }
  if (sh.tags > 0) {
    const tags = ids(live("tags", sh.tags));
    // Past the cap, the same tags cannot repeat (a repeat is its own refusal): made-up ids fill in.
    while (tags.length < sh.tags) tags.push(`00000000-0000-4000-8000-${String(tags.length).padStart(12, "0")}`);
    doc.tags = tags.map((id) => ({ id }));
  }
  if (sh.codes > 0)
    doc.codes = Array.from({ length: sh.codes }, (_, i) => ({
      type: CODE_TYPES[i % CODE_TYPES.length],
      code: `${s.name("code")}-${i}`,
    }));
  if (sh.suppliers > 0) {
    const suppliers = ids(live("suppliers", sh.suppliers));
    doc.suppliers = suppliers.map((supplier_id, i) => ({ supplier_id, is_primary: i === 0, supplier_code: `SC-${i}` }));
  }
  if (sh.components > 0)
    doc.components = ids(live("products", sh.components)).map((product_id, i) => ({ product_id, quantity: i + 0.5 }));
  if (sh.attributes > 0) {
    doc.has_variants = true;
    doc.variant_attributes = Array.from({ length: sh.attributes }, (_, i) => ({
      name: ["Size", "Colour", "Fit", "Cut"][i],
      position: i + 1,
    }));
  }
  return doc;
}

const PRODUCT_FIELDS = ["name", "retail_price", "sku", "tags", "codes", "brand_id", "category_id", "has_inventory"];

const learnProduct = (s: Session, reply: Reply) => {
  const id = idOf(reply);
  if ((is2xx(reply) || reply.status === 422) && id !== undefined) {
    s.learn("products", dataOf(reply), true);
    s.ctx.track(`/products/${id}`);
  }
};

const createProduct = fc
  .record({
    shape,
    key: fc.constantFrom("none", "fresh", "replay", "reuse"),
    defects: accessDefects("catalog:write", [
      drawn((_s, n) => bodyDefect(n, PRODUCT_FIELDS)),
      drawn((_s, n) => keyDefect(n, false)),
    ]),
  })
  .map(({ shape: sh, key, defects: ds }) =>
    command(`createProduct(${JSON.stringify(sh)}, key ${key}, ${ds.length} defects)`, async (s) => {
      const doc = productDoc(s, sh);
      const headers: Record<string, string> = key === "none" ? {} : { "idempotency-key": s.name("key") };
      let base = s.request("POST", "/products", doc, headers);
      const previous = s.keyed.filter((k) => k.path === "/products").at(-1);
      if (previous && (key === "replay" || key === "reuse"))
        base =
          key === "replay"
            ? { ...base, body: previous.body, headers: { ...base.headers, "idempotency-key": previous.key } }
            : { ...base, headers: { ...base.headers, "idempotency-key": previous.key } };
      const reply = await s.sendWith(base, made(s, ds));
      learnProduct(s, reply);
      if (key !== "none" && base.body)
        s.keyed.push({
          method: "POST",
          path: "/products",
          key: base.headers["idempotency-key"] as string,
          body: base.body,
          token: s.ctx.token,
        });
    }),
  );

/** A partial update: some fields of a fresh document, a collection replaced or cleared, a version sent or not. */
const updateProduct = fc
  .record({
    shape,
    fields: fc.subarray(
      [
        "name",
        "retail_price",
        "description",
        "active",
        "tags",
        "codes",
        "suppliers",
        "components",
        "category_id",
        "brand_id",
        "sku",
        "has_inventory",
        "variant_attributes",
      ],
      { minLength: 1, maxLength: 4 },
    ),
    clear: fc.boolean(),
    version: fc.constantFrom("none", "current", "stale", "both-agree", "both-disagree", "expected-stale"),
    sendBack: fc.boolean(),
    defects: accessDefects("catalog:write", [
      drawn((s, n) => idDefect(s, n)),
      drawn((_s, n) => bodyDefect(n, ["name", "retail_price", "active", "tags", "codes"])),
    ]),
  })
  .map(({ shape: sh, fields, clear, version, sendBack, defects: ds }) =>
    command(
      `updateProduct(${fields.join(",")}${clear ? " cleared" : ""}, version ${version}${sendBack ? ", read document sent back" : ""}, ${ds.length} defects)`,
      async (s) => {
        const row = s.pick("products", sh.pick, Session.mine);
        if (!row) return;
        const fresh = productDoc(s, sh);
        let body: Record<string, unknown> = {};
        if (sendBack) body = { ...row.doc };
        for (const f of fields) {
          if (clear && ["tags", "codes", "suppliers", "components"].includes(f)) body[f] = [];
          else if (f === "active") body.active = sh.pick % 2 === 0;
          else if (fresh[f] !== undefined) body[f] = fresh[f];
        }
        const current = row.versions.at(-1);
        const stale = row.versions.at(-2) ?? current;
        if (typeof current === "string") {
          if (version === "current") body.version = current;
          if (version === "stale") body.version = stale;
          if (version === "both-agree") Object.assign(body, { version: current, expected_version: current });
          if (version === "both-disagree")
            Object.assign(body, { version: current, expected_version: stale === current ? "0" : stale });
          if (version === "expected-stale") body.expected_version = stale;
        }
        const reply = await s.sendWith(s.request("PATCH", `/products/${row.id}`, body), made(s, ds));
        if (is2xx(reply) || reply.status === 422) {
          if (idOf(reply) === row.id) s.learn("products", dataOf(reply));
        }
      },
    ),
  );

const readProduct = fc
  .record({
    pick: fc.nat(),
    deleted: fc.boolean(),
    defects: accessDefects("catalog:read", [drawn((s, n) => idDefect(s, n))]),
  })
  .map(({ pick, deleted, defects: ds }) =>
    command(`getProduct(${deleted ? "deleted" : "live"} ${pick}, ${ds.length} defects)`, async (s) => {
      const row = s.pick("products", pick, (r) => r.live !== deleted) ?? s.pick("products", pick);
      if (!row) return;
      const reply = await s.sendWith(s.request("GET", `/products/${row.id}`), made(s, ds));
      if (reply.status === 200) s.learn("products", dataOf(reply));
      for (const sub of ["inventory", "variants"] as const)
        if (!row.live && sub === "inventory") await s.send(s.request("GET", `/products/${row.id}/${sub}`));
    }),
  );

const listProducts = fc
  .record({
    sku: fc.constantFrom("none", "exact", "unknown"),
    limit: fc.oneof(fc.constant(undefined), fc.constantFrom(1, 2, 200), fc.integer({ min: 1, max: 50 })),
    order: fc.constantFrom(undefined, "asc", "desc"),
    deleted: fc.boolean(),
    more: fc.boolean(),
    pick: fc.nat(),
    defects: accessDefects("catalog:read", [drawn((_s, n) => queryDefect(n))]),
  })
  .map(({ sku, limit, order, deleted, more, pick, defects: ds }) =>
    command(
      `listProducts(sku ${sku}, limit ${limit}, order ${order}, include_deleted ${deleted}, continue ${more}, ${ds.length} defects)`,
      async (s) => {
        const q = new URLSearchParams();
        if (sku === "exact") {
          const found = s.pick("products", pick)?.doc?.sku;
          if (typeof found === "string") q.set("sku", found);
        }
        if (sku === "unknown") q.set("sku", s.name("no-such-sku"));
        if (limit !== undefined) q.set("limit", String(limit));
        if (order) q.set("order", order);
        if (deleted && order !== "desc") q.set("include_deleted", "true");
        const path = `/products${q.size > 0 ? `?${q}` : ""}`;
        const cursor = more ? s.cursors.get(path) : undefined;
        const reply = await s.sendWith(
          s.request("GET", cursor ? `${path}${q.size > 0 ? "&" : "?"}cursor=${encodeURIComponent(cursor)}` : path),
          made(s, ds),
        );
        if (reply.status !== 200) return;
        const page = pageOf<Json>(reply);
        if (typeof page?.next_cursor === "string") s.cursors.set(path, page.next_cursor);
        for (const doc of page?.data ?? []) if (doc?.deleted_at === undefined) s.learn("products", doc);
      },
    ),
  );

const deleteProduct = fc
  .record({
    pick: fc.nat(),
    kind: fc.constantFrom("any", "component", "parent", "gift card", "deleted"),
    defects: accessDefects("catalog:write", [drawn((s, n) => idDefect(s, n))]),
  })
  .map(({ pick, kind, defects: ds }) =>
    command(`deleteProduct(${kind} ${pick}, ${ds.length} defects)`, async (s) => {
      const where = (r: Row): boolean => {
        const d = r.doc ?? {};
        if (kind === "deleted") return !r.live;
        if (!r.live) return false;
        // Deletes the spec refuses may name any row; the others only the run's own.
        if (kind === "gift card") return d.is_gift_card === true;
        if (kind === "parent") return d.has_variants === true && (r.ours || hasLiveChild(s, r.id));
        if (kind === "component")
          return [...(s.rows.get("products")?.values() ?? [])].some(
            (p) => p.live && (p.doc?.components ?? []).some((c: any) => c.product_id === r.id),
          );
        return r.ours;
      };
      const row = s.pick("products", pick, where) ?? s.pick("products", pick, Session.mine);
      if (!row) return;
      const reply = await s.sendWith(s.request("DELETE", `/products/${row.id}`), made(s, ds));
      if (reply.status === 204) s.gone("products", row.id);
    }),
  );

/** Children of a variant parent: one value per attribute, new or repeating a combination. */
const createVariants = fc
  .record({
    pick: fc.nat(),
    count: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.constantFrom(0, 200, 201)),
    repeat: fc.boolean(),
    missingValue: fc.boolean(),
    named: fc.boolean(),
    key: fc.boolean(),
    defects: accessDefects("catalog:write", [drawn((s, n) => idDefect(s, n))]),
  })
  .map(({ pick, count, repeat, missingValue, named, key, defects: ds }) =>
    command(
      `createVariants(${count} children${repeat ? ", a combination repeated" : ""}${missingValue ? ", a value missing" : ""}, ${ds.length} defects)`,
      async (s) => {
        const parent =
          s.pick(
            "products",
            pick,
            (r) => Session.mine(r) && r.doc?.has_variants === true && (r.doc?.variant_attributes ?? []).length > 0,
          ) ?? s.pick("products", pick, Session.mine);
        if (!parent) return;
        const attributes: any[] = parent.doc?.variant_attributes ?? [];
        const stem = s.name("v");
        const variants = Array.from({ length: count }, (_, i) => ({
          options: attributes
            .slice(0, missingValue && i === 0 ? Math.max(0, attributes.length - 1) : attributes.length)
            .map((a) => ({
              attribute_id: a.id,
              value: repeat && i > 0 ? `${stem}-0` : `${stem}-${i}`,
            })),
          ...(named
            ? { name: `${stem} child ${i}`, sku: `${stem}-SKU-${i}`, retail_price: 100 + i, active: i % 2 === 0 }
            : {}),
        }));
        const headers: Record<string, string> = key ? { "idempotency-key": s.name("key") } : {};
        const reply = await s.sendWith(
          s.request("POST", `/products/${parent.id}/variants`, { variants }, headers),
          made(s, ds),
        );
        if (is2xx(reply)) {
          // The answer's shape is not shown: the children are found again through the list.
          const list = await s.send(s.request("GET", "/products?limit=200&order=desc"));
          for (const doc of rowsOf<Json>(list) ?? [])
            if (doc?.variant_parent_id === parent.id) {
              s.learn("products", doc, true);
              s.ctx.track(`/products/${doc.id}`);
            }
        }
      },
    ),
  );

const hasLiveChild = (s: Session, id: string) =>
  [...(s.rows.get("products")?.values() ?? [])].some(
    (p) => p.live && p.doc?.variant_parent_id === id && p.doc?.active !== false,
  );

type Taxon = "brands" | "categories" | "tags" | "suppliers";
const TAXA: readonly Taxon[] = ["brands", "categories", "tags", "suppliers"];

/** Create, read, list, rename and delete of brands, categories, tags and suppliers. */
const taxonomy = fc
  .record({
    kind: fc.constantFrom(...TAXA),
    op: fc.constantFrom("create", "duplicate", "child", "get", "list", "rename", "rename", "move", "delete"),
    pick: fc.nat(),
    defects: accessDefects("catalog:write", [
      drawn((s, n) => idDefect(s, n)),
      drawn((_s, n) => bodyDefect(n, ["name"])),
    ]),
  })
  .map(({ kind, op, pick, defects: ds }) =>
    command(`${op} ${kind}(${pick}, ${ds.length} defects)`, async (s) => {
      const row = s.pick(kind, pick);
      // Renames, moves and deletes change only the run's own rows, but for the system category the spec refuses.
      const mine = s.pick(
        kind,
        pick,
        (r) =>
          Session.mine(r) ||
          (kind === "categories" && op === "delete" && /^(Other Products|Gift Cards)$/.test(String(r.doc?.name))),
      );
      const all = made(s, ds);
      let reply;
      switch (op) {
        case "create":
        case "duplicate":
        case "child": {
          const name = op === "duplicate" && typeof row?.doc?.name === "string" ? row.doc.name : s.name(kind);
          const body: Record<string, unknown> = { name };
          if (kind === "brands") body.description = pick % 2 === 0 ? null : "Ünïcode brand";
          if (kind === "categories" && op === "child" && row) body.parent_id = row.id;
          reply = await s.sendWith(
            s.request("POST", `/${kind}`, body, pick % 3 === 0 ? { "idempotency-key": s.name("key") } : {}),
            all,
          );
          const id = idOf(reply);
          if (is2xx(reply) && id !== undefined) {
            s.learn(kind, dataOf(reply), true);
            s.ctx.track(`/${kind}/${id}`);
          }
          return;
        }
        case "get":
          if (row) await s.sendWith(s.request("GET", `/${kind}/${row.id}`), all);
          return;
        case "list": {
          reply = await s.sendWith(s.request("GET", `/${kind}?limit=${1 + (pick % 200)}`), all);
          for (const doc of rowsOf(reply) ?? []) s.learn(kind, doc);
          return;
        }
        case "rename":
        case "move": {
          let own = mine?.id;
          if (own === undefined) {
            // Nothing of the run's own to change yet: make one (send learns it and tracks it for
            // clean-up), so every rename and move is met.
            const made = await s.send(s.request("POST", `/${kind}`, { name: s.name(kind) }));
            own = idOf(made);
            if (!is2xx(made) || own === undefined) return;
          }
          const body =
            op === "move" && kind === "categories"
              ? { parent_id: s.pick("categories", pick + 1)?.id ?? null }
              : { name: s.name(kind) };
          reply = await s.sendWith(s.request("PATCH", `/${kind}/${own}`, body), all);
          if (is2xx(reply)) s.learn(kind, dataOf(reply));
          return;
        }
        case "delete": {
          if (!mine) return;
          reply = await s.sendWith(s.request("DELETE", `/${kind}/${mine.id}`), all);
          if (reply.status === 204) s.gone(kind, mine.id);
        }
      }
    }),
  );

export const CATALOG_COMMANDS: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: createProduct },
  { weight: 3, arbitrary: updateProduct },
  { weight: 2, arbitrary: readProduct },
  { weight: 2, arbitrary: listProducts },
  { weight: 1, arbitrary: deleteProduct },
  { weight: 1, arbitrary: createVariants },
  { weight: 4, arbitrary: taxonomy },
);

/**
 * One kind of change to one of the run's products (a collection item added, dropped or edited, an
 * attached tag or supplier renamed or deleted, its brand or category deleted), then the product read
 * back: Resources, "version ... increases with every change to that row", for each kind of change.
 */
const CHANGES = [
  "add tag",
  "drop tag",
  "add code",
  "drop code",
  "edit code",
  "supplier code",
  "add component",
  "drop component",
  "rename tag",
  "rename supplier",
  "delete tag",
  "delete supplier",
  "delete brand",
  "delete category",
  "same document",
] as const;

const oneChange = fc.record({ change: fc.constantFrom(...CHANGES), pick: fc.nat() }).map((c) =>
  command(`${c.change} on product ${c.pick}, then read it`, async (s) => {
    // A product of the run that has what the change changes (a tag to drop, a code to edit, ...).
    const needs: Record<string, string> = {
      "drop tag": "tags",
      "drop code": "codes",
      "edit code": "codes",
      "supplier code": "suppliers",
      "drop component": "components",
    };
    const collection = needs[c.change];
    const setUp = s.pick(
      "products",
      c.pick,
      (r) =>
        Session.mine(r) &&
        r.doc?.has_variants !== true &&
        (collection === undefined || (r.doc?.[collection] ?? []).length > 0),
    );
    let row = setUp;
    if (!row) {
      // A product of its own with one of everything, so every kind of change has something to change.
      const tag = s.pick("tags", c.pick);
      const supplier = s.pick("suppliers", c.pick);
      const doc = {
        name: s.name("product"),
        retail_price: 500,
        sku: s.name("SKU"),
        ...(tag ? { tags: [{ id: tag.id }] } : {}),
        codes: [{ type: "ean", code: s.name("code") }],
        ...(supplier ? { suppliers: [{ supplier_id: supplier.id, is_primary: true, supplier_code: "A1" }] } : {}),
      };
      const made = await s.send(s.request("POST", "/products", doc));
      learnProduct(s, made);
      row = s.pick("products", 0, (r) => r.id === idOf(made));
      if (!row) return;
    }
    const d = row.doc ?? {};
    const path = `/products/${row.id}`;
    const patch = (body: unknown) => s.send(s.request("PATCH", path, body));
    const ownTaxon = async (kind: "tags" | "suppliers" | "brands" | "categories") => {
      const made = await s.send(s.request("POST", `/${kind}`, { name: s.name(kind) }));
      const id = idOf(made);
      if (is2xx(made) && id !== undefined) {
        s.learn(kind, dataOf(made), true);
        s.ctx.track(`/${kind}/${id}`);
        return id;
      }
      return undefined;
    };
    const tags: any[] = d.tags ?? [];
    const codes: any[] = d.codes ?? [];
    const suppliers: any[] = d.suppliers ?? [];
    const components: any[] = d.components ?? [];
    switch (c.change) {
      case "add tag": {
        const tag = await ownTaxon("tags");
        if (tag) await patch({ tags: [...tags.map((t) => ({ id: t.id })), { id: tag }] });
        break;
      }
      case "drop tag":
        await patch({ tags: tags.slice(1).map((t) => ({ id: t.id })) });
        break;
      case "add code":
        await patch({
          codes: [...codes.map(({ type, code }) => ({ type, code })), { type: "custom", code: s.name("code") }],
        });
        break;
      case "drop code":
        await patch({ codes: codes.slice(1).map(({ type, code }) => ({ type, code })) });
        break;
      case "edit code":
        await patch({ codes: codes.map(({ type, code }, i) => ({ type, code: i === 0 ? `${code}-edited` : code })) });
        break;
      case "supplier code":
        await patch({
          suppliers: suppliers.map(({ supplier_id, is_primary }, i) => ({
            supplier_id,
            is_primary,
            supplier_code: `S-${c.pick + i}`,
          })),
        });
        break;
      case "add component": {
        const other = s.pick("products", c.pick + 1, (r) => Session.mine(r) && r.id !== row?.id);
        if (other) await patch({ components: [...components, { product_id: other.id, quantity: 2 }] });
        break;
      }
      case "drop component":
        await patch({ components: components.slice(1) });
        break;
      case "rename tag":
      case "rename supplier":
      case "delete tag":
      case "delete supplier":
      case "delete brand":
      case "delete category": {
        const [verb, noun] = c.change.split(" ") as ["rename" | "delete", "tag" | "supplier" | "brand" | "category"];
        const kind = ({ tag: "tags", supplier: "suppliers", brand: "brands", category: "categories" } as const)[noun];
        const id = await ownTaxon(kind);
        if (!id) break;
        const link =
          kind === "tags"
            ? { tags: [...tags.map((t) => ({ id: t.id })), { id }] }
            : kind === "suppliers"
              ? {
                  suppliers: [
                    ...suppliers.map(({ supplier_id, supplier_code }) => ({
                      supplier_id,
                      is_primary: false,
                      supplier_code,
                    })),
                    { supplier_id: id, is_primary: false, supplier_code: "L" },
                  ],
                }
              : kind === "brands"
                ? { brand_id: id }
                : { category_id: id };
        await patch(link);
        if (verb === "rename") await s.send(s.request("PATCH", `/${kind}/${id}`, { name: s.name(kind) }));
        else {
          const gone = await s.send(s.request("DELETE", `/${kind}/${id}`));
          if (gone.status === 204) s.gone(kind, id);
        }
        break;
      }
      case "same document":
        await patch({ name: d.name, retail_price: d.retail_price });
        break;
    }
    const read = await s.send(s.request("GET", path));
    if (read.status === 200) s.learn("products", dataOf(read));
    await s.send(s.request("GET", "/products?include_deleted=true&limit=200"));
  }),
);

export const CHANGE_COMMANDS: fc.Arbitrary<Command> = oneChange;
