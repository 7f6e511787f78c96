import { ok } from "../../kernel/result.js";
import {
  identityView,
  outletView,
  paymentTypeView,
  reasonView,
  storeView,
  taxView,
} from "../../engine/account/views.js";
import { listing } from "../../engine/listing.js";
import type { accountOperations } from "../../contract/operations/account.js";
import type { HandlerMap } from "./types.js";

export const accountHandlers = {
  getMe: ({ store, credential }) => ok(identityView(store, credential)),
  getStore: ({ store }) => ok(storeView(store)),
  listOutlets: ({ store }) => ok(listing(store.outlets, outletView)),
  listPaymentTypes: ({ store }) => ok(listing(store.paymentTypes, paymentTypeView)),
  listTaxes: ({ store }) => ok(listing(store.taxes, taxView)),
  // Spec: not paginated. Disabled reasons are listed too (they exist; stock writes refuse them).
  listAdjustmentReasons: ({ store }) =>
    ok([...store.reasons.all()].filter((r) => r.deletedAt === null).map(reasonView)),
  // The document's builder and its examples load at the first request for it, not at start-up.
  getOpenapi: async ({ store, apiRoot }) =>
    ok((await import("../../contract/openapi.js")).buildOpenApi(`${apiRoot}/${store.prefix}/v1`)),
} satisfies HandlerMap<typeof accountOperations>;
