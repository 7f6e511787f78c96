import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { describe, expect, it } from "vitest";

// README, Quick start: Node.js 20.19+, 22 and 24 are supported, and `npm install` on them prints no EBADENGINE
// warning. npm warns when an installed package's `engines.node` excludes the running Node, so every package in
// package-lock.json (optional ones for other platforms included) must admit every supported release. On 22 the
// floor is 22.13: yargs (a dependency) asks for 22.12+, rolldown's WebAssembly binding (vitest's, on platforms
// without a native one) for 22.13+.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SUPPORTED = "^20.19.0 || ^22.13.0 || ^24.0.0";
const read = (file: string) => JSON.parse(readFileSync(`${ROOT}${file}`, "utf8"));

describe("README, Quick start: npm install warns of no unsupported engine on Node 20.19+, 22 and 24", () => {
  it("package.json's own engines admit every supported release", () => {
    expect(semver.subset(SUPPORTED, read("package.json").engines.node)).toBe(true);
  });

  it("every package in package-lock.json declares engines.node that admit every supported release", () => {
    const packages: Record<string, { version?: string; engines?: { node?: string } | string[] }> =
      read("package-lock.json").packages;
    const excluding = Object.entries(packages)
      .filter(([path]) => path !== "")
      .map(([path, p]) => ({ path, node: Array.isArray(p.engines) ? undefined : p.engines?.node }))
      .filter(({ node }) => node !== undefined && !semver.subset(SUPPORTED, node, { includePrerelease: false }))
      .map(({ path, node }) => `${path.replace(/^.*node_modules\//, "")}@${packages[path]?.version}: ${node}`);
    expect(Object.keys(packages).length).toBeGreaterThan(100);
    expect(excluding).toEqual([]);
  });
});
