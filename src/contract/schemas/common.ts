import { Type, type TSchema } from "@sinclair/typebox";
import { StringEnum } from "./enum.js";

export const Uuid = Type.String({ format: "uuid", description: "A UUID." });
export const DateTime = Type.String({ format: "date-time", description: "ISO 8601 in UTC, ending in Z." });
export const Version = Type.String({
  pattern: "^[0-9]+$",
  description: "Delta-sync version of the row: a decimal integer as a string that rises with every change.",
});

/** Query of every paginated list (spec, Endpoints: common to list endpoints). */
export const ListQueryProps = {
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

export const FieldErrorSchema = Type.Object(
  { field: Type.String(), message: Type.String() },
  { additionalProperties: false },
);

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String(),
        message: Type.String(),
        fields: Type.Optional(Type.Array(FieldErrorSchema)),
      },
      { additionalProperties: false },
    ),
    data: Type.Optional(Type.Unknown({ description: "The saved resource, next to IMAGE_FETCH_FAILED." })),
  },
  { additionalProperties: false },
);

export const DataEnvelope = <T extends TSchema>(data: T) => Type.Object({ data }, { additionalProperties: false });

export const ListEnvelope = <T extends TSchema>(item: T) =>
  Type.Object(
    {
      data: Type.Array(item),
      next_cursor: Type.Union([Type.String(), Type.Null()]),
      has_more: Type.Boolean(),
    },
    { additionalProperties: false },
  );

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
