import { iso } from "../../kernel/clock.js";
import type { AdjustmentReason, Identity, Outlet, PaymentType, Store, Tax } from "../../contract/schemas/account.js";
import { principalOf, type Credential } from "../auth/credentials.js";
import { versionOf, type Row } from "../feed.js";
import type { OutletRecord, PaymentTypeRecord, ReasonRecord, StoreState, TaxRecord } from "../store.js";

// Read documents of the account area, field for field as the spec's Resources section lists them.

// rule auth.me-identity: GET /me: the store name, its prefix, the credential's scopes and key
export function identityView(store: StoreState, credential: Credential): Identity {
  return {
    store_name: store.settings.name,
    domain_prefix: store.prefix,
    scopes: [...credential.scopes],
    key: { id: principalOf(credential).id, name: principalOf(credential).name },
  };
}

export function storeView(store: StoreState): Store {
  const s = store.settings;
  return {
    id: s.id,
    name: s.name,
    domain_prefix: s.prefix,
    currency: s.currency,
    timezone: s.timezone,
    country: s.country,
    default_outlet_id: s.defaultOutletId,
    created_at: iso(s.createdAt),
    version: String(store.settingsSeq),
  };
}

export const outletView = ({ value: o, seq }: Row<OutletRecord>): Outlet => ({
  id: o.id,
  name: o.name,
  timezone: o.timezone,
  status: o.status,
  default_tax_id: o.default_tax_id,
  version: versionOf({ seq }),
});

export const paymentTypeView = ({ value: p, seq }: Row<PaymentTypeRecord>): PaymentType => ({
  id: p.id,
  name: p.name,
  enabled: p.enabled,
  version: versionOf({ seq }),
});

export const taxView = ({ value: t, seq }: Row<TaxRecord>): Tax => ({
  id: t.id,
  name: t.name,
  rate: t.rate,
  version: versionOf({ seq }),
});

export const reasonView = ({ value: r, seq }: Row<ReasonRecord>): AdjustmentReason => ({
  id: r.id,
  name: r.name,
  type: r.type,
  is_system: r.is_system,
  version: versionOf({ seq }),
});
