import { fail, ok, type Result } from "../../kernel/result.js";
import type { Rng } from "../../kernel/random.js";
import { fieldError, invalid, type ApiError } from "../../contract/errors.js";
import type { ProductWrite } from "../../contract/schemas/catalog.js";
import type { AttributeRecord, CodeRecord, ComponentRecord, ProductRecord, SupplierLink } from "./records.js";
import type { CatalogState } from "./state.js";

// rule catalog.collections-replace: for each collection, key left out means untouched, an array replaces
// the collection, [] clears it; replacement items are matched by identity (code by type, tag by id,
// supplier by supplier id, component by product, attribute by position), so a re-sent row keeps its
// identity. Limits: 10 codes, 20 tags, 10 suppliers, 50 components, 3 variant attributes.

export const CAPS = { codes: 10, tags: 20, suppliers: 10, components: 50 } as const;

type Collections = Pick<ProductRecord, "codes" | "tag_ids" | "suppliers" | "variant_attributes" | "components">;

/** The first index whose key repeats an earlier one, for "appears twice" refusals. */
function firstDuplicate<T>(items: readonly T[], key: (item: T) => string): number {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const k = key(items[i] as T);
    if (seen.has(k)) return i;
    seen.add(k);
  }
  return -1;
}

/** Shape checks that answer 400: repeated identities, an unknown tag (rule 8), several primary suppliers. */
export function checkCollectionShapes(body: ProductWrite, catalog: CatalogState): ApiError | undefined {
  const dup = <T>(name: string, items: readonly T[] | undefined, key: (item: T) => string, what: string) => {
    const i = items ? firstDuplicate(items, key) : -1;
    return i === -1 ? undefined : invalid(`${name}.${i}`, `repeats the ${what} of an earlier item`);
  };
  const error =
    dup("codes", body.codes, (c) => `${c.type}\u0000${c.code}`, "type and code") ??
    dup("tags", body.tags, (t) => t.id.toLowerCase(), "id") ??
    dup("suppliers", body.suppliers, (s) => s.supplier_id.toLowerCase(), "supplier_id") ??
    dup("variant_attributes", body.variant_attributes, (a) => String(a.position), "position") ??
    dup("components", body.components, (c) => c.product_id.toLowerCase(), "product_id");
  if (error) return error;
  if (body.suppliers && body.suppliers.filter((s) => s.is_primary).length > 1) {
    return invalid("suppliers", "at most one supplier can be primary");
  }
  // rule catalog.unknown-tag: an unknown tag id answers 400 naming it.
  const unknownTag = (body.tags ?? []).findIndex((t) => !catalog.tags.live(t.id));
  return unknownTag === -1 ? undefined : invalid(`tags.${unknownTag}.id`, "is not a tag of this store");
}

/** The collections after the write, matched by identity to keep ids; caps and references answer 422. */
export function mergeCollections(
  body: ProductWrite,
  current: Collections,
  productId: string,
  catalog: CatalogState,
  ids: Rng,
): Result<Collections, ApiError> {
  for (const name of ["codes", "tags", "suppliers", "components"] as const) {
    const items = body[name];
    // rule catalog.cap-codes: more than CAPS.codes items is 422 UNPROCESSABLE.
    // rule catalog.cap-tags: more than CAPS.tags items is 422 UNPROCESSABLE.
    // rule catalog.cap-suppliers: more than CAPS.suppliers items is 422 UNPROCESSABLE.
    // rule catalog.cap-components: more than CAPS.components items is 422 UNPROCESSABLE.
    if (items && items.length > CAPS[name])
      return fail(fieldError("UNPROCESSABLE", name, `at most ${CAPS[name]} items`));
  }
  const codes: readonly CodeRecord[] = body.codes ? matchCodes(body.codes, current.codes, ids) : current.codes;
  const tag_ids = body.tags ? body.tags.map((t) => t.id.toLowerCase()) : current.tag_ids;

  let suppliers: readonly SupplierLink[] = current.suppliers;
  if (body.suppliers) {
    const unknown = body.suppliers.findIndex((s) => !catalog.suppliers.live(s.supplier_id));
    if (unknown !== -1)
      return fail(fieldError("UNPROCESSABLE", `suppliers.${unknown}.supplier_id`, "is not a supplier of this store"));
    suppliers = body.suppliers.map((s) => ({
      supplier_id: s.supplier_id.toLowerCase(),
      is_primary: s.is_primary ?? false,
      supplier_code: s.supplier_code ?? null,
    }));
  }

  let components: readonly ComponentRecord[] = current.components;
  if (body.components) {
    for (let i = 0; i < body.components.length; i++) {
      const c = body.components[i] as ComponentRecord;
      if (c.product_id.toLowerCase() === productId)
        return fail(fieldError("UNPROCESSABLE", `components.${i}.product_id`, "a product cannot be its own component"));
      if (!catalog.products.live(c.product_id))
        return fail(fieldError("UNPROCESSABLE", `components.${i}.product_id`, "is not a product of this store"));
    }
    components = body.components.map((c) => ({ product_id: c.product_id.toLowerCase(), quantity: c.quantity }));
  }

  const variant_attributes: readonly AttributeRecord[] = body.variant_attributes
    ? [...body.variant_attributes]
        .sort((a, b) => a.position - b.position)
        .map((a) => ({
          id: current.variant_attributes.find((old) => old.position === a.position)?.id ?? ids.uuid(),
          name: a.name,
          position: a.position,
        }))
    : current.variant_attributes;

  return ok({ codes, tag_ids, suppliers, variant_attributes, components });
}

/**
 * Codes keep their id when re-sent: an item matches the existing code with the same type and code,
 * else an unmatched existing code of the same type, in order (so a changed value keeps its identity).
 * Several codes may share a type: with six types, the cap of 10 codes needs it.
 */
function matchCodes(
  items: readonly { type: CodeRecord["type"]; code: string }[],
  current: readonly CodeRecord[],
  ids: Rng,
): CodeRecord[] {
  const unused = new Set(current);
  const exact = items.map((item) => {
    const hit = current.find((old) => unused.has(old) && old.type === item.type && old.code === item.code);
    if (hit) unused.delete(hit);
    return hit;
  });
  return items.map((item, i) => {
    let id = exact[i]?.id;
    if (id === undefined) {
      const sameType = current.find((old) => unused.has(old) && old.type === item.type);
      if (sameType) unused.delete(sameType);
      id = sameType?.id ?? ids.uuid();
    }
    return { id, type: item.type, code: item.code };
  });
}

/** Spec, Product write rules 5: sending exactly the existing attributes is accepted even with live children. */
export function sameAttributes(a: readonly AttributeRecord[], b: readonly AttributeRecord[]): boolean {
  return a.length === b.length && a.every((x, i) => x.position === b[i]?.position && x.name === b[i]?.name);
}
