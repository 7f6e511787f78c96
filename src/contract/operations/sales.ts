import { Sale, SalesQuery } from "../schemas/sales.js";
import { op } from "../operation.js";

export const saleOperations = [
  op({
    id: "listSales",
    method: "GET",
    path: "/sales",
    summary: "List sales and refunds (full documents)",
    tag: "Sales",
    scope: "sales:read",
    kind: "list",
    query: SalesQuery,
    response: Sale,
    note: "status=open and include_deleted answer 400 VALIDATION_FAILED. Without parent_sale_id, originals and refunds both come back.",
  }),
  op({
    id: "getSale",
    method: "GET",
    path: "/sales/{id}",
    summary: "Read a sale (the same full document as the list)",
    tag: "Sales",
    scope: "sales:read",
    kind: "single",
    response: Sale,
  }),
] as const;
