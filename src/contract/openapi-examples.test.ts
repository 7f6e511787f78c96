// docs/sdk-authors.md, Examples: the committed examples of the OpenAPI documents are exactly what the generator
// makes afresh from the demo fixture.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  EXAMPLE_OPERATIONS,
  EXAMPLE_ORIGIN,
  EXAMPLES_FILE,
  generateExamples,
  serializeExamples,
} from "../test-support/openapi-examples.js";
import { OPENAPI_EXAMPLES } from "./openapi-examples.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("docs/sdk-authors.md, Examples: the committed examples are generated, not edited (npm run openapi:examples)", () => {
  it(`${EXAMPLES_FILE} equals a fresh generation from the demo fixture, byte for byte`, async () => {
    const committed = readFileSync(join(ROOT, EXAMPLES_FILE), "utf8");
    expect(committed).toBe(serializeExamples(await generateExamples()));
  }, 60_000);

  it("they cover every operation and the token endpoint, on the default API root's demo store", () => {
    expect(Object.keys(OPENAPI_EXAMPLES.operations).sort()).toEqual(EXAMPLE_OPERATIONS.map((o) => o.id).sort());
    expect(OPENAPI_EXAMPLES.server).toBe(`${EXAMPLE_ORIGIN}/demo/v1`);
  });
});
