import { ListQuery, NoQuery } from "../schemas/common.js";
import { AdjustmentReason, Identity, Outlet, PaymentType, Store, Tax } from "../schemas/account.js";
import { op } from "../operation.js";

// Spec, Endpoints: the account and reference-data reads need no particular scope.
export const accountOperations = [
  op({ id: "getMe", method: "GET", path: "/me", summary: "The caller's identity", tag: "Account", scope: null, kind: "single", response: Identity }),
  op({ id: "getStore", method: "GET", path: "/store", summary: "Store settings", tag: "Account", scope: null, kind: "single", response: Store }),
  op({ id: "listOutlets", method: "GET", path: "/outlets", summary: "List outlets", tag: "Account", scope: null, kind: "list", query: ListQuery, response: Outlet }),
  op({ id: "listPaymentTypes", method: "GET", path: "/payment-types", summary: "List payment types", tag: "Account", scope: null, kind: "list", query: ListQuery, response: PaymentType }),
  op({ id: "listTaxes", method: "GET", path: "/taxes", summary: "List taxes", tag: "Account", scope: null, kind: "list", query: ListQuery, response: Tax }),
  op({
    id: "listAdjustmentReasons",
    method: "GET",
    path: "/inventory/adjustment-reasons",
    summary: "List stock adjustment reasons (not paginated)",
    tag: "Inventory",
    scope: "inventory:read",
    kind: "items",
    query: NoQuery,
    response: AdjustmentReason,
    note: "Spec: scope not shown; the simulator asks for inventory:read (docs/spec-choices.md).",
  }),
  op({
    id: "getOpenapi",
    method: "GET",
    path: "/openapi.json",
    summary: "This OpenAPI description",
    tag: "Meta",
    scope: null,
    kind: "document",
  }),
] as const;
