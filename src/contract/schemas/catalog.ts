import { Type, type Static, type TOptional, type TProperties } from "@sinclair/typebox";
import { DateTime, NeverDeleted, Nullable, Uuid, Version } from "./common.js";
import { StringEnum } from "./enum.js";
import { component } from "./component.js";

// Spec, Resources: Product and its sub-records, Brand, Category, Tag and Supplier.

export const CODE_TYPES = ["upc", "isbn", "itf", "ean", "jan", "custom"] as const;

const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });
/** Text that does not start or end with white space (SKUs, variant values: " S" is not a new size). */
const Trimmed = (max: number, description?: string) =>
  Type.String({ minLength: 1, maxLength: max, pattern: "^\\S(.*\\S)?$", ...(description ? { description } : {}) });
// rule catalog.decimal-money: money is integer cents: a decimal retail_price or loyalty_amount is 400 naming it.
const Cents = Type.Integer({ minimum: 0, maximum: 1_000_000_000_000, description: "Integer minor units (cents)." });
const Measure = Nullable(Type.Number({ minimum: 0, maximum: 1_000_000 }));

export const ProductCode = component(
  "ProductCode",
  Type.Object({ id: Uuid, type: StringEnum(CODE_TYPES), code: Text(255) }, { additionalProperties: false }),
);
export const ProductTag = component(
  "ProductTag",
  Type.Object({ id: Uuid, name: Type.String() }, { additionalProperties: false }),
);
export const ProductSupplier = component(
  "ProductSupplier",
  Type.Object(
    {
      supplier_id: Uuid,
      is_primary: Type.Boolean(),
      supplier_code: Nullable(Type.String()),
      supplier_name: Type.String(),
    },
    { additionalProperties: false, description: "Never carries a supply price." },
  ),
);
export const ProductAttribute = component(
  "ProductAttribute",
  Type.Object(
    { id: Uuid, name: Text(100), position: Type.Integer({ minimum: 1, maximum: 3 }) },
    { additionalProperties: false },
  ),
);
export const ProductVariantOption = component(
  "ProductVariantOption",
  Type.Object({ attribute_id: Uuid, value: Text(255) }, { additionalProperties: false }),
);
export const ProductComponent = component(
  "ProductComponent",
  Type.Object(
    { product_id: Uuid, quantity: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, decimals: 3 }) },
    { additionalProperties: false },
  ),
);

/** Scalar fields a client writes, shared by the read document and the create and update documents. */
const writableScalars = {
  name: Text(255),
  description: Nullable(Type.String({ maxLength: 65_535 })),
  active: Type.Boolean(),
  has_inventory: Type.Boolean(),
  has_variants: Type.Boolean(),
  brand_id: Nullable(Uuid),
  category_id: Uuid,
  retail_price: Cents,
  loyalty_amount: Nullable(Cents),
  sales_account_code: Nullable(Type.String({ maxLength: 100 })),
  purchase_account_code: Nullable(Type.String({ maxLength: 100 })),
  weight: Measure,
  length: Measure,
  width: Measure,
  height: Measure,
  weight_unit: Nullable(Type.String({ maxLength: 20 })),
  dimension_unit: Nullable(Type.String({ maxLength: 20 })),
} satisfies TProperties;

export const Product = component(
  "Product",
  Type.Object(
    {
      id: Uuid,
      sku: Type.String(),
      name: Type.String(),
      description: writableScalars.description,
      active: Type.Boolean(),
      is_gift_card: Type.Boolean(),
      has_inventory: Type.Boolean(),
      has_variants: Type.Boolean(),
      variant_parent_id: Nullable(Uuid),
      is_composite: Type.Boolean(),
      brand_id: Nullable(Uuid),
      category_id: Uuid,
      retail_price: Cents,
      loyalty_amount: Nullable(Cents),
      sales_account_code: Nullable(Type.String()),
      purchase_account_code: Nullable(Type.String()),
      weight: Measure,
      length: Measure,
      width: Measure,
      height: Measure,
      weight_unit: Nullable(Type.String()),
      dimension_unit: Nullable(Type.String()),
      image_url: Nullable(Type.String()),
      image_thumb_url: Nullable(Type.String()),
      codes: Type.Array(ProductCode),
      tags: Type.Array(ProductTag),
      suppliers: Type.Array(ProductSupplier),
      variant_options: Type.Array(ProductVariantOption),
      variant_attributes: Type.Array(ProductAttribute),
      components: Type.Array(ProductComponent),
      created_at: DateTime,
      updated_at: DateTime,
      version: Version,
      deleted_at: NeverDeleted,
    },
    { additionalProperties: false },
  ),
);
export type Product = Static<typeof Product>;

// Write documents: "The create and update documents match the read document" (Product write rules 2).
// rule catalog.api-owned-ignored: API-owned fields are accepted and ignored, so a read document can be sent straight back.
const CodeWrite = component(
  "ProductCodeWrite",
  Type.Object(
    { id: Type.Optional(Uuid), type: StringEnum(CODE_TYPES), code: Text(255) },
    { additionalProperties: false },
  ),
);
const TagWrite = component(
  "ProductTagWrite",
  Type.Object({ id: Uuid, name: Type.Optional(Type.String()) }, { additionalProperties: false }),
);
const SupplierWrite = component(
  "ProductSupplierWrite",
  Type.Object(
    {
      supplier_id: Uuid,
      is_primary: Type.Optional(Type.Boolean()),
      supplier_code: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
      supplier_name: Type.Optional(Type.String()),
    },
    { additionalProperties: false },
  ),
);
const AttributeWrite = component(
  "ProductAttributeWrite",
  Type.Object(
    { id: Type.Optional(Uuid), name: Text(100), position: Type.Integer({ minimum: 1, maximum: 3 }) },
    { additionalProperties: false },
  ),
);

const collectionsWrite = {
  codes: Type.Array(CodeWrite),
  tags: Type.Array(TagWrite),
  suppliers: Type.Array(SupplierWrite),
  // rule catalog.variant-attribute-limits: over 3 variant attributes or a position outside 1 to 3 is 400, not 422.
  variant_attributes: Type.Array(AttributeWrite, { maxItems: 3 }),
  components: Type.Array(ProductComponent),
};

// rule catalog.read-document-roundtrip: a read document is a valid update: its API-owned fields are accepted (and ignored: engine/catalog/product-write.ts).
const ignoredOnWrite = {
  id: Uuid,
  sku: Type.String(),
  created_at: DateTime,
  updated_at: DateTime,
  image_thumb_url: Nullable(Type.String()),
  is_gift_card: Type.Boolean(),
  is_composite: Type.Boolean(),
  variant_parent_id: Nullable(Uuid),
  variant_options: Type.Array(
    component(
      "ProductVariantOptionWrite",
      Type.Object({ attribute_id: Uuid, value: Type.String() }, { additionalProperties: false }),
    ),
  ),
};

const optionalAll = <T extends TProperties>(props: T) =>
  Object.fromEntries(Object.entries(props).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: TOptional<T[K]>;
  };

const writeProps = {
  ...optionalAll(ignoredOnWrite),
  ...optionalAll(writableScalars),
  image_url: Type.Optional(
    Nullable(Type.String({ maxLength: 2048, description: "On write, an https address to import." })),
  ),
  ...optionalAll(collectionsWrite),
};

// rule catalog.unknown-property: a product write is closed (additionalProperties false): an unknown property is 400 naming it.
export const ProductCreate = component(
  "ProductCreate",
  Type.Object(
    {
      ...writeProps,
      sku: Type.Optional(Trimmed(255, "Set only at create; generated with PRD- when left out.")),
      // rule catalog.create-required: name and retail_price are required on create (400 naming the one left out or null).
      name: Text(255),
      retail_price: Cents,
      version: Type.Optional(Type.String({ description: "Accepted and ignored on create." })),
    },
    { additionalProperties: false },
  ),
);
export type ProductCreate = Static<typeof ProductCreate>;

export const ProductUpdate = component(
  "ProductUpdate",
  Type.Object(
    {
      ...writeProps,
      version: Type.Optional(
        Type.String({ description: "Refuse the update with STALE_VERSION unless the product is at this version." }),
      ),
      expected_version: Type.Optional(
        Type.String({ description: "Same as version; if both are sent they must agree." }),
      ),
    },
    { additionalProperties: false },
  ),
);
export type ProductUpdate = Static<typeof ProductUpdate>;
export type ProductWrite = ProductCreate | ProductUpdate;

const VariantCreate = component(
  "VariantCreate",
  Type.Object(
    {
      options: Type.Array(
        component(
          "VariantCreateOption",
          Type.Object({ attribute_id: Uuid, value: Trimmed(255) }, { additionalProperties: false }),
        ),
        { minItems: 1, maxItems: 3 },
      ),
      name: Type.Optional(Text(255)),
      sku: Type.Optional(Trimmed(255)),
      retail_price: Type.Optional(Cents),
      active: Type.Optional(Type.Boolean()),
    },
    { additionalProperties: false },
  ),
);

export const VariantsBody = component(
  "VariantsCreate",
  Type.Object(
    {
      // rule catalog.variants-count: a variants call holds 1 to 200 variants (400 otherwise).
      variants: Type.Array(VariantCreate, { minItems: 1, maxItems: 200 }),
    },
    { additionalProperties: false },
  ),
);
export type VariantsBody = Static<typeof VariantsBody>;

export const Brand = component(
  "Brand",
  Type.Object(
    { id: Uuid, name: Type.String(), description: Nullable(Type.String()), version: Version },
    { additionalProperties: false },
  ),
);
export type Brand = Static<typeof Brand>;
export const BrandCreate = component(
  "BrandCreate",
  Type.Object(
    { name: Text(255), description: Type.Optional(Nullable(Type.String({ maxLength: 65_535 }))) },
    { additionalProperties: false },
  ),
);
export const BrandUpdate = component("BrandUpdate", Type.Partial(BrandCreate, { additionalProperties: false }));
export type BrandCreate = Static<typeof BrandCreate>;
export type BrandUpdate = Static<typeof BrandUpdate>;

export const Category = component(
  "Category",
  Type.Object(
    { id: Uuid, name: Type.String(), parent_id: Nullable(Uuid), depth: Type.Integer({ minimum: 0 }), version: Version },
    { additionalProperties: false },
  ),
);
export type Category = Static<typeof Category>;
export const CategoryCreate = component(
  "CategoryCreate",
  Type.Object({ name: Text(255), parent_id: Type.Optional(Nullable(Uuid)) }, { additionalProperties: false }),
);
export const CategoryUpdate = component(
  "CategoryUpdate",
  Type.Partial(CategoryCreate, { additionalProperties: false }),
);
export type CategoryCreate = Static<typeof CategoryCreate>;
export type CategoryUpdate = Static<typeof CategoryUpdate>;

/** Tags and suppliers as standalone resources: the spec shows only ids and names (plus `version`). */
export const Named = Type.Object({ id: Uuid, name: Type.String(), version: Version }, { additionalProperties: false });
export type Named = Static<typeof Named>;
export const NamedCreate = Type.Object({ name: Text(255) }, { additionalProperties: false });
export const NamedUpdate = Type.Object({ name: Type.Optional(Text(255)) }, { additionalProperties: false });
export type NamedCreate = Static<typeof NamedCreate>;
export type NamedUpdate = Static<typeof NamedUpdate>;
/** The two resources with only a name, each under its own component names in the OpenAPI document. */
export const TagSchemas = {
  read: component("Tag", Named),
  create: component("TagCreate", NamedCreate),
  update: component("TagUpdate", NamedUpdate),
};
export const SupplierSchemas = {
  read: component("Supplier", Named),
  create: component("SupplierCreate", NamedCreate),
  update: component("SupplierUpdate", NamedUpdate),
};

export const Tombstone = component(
  "Tombstone",
  Type.Object({ id: Uuid, deleted_at: DateTime, version: Version }, { additionalProperties: false }),
);
