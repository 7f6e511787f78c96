// A HAR document judged against the HAR 1.2 format (har-1.2.schema.json, written from the format's
// specification): the checker the HAR export's tests use.
import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const SCHEMA_URL = new URL("./har-1.2.schema.json", import.meta.url);

let validate: ValidateFunction | undefined;

/** What is wrong with a document as HAR 1.2 (`/log/entries/0/timings: must have required property 'wait'`); empty when valid. */
export function harProblems(doc: unknown): string[] {
  validate ??= addFormats(new Ajv({ allErrors: true, allowUnionTypes: true })).compile(
    JSON.parse(readFileSync(SCHEMA_URL, "utf8")),
  );
  if (validate(doc)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"}: ${e.message ?? e.keyword}`);
}
