import { Sale, SalesQuery } from "../schemas/sales.js";
import { op } from "../operation.js";

// rule sales.read-only: sales are read only: the table holds no write of a sale, so POST, PATCH and DELETE answer 404.
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
    description:
      "Sales and refunds as full documents, oldest change first, paged with a cursor; a refund gives its original a new `version` and status, so a poll sees the original again. Spec, Sales list rules 2: “`status=open` answers `400 VALIDATION_FAILED`.” Spec, Sales list rules 4: “Without `parent_sale_id`, originals and refunds are both returned.” `completed_from` and `completed_to` are inclusive and must end in `Z`; `include_deleted` answers 400 (sales are never deleted).",
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
    description:
      "Reads one sale or refund (a refund has `parent_sale_id` set). Spec, What the service does 3: “Sales are never deleted. The sale list and a single sale read return the same full sale document.” A parked (`open`) sale answers `404 NOT_FOUND`, as do unknown ids and ids of another store.",
  }),
] as const;
