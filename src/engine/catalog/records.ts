import type { CODE_TYPES } from "../../contract/schemas/catalog.js";

// Stored shapes of the catalog. Records are replaced, never mutated in place, so a planned write
// can be thrown away without a trace (compute, then commit).

export interface CodeRecord {
  readonly id: string;
  readonly type: (typeof CODE_TYPES)[number];
  readonly code: string;
}

export interface SupplierLink {
  readonly supplier_id: string;
  readonly is_primary: boolean;
  readonly supplier_code: string | null;
}

export interface AttributeRecord {
  readonly id: string;
  readonly name: string;
  readonly position: number;
}

export interface OptionRecord {
  readonly attribute_id: string;
  readonly value: string;
}

export interface ComponentRecord {
  readonly product_id: string;
  readonly quantity: number;
}

export interface ProductRecord {
  readonly id: string;
  readonly sku: string;
  readonly name: string;
  readonly description: string | null;
  readonly active: boolean;
  readonly is_gift_card: boolean;
  readonly has_inventory: boolean;
  readonly has_variants: boolean;
  readonly variant_parent_id: string | null;
  readonly brand_id: string | null;
  readonly category_id: string;
  readonly retail_price: number;
  readonly loyalty_amount: number | null;
  readonly sales_account_code: string | null;
  readonly purchase_account_code: string | null;
  readonly weight: number | null;
  readonly length: number | null;
  readonly width: number | null;
  readonly height: number | null;
  readonly weight_unit: string | null;
  readonly dimension_unit: string | null;
  /** The simulator's own copy of the imported image; null for none. */
  readonly image_id: string | null;
  readonly codes: readonly CodeRecord[];
  readonly tag_ids: readonly string[];
  readonly suppliers: readonly SupplierLink[];
  readonly variant_options: readonly OptionRecord[];
  readonly variant_attributes: readonly AttributeRecord[];
  readonly components: readonly ComponentRecord[];
  readonly created_at: number;
  readonly updated_at: number;
}

export interface BrandRecord {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
}

export type SystemCategory = "other" | "gift_cards";

export interface CategoryRecord {
  readonly id: string;
  readonly name: string;
  readonly parent_id: string | null;
  readonly depth: number;
  /** Spec, Resources: a system category (Other Products) and a reserved gift cards category exist. */
  readonly system: SystemCategory | null;
}

export interface NamedRecord {
  readonly id: string;
  readonly name: string;
}
