import { Type, type Static } from "@sinclair/typebox";
import { SCOPES } from "../scopes.js";
import { DateTime, Uuid, Version } from "./common.js";
import { StringEnum } from "./enum.js";
import { component } from "./component.js";

// Spec, Resources: Identity (`GET /me`).
export const Identity = component(
  "Identity",
  Type.Object(
    {
      store_name: Type.String(),
      domain_prefix: Type.String({ description: "The store prefix." }),
      scopes: Type.Array(StringEnum(SCOPES)),
      key: component(
        "IdentityKey",
        Type.Object(
          { id: Uuid, name: Type.String() },
          { additionalProperties: false, description: "The API key or OAuth connection the request came with." },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);
export type Identity = Static<typeof Identity>;

// Spec: "Fields of the store record: not shown". Our choice is recorded in docs/spec-choices.md.
export const Store = component(
  "Store",
  Type.Object(
    {
      id: Uuid,
      name: Type.String(),
      domain_prefix: Type.String(),
      currency: Type.String({ pattern: "^[A-Z]{3}$" }),
      timezone: Type.String(),
      country: Type.String({ pattern: "^[A-Z]{2}$" }),
      default_outlet_id: Type.Union([Uuid, Type.Null()]),
      created_at: DateTime,
      version: Version,
    },
    { additionalProperties: false },
  ),
);
export type Store = Static<typeof Store>;

export const OUTLET_STATUSES = ["active", "inactive"] as const;
export const Outlet = component(
  "Outlet",
  Type.Object(
    {
      id: Uuid,
      name: Type.String(),
      timezone: Type.String(),
      status: StringEnum(OUTLET_STATUSES),
      default_tax_id: Uuid,
      version: Version,
    },
    { additionalProperties: false },
  ),
);
export type Outlet = Static<typeof Outlet>;

export const PaymentType = component(
  "PaymentType",
  Type.Object(
    { id: Uuid, name: Type.String(), enabled: Type.Boolean(), version: Version },
    { additionalProperties: false },
  ),
);
export type PaymentType = Static<typeof PaymentType>;

// Spec: "Fields of the tax record: not shown". `rate` is a fraction (0.15 is 15%), at most 4 decimals.
export const Tax = component(
  "Tax",
  Type.Object(
    { id: Uuid, name: Type.String(), rate: Type.Number({ minimum: 0, maximum: 1 }), version: Version },
    { additionalProperties: false },
  ),
);
export type Tax = Static<typeof Tax>;

export const REASON_TYPES = ["increase", "decrease", "any"] as const;
export const AdjustmentReason = component(
  "AdjustmentReason",
  Type.Object(
    {
      id: Uuid,
      name: Type.String(),
      type: StringEnum(REASON_TYPES, {
        description: "Direction of change the reason may record: increase, decrease or any.",
      }),
      is_system: Type.Boolean(),
      version: Version,
    },
    { additionalProperties: false },
  ),
);
export type AdjustmentReason = Static<typeof AdjustmentReason>;
