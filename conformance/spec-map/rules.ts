import type { SpecSentence } from "./entry.js";
import { checked } from "./entry.js";

// Spec map: Inventory rules, Sales list rules, Pagination and polling rules.

const I = "Endpoints: Inventory rules";
const S = "Endpoints: Sales list rules";
const PG = "Endpoints: Pagination and polling rules";

export const ruleMap: readonly SpecSentence[] = [
  checked(I, "PUT sets an absolute level.", "inventory.set-result", "inventory.quantity-three-decimals"),
  checked(I, "Repeating the same on_hand changes nothing (changed false).", "inventory.set-result"),
  checked(
    I,
    "Without reason_id, the change is recorded under the system reason named Stock set via API.",
    "inventory.set-result",
    "inventory.system-reason-refused",
  ),
  checked(
    I,
    "Each batch line has exactly one of set (absolute) or adjust (relative), and exactly one of product_id or sku, plus outlet_id.",
  ),
  checked(I, "A sku is matched case-insensitively against live products only, never against barcodes."),
  checked(I, "A batch is all or nothing: a bad line (for example an unknown sku) writes nothing."),
  checked(I, "A product and outlet pair may appear only once per batch."),
  checked(I, "A replayed batch marks every line replayed: true."),
  checked(
    I,
    "unit_cost (integer cents): on a set, it becomes the outlet's average cost",
    "inventory.unit-cost-average",
  ),
  checked(I, "If left out, the average is kept.", "inventory.unit-cost-average"),
  checked(
    I,
    "Refusals: 422 INSUFFICIENT_STOCK (would go below zero), 422 NOT_STOCK_TRACKED, 422 REASON_NOT_ALLOWED",
    "inventory.system-reason-refused",
    "inventory.disabled-reason-refused",
    "inventory.reason-direction-mismatch",
    "inventory.outlet-deleted",
  ),

  checked(
    S,
    "completed_from and completed_to filter completed_at; they must be UTC ending in Z (an offset is refused); both ends are inclusive.",
  ),
  checked(S, "status accepts completed, partially_refunded, refunded, voided."),
  checked(S, "status=open answers 400 VALIDATION_FAILED."),
  checked(S, "include_deleted on sales answers 400 VALIDATION_FAILED."),
  checked(S, "Without parent_sale_id, originals and refunds are both returned.", "sales.refund-new-version"),

  checked(PG, "Rows come oldest change first.", "catalog.version-rises", "pagination.desc-one-page"),
  checked(PG, "cursor is opaque and must be passed back unchanged.", "catalog.feed-model"),
  checked(PG, "An unreadable cursor answers 400 VALIDATION_FAILED with a cursor field error."),
  checked(PG, "An empty page returns next_cursor: null; keep the cursor already held.", "catalog.feed-model"),
  checked(
    PG,
    "order=desc returns one first page only: no next_cursor, has_more false, and any cursor is only validated.",
  ),
  checked(PG, "include_deleted=true works only with order=asc; with desc it answers 400 VALIDATION_FAILED."),
  checked(
    PG,
    "On products and customers deleted rows are tombstones; on other lists deleted rows return in normal shape with no marker.",
    "catalog.product-delete",
  ),
  checked(
    PG,
    "Stock levels have no change feed; poll GET /products/{id}/inventory.",
    "inventory.set-result",
    "inventory.level-version-rises",
  ),
];
