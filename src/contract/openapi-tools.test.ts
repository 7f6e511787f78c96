import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { describe, expect, it } from "vitest";
import { buildOpenApi } from "./openapi.js";
import { buildOAuthOpenApi } from "./openapi-oauth.js";

// docs/sdk-authors.md, Generate a client: independent tools judge the document. Redocly's recommended rules find
// nothing, Spectral's (.spectral.yaml) nothing but the limitation the ruleset explains, and openapi-typescript
// generates the types the client test uses (committed, and kept in step here).

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DOC = buildOpenApi("http://127.0.0.1:4747/demo/v1");
const OAUTH_DOC = buildOAuthOpenApi("http://127.0.0.1:4747");

describe("docs/sdk-authors.md, Generate a client: the OpenAPI document passes independent tools", () => {
  it("@redocly/cli lint with the recommended rules reports no error and no warning in either document", () => {
    const dir = mkdtempSync(join(tmpdir(), "retail-sim-"));
    for (const [name, doc] of [
      ["openapi.json", DOC],
      ["oauth-openapi.json", OAUTH_DOC],
    ] as const) {
      writeFileSync(join(dir, name), JSON.stringify(doc));
      const run = spawnSync(
        join(ROOT, "node_modules/.bin/redocly"),
        ["lint", "--extends=recommended", "--format=json", join(dir, name)],
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
      expect(report.problems, name).toEqual([]);
      expect(report.totals, name).toMatchObject({ errors: 0, warnings: 0 });
      expect(run.status, name).toBe(0);
    }
  });

  it("spectral lint with .spectral.yaml (spectral:oas) finds nothing in either document but what .spectral.yaml explains", () => {
    const dir = mkdtempSync(join(tmpdir(), "retail-sim-"));
    writeFileSync(join(dir, "openapi.json"), JSON.stringify(DOC));
    writeFileSync(join(dir, "oauth-openapi.json"), JSON.stringify(OAUTH_DOC));
    const run = spawnSync(
      join(ROOT, "node_modules/.bin/spectral"),
      ["lint", "openapi.json", "oauth-openapi.json", "--ruleset", join(ROOT, ".spectral.yaml"), "--format=json", "-q"],
      { cwd: dir, encoding: "utf8", timeout: 60_000 },
    );
    expect(run.stderr).toBe("");
    const findings = JSON.parse(run.stdout) as SpectralFinding[];
    const roleNames = findings.filter(isApiKeyRoleName);
    expect(findings.filter((f) => !roleNames.includes(f)).map(describeFinding)).toEqual([]);
    // The tool's limitation: one finding per scope an operation lists under its `apiKey` requirement, no other.
    expect(roleNames.map((f) => `${f.path.join(" ")}: ${f.message}`)).toEqual(
      apiKeyRoleNames(DOC).map(({ at, name }) => `${at.join(" ")}: "${name}" must be listed among scopes.`),
    );
    expect(run.status).toBe(0);
  });

  it("openapi-typescript generates exactly the committed types (run `npm run openapi:types` after changing the contract)", async () => {
    const fresh = astToString(await openapiTS(DOC as Parameters<typeof openapiTS>[0]));
    const committed = readFileSync(join(ROOT, "src/test-support/generated/api.d.ts"), "utf8");
    const body = (text: string) => text.slice(text.indexOf("export interface paths"));
    expect(body(committed)).toBe(body(fresh));
  }, 30_000);
});

interface SpectralFinding {
  code: string;
  path: (string | number)[];
  message: string;
  source: string;
}

const describeFinding = (f: SpectralFinding) =>
  `${f.source.slice(f.source.lastIndexOf("/") + 1)} ${f.path.join(".")}: ${f.code} ${f.message}`;

/** .spectral.yaml: oas3-operation-security-defined takes a role name of an `http` scheme (OpenAPI 3.1) for a scope. */
const isApiKeyRoleName = (f: SpectralFinding) =>
  f.code === "oas3-operation-security-defined" &&
  f.source.endsWith("/openapi.json") &&
  f.path[0] === "paths" &&
  f.path[3] === "security" &&
  f.path[5] === "apiKey";

/** Every name listed under an `apiKey` security requirement of an operation, and where. */
function apiKeyRoleNames(doc: unknown): { at: (string | number)[]; name: string }[] {
  const paths = (doc as { paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>> }).paths;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, op]) =>
      (op.security ?? []).flatMap((requirement, i) =>
        (requirement.apiKey ?? []).map((name, j) => ({
          at: ["paths", path, method, "security", i, "apiKey", j],
          name,
        })),
      ),
    ),
  );
}
