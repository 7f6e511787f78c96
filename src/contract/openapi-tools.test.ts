import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { describe, expect, it } from "vitest";
import { buildOpenApi } from "./openapi.js";

// docs/sdk-authors.md, Generate a client: independent tools judge the document. Redocly's recommended rules find
// nothing, and openapi-typescript generates the types the client test uses (committed, and kept in step here).

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DOC = buildOpenApi("http://127.0.0.1:4747/demo/v1");

describe("docs/sdk-authors.md, Generate a client: the OpenAPI document passes independent tools", () => {
  it("@redocly/cli lint with the recommended rules reports no error and no warning", () => {
    const file = join(mkdtempSync(join(tmpdir(), "retail-sim-")), "openapi.json");
    writeFileSync(file, JSON.stringify(DOC));
    const run = spawnSync(
      join(ROOT, "node_modules/.bin/redocly"),
      ["lint", "--extends=recommended", "--format=json", file],
      {
        cwd: ROOT,
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      },
    );
    const report = JSON.parse(run.stdout.slice(run.stdout.indexOf("{"))) as {
      totals: { errors: number; warnings: number };
      problems: unknown[];
    };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(run.status).toBe(0);
  });

  it("openapi-typescript generates exactly the committed types (run `npm run openapi:types` after changing the contract)", async () => {
    const fresh = astToString(await openapiTS(DOC as Parameters<typeof openapiTS>[0]));
    const committed = readFileSync(join(ROOT, "src/test-support/generated/api.d.ts"), "utf8");
    const body = (text: string) => text.slice(text.indexOf("export interface paths"));
    expect(body(committed)).toBe(body(fresh));
  }, 30_000);
});
