import { ok } from "../../kernel/result.js";
import {
  identityView,
  outletView,
  paymentTypeView,
  reasonView,
  storeView,
  taxView,
} from "../../engine/account/views.js";
import { listFeed, listParams } from "../../engine/listing.js";
import { buildOpenApi } from "../../contract/openapi.js";
import type { Handler } from "./types.js";

export const accountHandlers = {
  getMe: ({ store, credential }) => ok(identityView(store, credential)),
  getStore: ({ store }) => ok(storeView(store)),
  listOutlets: ({ store, query }) => listFeed(store.outlets, listParams(query), outletView),
  listPaymentTypes: ({ store, query }) => listFeed(store.paymentTypes, listParams(query), paymentTypeView),
  listTaxes: ({ store, query }) => listFeed(store.taxes, listParams(query), taxView),
  // Spec: not paginated. Disabled reasons are listed too (they exist; stock writes refuse them).
  listAdjustmentReasons: ({ store }) =>
    ok([...store.reasons.all()].filter((r) => r.deletedAt === null).map(reasonView)),
  getOpenapi: ({ store, apiRoot }) => ok(buildOpenApi(`${apiRoot}/${store.prefix}/v1`)),
} satisfies Record<string, Handler>;
