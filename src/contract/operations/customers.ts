import { Type } from "@sinclair/typebox";
import { ListQueryProps } from "../schemas/common.js";
import { Customer, CustomerCreate, CustomerGroup, CustomerUpdate } from "../schemas/customers.js";
import { op } from "../operation.js";

const ListQuery = Type.Object(ListQueryProps, { additionalProperties: false });

// Spec, Limits: customer endpoints carry 30 requests per minute per credential on top of the general limit.
export const customerOperations = [
  op({ id: "listCustomers", method: "GET", path: "/customers", summary: "List customers", tag: "Customers", scope: "customers:read", rateClasses: ["customers"], kind: "list", query: ListQuery, response: Customer, tombstones: true, note: "With include_deleted=true, deleted customers are tombstones {id, deleted_at, version}." }),
  op({
    id: "createCustomer",
    method: "POST",
    path: "/customers",
    summary: "Create a customer",
    tag: "Customers",
    scope: "customers:write",
    idempotency: "optional",
    rateClasses: ["customers"],
    body: CustomerCreate,
    kind: "single",
    response: Customer,
    successStatus: 201,
    errors: ["CONFLICT", "UNPROCESSABLE"],
  }),
  op({ id: "getCustomer", method: "GET", path: "/customers/{id}", summary: "Read a customer", tag: "Customers", scope: "customers:read", rateClasses: ["customers"], kind: "single", response: Customer, note: "Spec: path not shown (docs/spec-choices.md)." }),
  op({
    id: "updateCustomer",
    method: "PATCH",
    path: "/customers/{id}",
    summary: "Update a customer (partial document)",
    tag: "Customers",
    scope: "customers:write",
    rateClasses: ["customers"],
    body: CustomerUpdate,
    kind: "single",
    response: Customer,
    errors: ["CONFLICT", "UNPROCESSABLE"],
    note: "Spec: path not shown (docs/spec-choices.md).",
  }),
  op({
    id: "deleteCustomer",
    method: "DELETE",
    path: "/customers/{id}",
    summary: "Delete a customer and erase their personal details (irreversible)",
    tag: "Customers",
    scope: "customers:write",
    rateClasses: ["customers"],
    kind: "empty",
    errors: ["CONFLICT"],
  }),
  op({ id: "listCustomerGroups", method: "GET", path: "/customer-groups", summary: "List customer groups", tag: "Customers", scope: "customers:read", kind: "list", query: ListQuery, response: CustomerGroup, note: "Spec: path not shown (docs/spec-choices.md)." }),
  op({ id: "getCustomerGroup", method: "GET", path: "/customer-groups/{id}", summary: "Read a customer group", tag: "Customers", scope: "customers:read", kind: "single", response: CustomerGroup }),
] as const;
