import { Type, type TObject } from "@sinclair/typebox";
import { ListQueryProps } from "../schemas/common.js";
import {
  Brand,
  BrandCreate,
  BrandUpdate,
  Category,
  CategoryCreate,
  CategoryUpdate,
  Product,
  ProductCreate,
  ProductUpdate,
  SupplierSchemas,
  TagSchemas,
  VariantsBody,
} from "../schemas/catalog.js";
import { op } from "../operation.js";
import { NO_KEY, NO_MARKER } from "./shared-text.js";

const ProductListQuery = Type.Object(
  {
    ...ListQueryProps,
    sku: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: "Exact SKU lookup." })),
  },
  { additionalProperties: false },
);
const ListQuery = Type.Object(ListQueryProps, { additionalProperties: false });

/** Spec, Product write rules 7: a failed image download still saves the product; the 422 carries it. */
const IMAGE_FAILED = {
  code: "IMAGE_FETCH_FAILED",
  message: "The product was saved, but its image could not be downloaded.",
} as const;

export const productOperations = [
  op({
    id: "listProducts",
    method: "GET",
    path: "/products",
    summary: "List products (full documents)",
    tag: "Products",
    scope: "catalog:read",
    kind: "list",
    query: ProductListQuery,
    response: Product,
    tombstones: true,
    description:
      "Full product documents, oldest change first, paged with a cursor: poll with the last `next_cursor` to see changes; `sku` finds one product by its exact SKU. Spec, Pagination and polling rules 4: “`include_deleted=true` works only with `order=asc`; with `desc` it answers `400 VALIDATION_FAILED`.” Deleted products then come back as tombstones `{id, deleted_at, version}`; tell them from live products by the presence of `deleted_at`.",
  }),
  op({
    id: "createProduct",
    method: "POST",
    path: "/products",
    summary: "Create a product",
    tag: "Products",
    scope: "catalog:write",
    idempotency: "optional",
    body: ProductCreate,
    kind: "single",
    response: Product,
    successStatus: 201,
    errors: ["CONFLICT", "UNPROCESSABLE", "PRODUCT_LIMIT_REACHED", "IMAGE_FETCH_FAILED"],
    savedDespite: IMAGE_FAILED,
    description:
      "Creates a product from a product document and answers it (201; the spec does not show the status, docs/spec-choices.md). Spec, Product write rules 1: “Create needs only `name` and `retail_price`.” Spec, Product write rules 7: “If the download fails, the product is still saved and the response is `422 IMAGE_FETCH_FAILED` carrying the saved product in `data` next to the `error`.” A SKU in use answers `409 CONFLICT`, a store at its product limit `402 PRODUCT_LIMIT_REACHED`, an unknown tag id `400 VALIDATION_FAILED`; writes with an `image_url` count toward a further limit of 10 per minute per credential. Optional `Idempotency-Key`.",
  }),
  op({
    id: "getProduct",
    method: "GET",
    path: "/products/{id}",
    summary: "Read a product",
    tag: "Products",
    scope: "catalog:read",
    kind: "single",
    response: Product,
    description:
      "Reads one product as its full document. Spec, What the service does 1: “A product is one document. Reads return the full nested document, and create and update accept the same document.” A deleted product, or an id of another store, answers `404 NOT_FOUND`.",
  }),
  op({
    id: "updateProduct",
    method: "PATCH",
    path: "/products/{id}",
    summary: "Update a product (partial document)",
    tag: "Products",
    scope: "catalog:write",
    body: ProductUpdate,
    kind: "single",
    response: Product,
    errors: ["STALE_VERSION", "CONFLICT", "UNPROCESSABLE", "IMAGE_FETCH_FAILED"],
    savedDespite: IMAGE_FAILED,
    description:
      "Updates a product with a partial product document and answers the whole product; API-owned fields are accepted and ignored, so a read document can be sent back. Spec, Product write rules 3: “key left out means untouched; an array replaces the collection; `[]` clears it.” Spec, Product write rules 6: “Sending `version` (or `expected_version`) with an update that no longer matches answers `409 STALE_VERSION`.” A failed image download saves the update and answers `422 IMAGE_FETCH_FAILED` as on create. Takes no `Idempotency-Key`.",
  }),
  op({
    id: "deleteProduct",
    method: "DELETE",
    path: "/products/{id}",
    summary: "Delete a product (soft delete)",
    tag: "Products",
    scope: "catalog:write",
    kind: "empty",
    errors: ["CONFLICT", "UNPROCESSABLE"],
    description:
      "Soft-deletes a product: reads of its id answer `404 NOT_FOUND`, `GET /products?include_deleted=true` shows a tombstone, and sales that name it keep working. Spec, Delete rules: “`422 UNPROCESSABLE` for a gift card; `409 CONFLICT` if a component of a composite product; `409 CONFLICT` if it has active variant children”. Deleting it again answers 404. Takes no `Idempotency-Key`.",
  }),
  op({
    id: "createVariants",
    method: "POST",
    path: "/products/{id}/variants",
    summary: "Add variant children to a variant parent (1 to 200, all or nothing)",
    tag: "Products",
    scope: "catalog:write",
    idempotency: "optional",
    body: VariantsBody,
    kind: "items",
    response: Product,
    successStatus: 201,
    errors: ["CONFLICT", "UNPROCESSABLE", "PRODUCT_LIMIT_REACHED"],
    description:
      "Adds 1 to 200 variant children to a variant parent (`has_variants` true, with `variant_attributes`; else `422 UNPROCESSABLE`) and answers the created children (201; response not shown by the spec, docs/spec-choices.md). Spec, Product write rules 9: “A combination that already exists answers `409 CONFLICT`.” and “The call is all or nothing.” A call that would pass the product limit is refused whole with `402 PRODUCT_LIMIT_REACHED`. Optional `Idempotency-Key`.",
  }),
] as const;

/** The descriptions of a taxonomy resource's five operations: each quotes the spec rule it rests on. */
interface ResourceText {
  readonly list: string;
  readonly create: string;
  readonly get: string;
  readonly update: string;
  readonly delete: string;
}

/** The five operations of a taxonomy resource; list and update paths are the natural ones (spec: not shown). */
function resourceOperations<
  const P extends string,
  const S extends string,
  const Path extends string,
  Read extends TObject,
  Create extends TObject,
  Update extends TObject,
>(
  plural: P,
  singular: S,
  path: Path,
  schemas: { read: Read; create: Create; update: Update },
  text: ResourceText,
  errors: {
    readonly create: readonly ("CONFLICT" | "UNPROCESSABLE")[];
    readonly update: readonly ("CONFLICT" | "UNPROCESSABLE")[];
    readonly delete: readonly "CONFLICT"[];
  },
) {
  const tag = plural;
  return [
    op({
      id: `list${plural}` as const,
      method: "GET",
      path,
      summary: `List ${plural.toLowerCase()}`,
      description: text.list,
      tag,
      scope: "catalog:read",
      kind: "list",
      query: ListQuery,
      response: schemas.read,
    }),
    op({
      id: `create${singular}` as const,
      method: "POST",
      path,
      summary: `Create a ${singular.toLowerCase()}`,
      description: text.create,
      tag,
      scope: "catalog:write",
      idempotency: "optional",
      body: schemas.create,
      kind: "single",
      response: schemas.read,
      successStatus: 201,
      errors: errors.create,
    }),
    op({
      id: `get${singular}` as const,
      method: "GET",
      path: `${path}/{id}` as const,
      summary: `Read a ${singular.toLowerCase()}`,
      description: text.get,
      tag,
      scope: "catalog:read",
      kind: "single",
      response: schemas.read,
    }),
    op({
      id: `update${singular}` as const,
      method: "PATCH",
      path: `${path}/{id}` as const,
      summary: `Update a ${singular.toLowerCase()}`,
      description: text.update,
      tag,
      scope: "catalog:write",
      body: schemas.update,
      kind: "single",
      response: schemas.read,
      errors: errors.update,
    }),
    op({
      id: `delete${singular}` as const,
      method: "DELETE",
      path: `${path}/{id}` as const,
      summary: `Delete a ${singular.toLowerCase()}`,
      description: text.delete,
      tag,
      scope: "catalog:write",
      kind: "empty",
      errors: errors.delete,
    }),
  ] as const;
}

/** Spec, Endpoints: the list and update paths of the four taxonomy resources are not shown. */
const PATHS_NOT_SHOWN =
  "Spec, Endpoints: “the create payloads and list/update paths of brands, categories, tags and suppliers” are not shown; this server serves them as it serves products (docs/spec-choices.md).";
/** The update path is one of those not shown. */
const UPDATE_PATH = "The spec shows no update path; this server takes `PATCH` as for products (docs/spec-choices.md).";
/** Spec, Endpoints: the success status of creates is not shown. */
const CREATED =
  "Optional `Idempotency-Key`. Spec, Endpoints: “Not shown: the HTTP success status of creates and writes other than the 204 of deletes.” This server answers 201 (docs/spec-choices.md).";
/** Spec, States and transitions, Soft deletion. */
const HIDDEN =
  "Spec, States and transitions: a deleted one “is hidden from reads, and its id then answers `NOT_FOUND`”, as do unknown ids and ids of another store.";
/** Spec, Delete rules: taxonomy deletes touch the products that used the row (follows a Delete rules quote). */
const NEW_VERSIONS =
  "and “Deleting a brand, category, tag or supplier gives a new `version` to each affected product.” Deleting it again answers `404 NOT_FOUND`.";

const BRAND_TEXT: ResourceText = {
  list: `The store's brands, oldest change first, paged with a cursor. ${NO_MARKER} ${PATHS_NOT_SHOWN}`,
  create: `Creates a brand from \`{name, description?}\` and answers it. Spec, Errors: \`409 CONFLICT\` for a “duplicate brand or tag name” (compared without case among live brands). ${CREATED}`,
  get: `Reads one brand: \`{id, name, description, version}\`. ${HIDDEN}`,
  update: `Renames a brand or changes its description. Products carry the brand's id, not its name, so a rename leaves their \`version\` as it is; a name used by another live brand answers \`409 CONFLICT\`. ${NO_KEY} ${UPDATE_PATH}`,
  delete: `Deletes a brand. Spec, Delete rules: “removed; products that used it get no brand”, ${NEW_VERSIONS}`,
};

const CATEGORY_TEXT: ResourceText = {
  list: `The category tree as a flat list, oldest change first, paged with a cursor; \`parent_id\` and \`depth\` (0 at the root) place each category. Spec, Category: “A system category and a reserved gift cards category exist.” ${NO_MARKER} ${PATHS_NOT_SHOWN}`,
  create: `Creates a category from \`{name, parent_id?}\` and answers it; names may repeat. An unknown \`parent_id\` answers \`422 UNPROCESSABLE\`, as does the gift cards category (nothing can be made under it). ${CREATED}`,
  get: `Reads one category: \`{id, name, parent_id, depth, version}\`. ${HIDDEN}`,
  update: `Renames a category or moves it with \`parent_id\`; its descendants get their new \`depth\` and a new \`version\`. A move under itself or a descendant, or any change to a system category, answers \`409 CONFLICT\`. ${NO_KEY} ${UPDATE_PATH}`,
  delete: `Deletes a category. Spec, Delete rules: “removed; products move to Other Products”, refused with “\`409 CONFLICT\` for a system category, the gift cards category, or a category with live subcategories”, ${NEW_VERSIONS}`,
};

const TAG_TEXT: ResourceText = {
  list: `The store's tags, oldest change first, paged with a cursor; products carry them as \`{id, name}\` in \`tags\`. ${NO_MARKER} ${PATHS_NOT_SHOWN}`,
  create: `Creates a tag from \`{name}\` and answers it. Spec, Errors: \`409 CONFLICT\` for a “duplicate brand or tag name” (compared without case among live tags). ${CREATED}`,
  get: `Reads one tag: \`{id, name, version}\`. Spec, Tag and Supplier: “Fields of a tag record and of a supplier record as standalone resources: not shown beyond their ids and names.” ${HIDDEN}`,
  update: `Renames a tag; a name used by another live tag answers \`409 CONFLICT\`. Each product carrying it gets a new \`version\` (Spec, Product: “It also changes when an attached tag or supplier is renamed.”). ${NO_KEY} ${UPDATE_PATH}`,
  delete: `Deletes a tag. Spec, Delete rules: “removed from every product carrying it”, ${NEW_VERSIONS}`,
};

const SUPPLIER_TEXT: ResourceText = {
  list: `The store's suppliers, oldest change first, paged with a cursor; products link them in \`suppliers\`, never with a supply price. ${NO_MARKER} ${PATHS_NOT_SHOWN}`,
  create: `Creates a supplier from \`{name}\` and answers it; names may repeat. ${CREATED}`,
  get: `Reads one supplier: \`{id, name, version}\`. Spec, Endpoints: reads by id are shown for “\`/brands/{id}\`, \`/categories/{id}\`, \`/tags/{id}\`”; this server serves suppliers the same way (docs/spec-choices.md). ${HIDDEN}`,
  update: `Renames a supplier. Each product linking it gets a new \`version\` (Spec, Product: “It also changes when an attached tag or supplier is renamed.”). ${NO_KEY} ${UPDATE_PATH}`,
  delete: `Deletes a supplier. Spec, Delete rules: “removed from every product carrying it; a purchase order naming it keeps its reference”, ${NEW_VERSIONS}`,
};

/**
 * The refusals each resource's writes answer, as its text says: a duplicate brand or tag name (spec,
 * Errors: CONFLICT "duplicate brand or tag name"), a category's parent and moves and its Delete rules.
 * Supplier names may repeat, so a supplier write has no refusal of its own.
 */
const NAMED = { create: ["CONFLICT"], update: ["CONFLICT"], delete: [] } as const;

export const taxonomyOperations = [
  ...resourceOperations(
    "Brands",
    "Brand",
    "/brands",
    { read: Brand, create: BrandCreate, update: BrandUpdate },
    BRAND_TEXT,
    NAMED,
  ),
  ...resourceOperations(
    "Categories",
    "Category",
    "/categories",
    { read: Category, create: CategoryCreate, update: CategoryUpdate },
    CATEGORY_TEXT,
    { create: ["UNPROCESSABLE"], update: ["CONFLICT", "UNPROCESSABLE"], delete: ["CONFLICT"] },
  ),
  ...resourceOperations("Tags", "Tag", "/tags", TagSchemas, TAG_TEXT, NAMED),
  ...resourceOperations("Suppliers", "Supplier", "/suppliers", SupplierSchemas, SUPPLIER_TEXT, {
    create: [],
    update: [],
    delete: [],
  }),
] as const;
