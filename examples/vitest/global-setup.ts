// global-setup.ts: one simulator for the whole run, started before any worker; its URL goes to every test
// file (`inject("simUrl")`). When the run ends, it prints the spec coverage of the sandboxes the files used
// (saved by `removeSandbox` into `inject("coverageDir")`), added up: what the suite exercised of the spec.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSimulator } from "retail-sim";
import { type CoverageReport, coverageSummary, mergeCoverage } from "retail-sim/coverage";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The simulator's origin, for example `http://127.0.0.1:41234`. */
    simUrl: string;
    /** Where each test file leaves its sandbox's coverage (`{id}.json`) before deleting it. */
    coverageDir: string;
  }
}

/** The coverage the files left, added up, as a summary; one line when the simulator has no /coverage route. */
function summary(dir: string): string {
  const files = readdirSync(dir).sort();
  const reports = files
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as CoverageReport);
  if (reports.length > 0) return coverageSummary(mergeCoverage(reports));
  return files.some((f) => f.endsWith(".missing")) ? "coverage: this simulator has no /coverage route\n" : "";
}

export default async function setup(project: TestProject) {
  const sim = createSimulator({ clock: "manual", seed: 1 });
  const { url } = await sim.listen(0);
  const coverageDir = mkdtempSync(join(tmpdir(), "retail-sim-coverage-"));
  project.provide("simUrl", url);
  project.provide("coverageDir", coverageDir);
  return async () => {
    try {
      process.stdout.write(summary(coverageDir));
    } finally {
      rmSync(coverageDir, { recursive: true, force: true });
      await sim.close();
    }
  };
}
