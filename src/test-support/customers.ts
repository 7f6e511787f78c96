// What the customers tests share: the spec's Customer table, restated here apart from the engine's own
// field lists, so a test does not take its expectations from the code it checks.

/** The nullable fields of the Customer table (spec, Resources: Customer): the personal details erasure clears. */
export const CUSTOMER_NULLABLE: readonly string[] = [
  "last_name",
  "company_name",
  "email",
  "phone",
  "mobile",
  "website",
  "gender",
  "tax_id",
  "note",
  "date_of_birth",
  "address_1",
  "address_2",
  "city",
  "state",
  "zipcode",
  "country",
  "custom_field_1",
  "custom_field_2",
  "custom_field_3",
  "custom_field_4",
];
