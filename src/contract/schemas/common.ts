import { Type, type TSchema } from "@sinclair/typebox";
import { ERROR_CODES, ERROR_STATUS } from "../errors.js";
import { component } from "./component.js";
import { StringEnum } from "./enum.js";

export const Uuid = Type.String({ format: "uuid", description: "A UUID." });
export const DateTime = Type.String({ format: "date-time", description: "ISO 8601 in UTC, ending in Z." });
export const Version = Type.String({
  pattern: "^[0-9]+$",
  description: "Delta-sync version of the row: a decimal integer as a string that rises with every change.",
});

/** Query of every paginated list (spec, Endpoints: common to list endpoints). */
export const ListQueryProps = {
  // rule pagination.limit-range: limit is 1 to 200 (400 VALIDATION_FAILED naming limit outside it).
  // rule pagination.limit-range-and-default: and 50 when left out.
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: "Page size, 1 to 200." })),
  cursor: Type.Optional(
    Type.String({ minLength: 1, description: "Opaque cursor from a previous page's next_cursor." }),
  ),
  order: Type.Optional(
    StringEnum(["asc", "desc"], {
      default: "asc",
      description: "asc (default) or desc; desc returns one first page only.",
    }),
  ),
  include_deleted: Type.Optional(Type.Boolean({ default: false, description: "Only with order=asc." })),
};
export const ListQuery = Type.Object(ListQueryProps, { additionalProperties: false });

export const NoQuery = Type.Object({}, { additionalProperties: false });

export const FieldErrorSchema = component(
  "FieldError",
  Type.Object(
    {
      field: Type.String({ description: "The field, nested ones named with dots (for example `lines.2`)." }),
      message: Type.String(),
    },
    { additionalProperties: false },
  ),
);

/** Spec, Errors: the codes of the error table, each answered with one status. */
export const ErrorCodeSchema = component(
  "ErrorCode",
  StringEnum(ERROR_CODES, {
    description: `One of the spec's error codes; each comes with one status: ${ERROR_CODES.map((c) => `${c} ${ERROR_STATUS[c]}`).join(", ")}.`,
  }),
);

export const ErrorDetail = component(
  "ErrorDetail",
  Type.Object(
    {
      code: ErrorCodeSchema,
      message: Type.String({ description: "For people; never parse it." }),
      fields: Type.Optional(Type.Array(FieldErrorSchema, { description: "Only for problems with particular fields." })),
    },
    { additionalProperties: false },
  ),
);

/** Spec, Errors: every failure other than the token endpoint's. */
export const ErrorEnvelope = component(
  "ErrorEnvelope",
  Type.Object({ error: ErrorDetail }, { additionalProperties: false }),
);

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * Spec, Resources and their fields: Tombstone, "{id, deleted_at, version}": `deleted_at` of a live product or
 * customer, which it never carries. `not: {}` matches no value, so the property is absent; `type: "null"` is what
 * generators that ignore `not` see (openapi-typescript, hey-api, orval: `deleted_at?: null`), so a list row of
 * `Product | Tombstone` narrows on `row.deleted_at != null` (docs/sdk-authors.md, Generate a client).
 */
export const NeverDeleted = Type.Optional(
  Type.Null({
    not: {},
    description:
      "Never present on a live row: only a Tombstone has `deleted_at` (typed null for generators, which ignore `not`).",
  }),
);
