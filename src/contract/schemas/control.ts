import { Type, type Static } from "@sinclair/typebox";
import { SCOPES } from "../scopes.js";
import { PLANS, STORE_STATUSES } from "../store-states.js";
import { DateTime } from "./common.js";
import { StringEnum } from "./enum.js";
import { FixtureSpec } from "./fixture.js";
import type { Snapshot } from "./snapshot.js";

// Bodies of the control plane (docs/interfaces.md, Control plane). Strict like the API: unknown properties are refused.

/**
 * What a world starts from: a built-in fixture by name, an authored fixture document, or a snapshot. A
 * document with `format` is a snapshot, checked in full where it is restored (engine/snapshot/check.ts,
 * by the snapshot's own compiled schema), so its errors name the snapshot's fields and a large one is
 * checked once.
 */
export const FixtureSource = Type.Unsafe<"demo" | "empty" | FixtureSpec | Snapshot>({
  if: { type: "object", required: ["format"] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable.
  then: { type: "object" },
  else: Type.Union([StringEnum(["demo", "empty"]), FixtureSpec]),
});

export const ResetBody = Type.Object(
  {
    seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295 })),
    fixture: Type.Optional(FixtureSource),
  },
  { additionalProperties: false },
);
export type ResetBody = Static<typeof ResetBody>;

/** A test run's name, as sandboxes carry it (docs/interfaces.md, Journal and coverage: coverage of a run). */
export const RUN_NAME = "^[A-Za-z0-9._-]{1,64}$";

/** The run a sandbox counts toward when its body names none (the default sandbox's too). */
export const DEFAULT_RUN = "default";

/**
 * `POST /_sim/sandboxes`: a sandbox's seed, fixture and clock, each defaulting to the simulator's own, and the
 * test run whose coverage its exchanges count toward.
 */
export const SandboxBody = Type.Object(
  {
    seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 4294967295 })),
    fixture: Type.Optional(FixtureSource),
    clock: Type.Optional(StringEnum(["system", "manual"])),
    now: Type.Optional(DateTime),
    run: Type.Optional(Type.String({ pattern: RUN_NAME })),
  },
  { additionalProperties: false },
);
export type SandboxBody = Static<typeof SandboxBody>;

export const ClockBody = Type.Union([
  Type.Object({ advance_seconds: Type.Number({ minimum: 0, maximum: 3153600000 }) }, { additionalProperties: false }),
  Type.Object({ set: DateTime }, { additionalProperties: false }),
]);
export type ClockBody = Static<typeof ClockBody>;

export const KeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    scopes: Type.Array(StringEnum(SCOPES), { uniqueItems: true }),
  },
  { additionalProperties: false },
);
export type KeyBody = Static<typeof KeyBody>;

export const StorePatchBody = Type.Object(
  {
    plan: Type.Optional(StringEnum(PLANS)),
    status: Type.Optional(StringEnum(STORE_STATUSES)),
    product_limit: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type StorePatchBody = Static<typeof StorePatchBody>;

export const FaultBody = Type.Object(
  {
    method: Type.Optional(StringEnum(["GET", "POST", "PUT", "PATCH", "DELETE"])),
    path: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, pattern: "^/" })),
    status: Type.Optional(Type.Integer({ minimum: 400, maximum: 599 })),
    code: Type.Optional(Type.String({ pattern: "^[A-Z_]+$" })),
    times: Type.Optional(Type.Integer({ minimum: 1 })),
    delay_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 600000 })),
    after_commit: Type.Optional(
      Type.Boolean({
        description:
          "Process the request in full (the write is committed), then answer status and code instead: the response is lost.",
      }),
    ),
    hold: Type.Optional(
      Type.Boolean({
        description:
          "Hold matching requests mid-processing until POST /_sim/faults/{id}/release (or DELETE /_sim/faults).",
      }),
    ),
  },
  { additionalProperties: false },
);
export type FaultBody = Static<typeof FaultBody>;

export const ImageBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048 }),
    outcome: StringEnum(["ok", "fail", "busy"], {
      description: "ok: stored; fail: IMAGE_FETCH_FAILED; busy: 429 with nothing written.",
    }),
  },
  { additionalProperties: false },
);
export type ImageBody = Static<typeof ImageBody>;

/** `POST /_sim/stores/{prefix}/outlets`: a new outlet; the engine checks the zone and the tax (engine/control.ts). */
export const OutletBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    timezone: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: "An IANA time zone name (America/Chicago). Left out: the store's time zone.",
      }),
    ),
    default_tax_id: Type.Optional(
      Type.String({ format: "uuid", description: "One of the store's taxes. Left out: the store's first tax." }),
    ),
  },
  { additionalProperties: false },
);
export type OutletBody = Static<typeof OutletBody>;

export const ReasonPatchBody = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });
export type ReasonPatchBody = Static<typeof ReasonPatchBody>;

const ControlQuantity = Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, decimals: 3 });

export const SaleBody = Type.Object(
  {
    outlet_id: Type.String({ format: "uuid" }),
    customer_id: Type.Optional(Type.String({ format: "uuid", description: "Left out: the walk-in customer." })),
    lines: Type.Array(
      Type.Object(
        {
          product_id: Type.String({ format: "uuid" }),
          quantity: ControlQuantity,
          unit_price: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 500 },
    ),
    payment_type_id: Type.Optional(Type.String({ format: "uuid" })),
    completed_at: Type.Optional(DateTime),
    parked: Type.Optional(Type.Boolean({ description: "Make an open (parked) sale, which the API never shows." })),
  },
  { additionalProperties: false },
);
export type SaleBody = Static<typeof SaleBody>;

export const RefundBody = Type.Object(
  {
    lines: Type.Optional(
      Type.Array(
        Type.Object(
          { product_id: Type.String({ format: "uuid" }), quantity: ControlQuantity },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 500 },
      ),
    ),
  },
  { additionalProperties: false },
);
export type RefundBody = Static<typeof RefundBody>;

export const AuthorizeBody = Type.Object(
  {
    user_id: Type.String({ format: "uuid" }),
    client_id: Type.String({ minLength: 1 }),
    redirect_uri: Type.String({ minLength: 1 }),
    scope: Type.String(),
    state: Type.Optional(Type.String()),
    code_challenge: Type.Optional(Type.String()),
    code_challenge_method: Type.Optional(Type.String()),
    response_type: Type.Optional(Type.String({ description: "Default code." })),
    decision: StringEnum(["allow", "cancel"]),
  },
  { additionalProperties: false },
);
export type AuthorizeBody = Static<typeof AuthorizeBody>;

export const ClientBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    redirect_uris: Type.Array(Type.String({ format: "uri", maxLength: 2000 }), { minItems: 1, maxItems: 20 }),
  },
  { additionalProperties: false },
);
export type ClientBody = Static<typeof ClientBody>;
