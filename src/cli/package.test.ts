import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { demoMe, launchToReady } from "../test-support/launch.js";

// docs/sdk-authors.md: the package works the way SDK authors install it. `npm pack` makes a tarball; installed into
// an empty project it runs `npx retail-sim` and `import { createSimulator } from "retail-sim"`, types included.
// It ships what users run: the bundled bin (which carries the command line's own packages), the library and
// `retail-sim/coverage` (tsconfig.build.json emits only their modules), the README and the user docs.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const npm = (args: string[], cwd: string) =>
  execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 180_000 });
let project = "";

beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), "retail-sim-pack-"));
  npm(["pack", "--pack-destination", dir, "--ignore-scripts"], ROOT);
  const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz")) as string;
  project = join(dir, "app");
  execFileSync("mkdir", ["-p", project]);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "sdk-tests", version: "1.0.0", type: "module", private: true }),
  );
  npm(["install", "--no-audit", "--no-fund", "--omit=dev", join(dir, tarball)], project);
}, 240_000);

describe("docs/sdk-authors.md, Start it in CI: the packed tarball installed into an empty project", () => {
  it("ships the built code, the user docs and no tests, no conformance suite apart from the bin's, no command-line modules", () => {
    const files = spawnSync(
      "tar",
      ["-tzf", join(project, "..", readdirSync(join(project, "..")).find((f) => f.endsWith(".tgz")) as string)],
      { encoding: "utf8" },
    ).stdout.split("\n");
    expect(files).toContain("package/dist/bin/retail-sim.js");
    expect(files).toContain("package/dist/src/index.d.ts");
    expect(files).toContain("package/dist/scenarios/fixtures/demo.js");
    expect(files).toContain("package/README.md");
    expect(files.filter((f) => /\.test\.|test-support/.test(f))).toEqual([]);
    expect(files.filter((f) => f.startsWith("package/dist/conformance") || /mutant/.test(f))).toEqual([]);
    expect(files.filter((f) => f.startsWith("package/dist/src/cli/")).sort()).toEqual([
      "package/dist/src/cli/coverage-exports.d.ts",
      "package/dist/src/cli/coverage-exports.js",
      "package/dist/src/cli/coverage-html.d.ts",
      "package/dist/src/cli/coverage-html.js",
      "package/dist/src/cli/coverage-report.d.ts",
      "package/dist/src/cli/coverage-report.js",
    ]);
    expect(files.filter((f) => f.startsWith("package/docs/")).sort()).toEqual([
      "package/docs/conformance.md",
      "package/docs/interfaces.md",
      "package/docs/sdk-authors.md",
      "package/docs/spec-choices.md",
    ]);
    expect([...new Set(files.filter((f) => f.startsWith("package/dist/")).map((f) => f.split("/")[2]))].sort()).toEqual(
      ["bin", "scenarios", "src"],
    );
  });

  it("installs only the library's dependencies: the bin's own packages are bundled in it", () => {
    const installed = (name: string) => existsSync(join(project, "node_modules", name));
    expect(["@sinclair/typebox", "ajv", "ajv-formats"].filter(installed)).toEqual([
      "@sinclair/typebox",
      "ajv",
      "ajv-formats",
    ]);
    expect(["fast-check", "undici", "yargs", "htmlparser2"].filter(installed)).toEqual([]);
  });

  it("`npx retail-sim conformance --help` prints what the bin built here prints", () => {
    const env = { ...process.env, COLUMNS: "100" };
    const installed = spawnSync("npx", ["retail-sim", "conformance", "--help"], {
      cwd: project,
      encoding: "utf8",
      env,
    });
    const here = spawnSync(process.execPath, [join(ROOT, "dist/bin/retail-sim.js"), "conformance", "--help"], {
      cwd: project,
      encoding: "utf8",
      env,
    });
    expect(here.status).toBe(0);
    expect(here.stdout.split("\n")[0]).toBe("retail-sim conformance");
    expect({ status: installed.status, stdout: installed.stdout }).toEqual({ status: 0, stdout: here.stdout });
  }, 60_000);

  it('`import * as coverage from "retail-sim/coverage"` works: its functions, no more', () => {
    writeFileSync(
      join(project, "coverage.mjs"),
      `import * as coverage from "retail-sim/coverage";
console.log(Object.keys(coverage).sort().join(","), coverage.percent({ percent: 40.44 }));
`,
    );
    const run = spawnSync(process.execPath, ["coverage.mjs"], { cwd: project, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      "FAULT_ONLY,KINDS,OVERALL,bar,coverageHtml,coverageMarkdown,coverageReportProblem,coverageSummary,faultOnlyUnmet,itemsOf,mergeCoverage,neverMet,percent,totalsOf,unexpectedOf 40.4%\n",
    );
  });

  it("`npx retail-sim --port 0 --json` prints the ready line and answers GET /me", async () => {
    const { ready, stop } = await npx(["--port", "0", "--json"]);
    try {
      const res = await demoMe(ready);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { domain_prefix: string } }).data.domain_prefix).toBe("demo");
    } finally {
      await stop();
    }
  }, 60_000);

  /** `npx retail-sim ...` in the installed project, in its own process group (stopped at the end in any case). */
  const npx = (args: string[]) => launchToReady("npx", ["retail-sim", ...args], project);

  it("under npx, the ready line's pid is the server's own: SIGTERM to it stops the server, and npx exits 0", async () => {
    const { child, ready, stop } = await npx(["--port", "0", "--json"]);
    try {
      expect(ready.pid).not.toBe(child.pid);
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(ready.pid, "SIGTERM");
      expect(await exited).toBe(0);
      await expect(fetch(`${ready.listen_url}/_sim/health`)).rejects.toThrow();
    } finally {
      await stop("SIGKILL");
    }
  }, 60_000);

  it("under npx with --exit-with-parent, SIGTERM to the npx process alone (kill $!) stops the server too", async () => {
    const { child, ready, allGone, stop } = await npx(["--port", "0", "--json", "--exit-with-parent"]);
    try {
      expect((await fetch(`${ready.listen_url}/_sim/health`)).status).toBe(200);
      child.kill("SIGTERM");
      await allGone;
      await expect(fetch(`${ready.listen_url}/_sim/health`)).rejects.toThrow();
    } finally {
      await stop("SIGKILL");
    }
  }, 60_000);

  it("under npx with --exit-with-parent, SIGKILL to the npx process alone (kill -9 $!) stops the server too", async () => {
    // npx (npm exec) is one of the server's recorded ancestors: gone, even as a zombie, it stops the server.
    const { child, ready, allGone, stop } = await npx(["--port", "0", "--json", "--exit-with-parent"]);
    try {
      expect((await fetch(`${ready.listen_url}/_sim/health`)).status).toBe(200);
      child.kill("SIGKILL");
      await allGone;
      await expect(fetch(`${ready.listen_url}/_sim/health`)).rejects.toThrow();
    } finally {
      await stop("SIGKILL");
    }
  }, 60_000);

  it('`import { createSimulator } from "retail-sim"` works in process, and its types check', () => {
    writeFileSync(
      join(project, "check.ts"),
      `import { createSimulator, type SimulatorOptions } from "retail-sim";
const options: SimulatorOptions = { clock: "manual", seed: 3 };
const sim = createSimulator(options);
const res = await sim.fetch("http://sim.test/demo/v1/me", { headers: { authorization: \`Bearer \${sim.token("demo", "full")}\` } });
const body: { data: { store_name: string } } = await res.json();
console.log(res.status, body.data.store_name, sim.clock.now());
`,
    );
    const tsc = spawnSync(
      process.execPath,
      [
        join(ROOT, "node_modules/typescript/bin/tsc"),
        "--noEmit",
        "--strict",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--target",
        "es2022",
        "--types",
        "node",
        "--typeRoots",
        join(ROOT, "node_modules/@types"),
        "check.ts",
      ],
      { cwd: project, encoding: "utf8" },
    );
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
    writeFileSync(
      join(project, "check.mjs"),
      spawnSync("cat", ["check.ts"], { cwd: project, encoding: "utf8" })
        .stdout.replace(", type SimulatorOptions", "")
        .replace(": SimulatorOptions", "")
        .replace(": { data: { store_name: string } }", ""),
    );
    const run = spawnSync(process.execPath, ["check.mjs"], { cwd: project, encoding: "utf8" });
    expect(run.stdout.trim()).toBe("200 Demo Outfitters 2026-01-01T00:00:00.000Z");
  }, 60_000);
});
