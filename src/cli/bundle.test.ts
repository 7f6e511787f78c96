import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import nodeModule from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

// interfaces.md, Command line: the bundled bin (dist/bin, scripts/build-bin.mjs) behaves as the command line
// run file by file from its sources (src/cli/main.ts under tsx; the build emits no dist/src/cli/main.js): the
// bundle only changes when its parts load.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = join(ROOT, "dist/bin/retail-sim.js");
const UNBUNDLED = ["--import", "tsx", join(ROOT, "src/cli/main.ts")];

beforeAll(() => {
  if (!existsSync(BIN)) spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "ignore" });
});

function run(file: string | string[], args: string[], env: NodeJS.ProcessEnv = {}) {
  const { NODE_COMPILE_CACHE: _, NODE_DISABLE_COMPILE_CACHE: __, ...inherited } = process.env;
  const r = spawnSync(process.execPath, [file, ...args].flat(), {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...inherited, COLUMNS: "100", ...env },
  });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

describe("interfaces.md, Command line: the bundled bin", () => {
  it("prints the same bytes as the unbundled command line: help screens, documents, version, a refusal", () => {
    const cases = [
      ["--help"],
      ["serve", "--help"],
      ["conformance", "--help"],
      ["openapi", "--help"],
      ["openapi", "--prefix", "acme"],
      ["openapi", "--oauth"],
      ["--version"],
      ["--port", "x"],
      ["--no-such-option"],
    ];
    for (const args of cases) {
      const bundled = run(BIN, args);
      expect(bundled, args.join(" ")).toEqual(run(UNBUNDLED, args));
      expect(bundled.stdout.length + bundled.stderr.length, args.join(" ")).toBeGreaterThan(0);
    }
  });

  it("keeps its compiled code in Node's compile cache where Node has one (22.1 and later), and prints the same from it", () => {
    const tmp = mkdtempSync(join(tmpdir(), "retail-sim-cache-"));
    const first = run(BIN, ["openapi", "--oauth"], { TMPDIR: tmp });
    const cache = join(tmp, "node-compile-cache");
    const hasCache = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === "function";
    expect(existsSync(cache)).toBe(hasCache);
    if (hasCache) expect(readdirSync(cache).length).toBeGreaterThan(0);
    const second = run(BIN, ["openapi", "--oauth"], { TMPDIR: tmp });
    expect(first.status).toBe(0);
    expect(second).toEqual(first);
    // NODE_DISABLE_COMPILE_CACHE=1 turns it off: nothing is written.
    const off = mkdtempSync(join(tmpdir(), "retail-sim-cache-"));
    expect(run(BIN, ["openapi", "--oauth"], { TMPDIR: off, NODE_DISABLE_COMPILE_CACHE: "1" })).toEqual(first);
    expect(existsSync(join(off, "node-compile-cache"))).toBe(false);
  });
});
