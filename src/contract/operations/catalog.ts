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

const CREATE_NOTE = "Spec: success status of creates not shown; the simulator answers 201 (docs/spec-choices.md).";

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
    note: "With include_deleted=true, deleted products are tombstones {id, deleted_at, version}.",
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
    note: CREATE_NOTE,
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
    note: "Answers the created children. Spec: response not shown (docs/spec-choices.md).",
  }),
] as const;

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
  deleteErrors: readonly "CONFLICT"[] = [],
) {
  const tag = plural;
  return [
    op({
      id: `list${plural}` as const,
      method: "GET",
      path,
      summary: `List ${plural.toLowerCase()}`,
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
      tag,
      scope: "catalog:write",
      idempotency: "optional",
      body: schemas.create,
      kind: "single",
      response: schemas.read,
      successStatus: 201,
      errors: ["CONFLICT", "UNPROCESSABLE"],
      note: CREATE_NOTE,
    }),
    op({
      id: `get${singular}` as const,
      method: "GET",
      path: `${path}/{id}` as const,
      summary: `Read a ${singular.toLowerCase()}`,
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
      tag,
      scope: "catalog:write",
      body: schemas.update,
      kind: "single",
      response: schemas.read,
      errors: ["CONFLICT", "UNPROCESSABLE"],
    }),
    op({
      id: `delete${singular}` as const,
      method: "DELETE",
      path: `${path}/{id}` as const,
      summary: `Delete a ${singular.toLowerCase()}`,
      tag,
      scope: "catalog:write",
      kind: "empty",
      errors: deleteErrors,
    }),
  ] as const;
}

export const taxonomyOperations = [
  ...resourceOperations("Brands", "Brand", "/brands", { read: Brand, create: BrandCreate, update: BrandUpdate }),
  ...resourceOperations(
    "Categories",
    "Category",
    "/categories",
    { read: Category, create: CategoryCreate, update: CategoryUpdate },
    ["CONFLICT"],
  ),
  ...resourceOperations("Tags", "Tag", "/tags", TagSchemas),
  ...resourceOperations("Suppliers", "Supplier", "/suppliers", SupplierSchemas),
] as const;
