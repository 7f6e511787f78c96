import { ListQuery, NoQuery } from "../schemas/common.js";
import { AdjustmentReason, Identity, Outlet, PaymentType, Store, Tax } from "../schemas/account.js";
import { op } from "../operation.js";
import { NO_MARKER } from "./shared-text.js";

// Spec, Endpoints: the account and reference-data reads need no particular scope.
export const accountOperations = [
  op({
    id: "getMe",
    method: "GET",
    path: "/me",
    summary: "The caller's identity",
    tag: "Account",
    scope: null,
    kind: "single",
    response: Identity,
    description:
      "Who the credential belongs to. Spec, Identity: “`store_name`, `domain_prefix` (the store prefix), `scopes` (array of scope names), `key` with `id` and `name`.” Spec, Authentication 10: “The store prefix is found with `GET /me` or from `api_base_url`.” Needs no particular scope; called with an OAuth access token, `key` is the connection (its id and the app's name).",
  }),
  op({
    id: "getStore",
    method: "GET",
    path: "/store",
    summary: "Store settings",
    tag: "Account",
    scope: null,
    kind: "single",
    response: Store,
    description:
      "The store's settings. Spec, Endpoints: “Not shown: response shapes of `/store` and `/taxes`.” This server answers `id`, `name`, `domain_prefix`, `currency` (ISO 4217: every amount of the API is an integer number of its minor units), `timezone`, `country`, `default_outlet_id`, `created_at` and `version` (docs/spec-choices.md). Needs no particular scope.",
  }),
  op({
    id: "listOutlets",
    method: "GET",
    path: "/outlets",
    summary: "List outlets",
    tag: "Account",
    scope: null,
    kind: "list",
    query: ListQuery,
    response: Outlet,
    description: `The store's outlets, oldest change first, paged with a cursor. Stock writes at a deleted outlet answer \`422 OUTLET_DELETED\` (Spec, States and transitions: “A deleted outlet rejects stock writes.”). \`status\` is \`active\` or \`inactive\` (values not shown by the spec). Needs no particular scope. ${NO_MARKER}`,
  }),
  op({
    id: "listPaymentTypes",
    method: "GET",
    path: "/payment-types",
    summary: "List payment types",
    tag: "Account",
    scope: null,
    kind: "list",
    query: ListQuery,
    response: PaymentType,
    description: `The store's payment types, oldest change first, paged with a cursor; a sale's payments name them by \`payment_type_id\`. Needs no particular scope. ${NO_MARKER}`,
  }),
  op({
    id: "listTaxes",
    method: "GET",
    path: "/taxes",
    summary: "List taxes",
    tag: "Account",
    scope: null,
    kind: "list",
    query: ListQuery,
    response: Tax,
    description:
      "The store's taxes, oldest change first, paged with a cursor. Spec, Endpoints: “Not shown: response shapes of `/store` and `/taxes`.” This server answers `{id, name, rate, version}` with `rate` a fraction (0.0875 is 8.75%), not cents (docs/spec-choices.md). With `include_deleted=true`, deleted taxes read like live ones. Needs no particular scope.",
  }),
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
    description:
      "Every stock adjustment reason, disabled ones too, in one `{data: [...]}` answer without paging fields or query parameters. Spec, Endpoints: “list of AdjustmentReason; not paginated”. Stock writes refuse the system reason and disabled ones (`422 REASON_NOT_ALLOWED`). Spec, Authentication: “Scope of the adjustment-reasons list: not shown.” This server asks for `inventory:read` (docs/spec-choices.md).",
  }),
  op({
    id: "getOpenapi",
    method: "GET",
    path: "/openapi.json",
    summary: "This OpenAPI description",
    tag: "Meta",
    scope: null,
    kind: "document",
    description:
      "This document, unwrapped (not inside `{data}`), for client generators. Spec, What the service does 6: “`GET /openapi.json` under the store prefix serves the machine-readable description of the API, with the store prefix in its server URL.” Spec, Versioning 2: “The API description version is `1.0.0` and has stayed so; later changes only add fields and refusals.” Needs a valid credential of the store, no particular scope.",
  }),
] as const;
