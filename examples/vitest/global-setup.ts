// global-setup.ts: the simulator every test file shares, and the name of the run their sandboxes are tagged
// with. In CI the job starts one simulator before the tests and exports RETAIL_SIM_URL (docs/sdk-authors.md,
// Start it in CI); then the job's next step writes the run's coverage report (`retail-sim coverage --from
// $RETAIL_SIM_URL/_sim/runs/$RETAIL_SIM_RUN`). Without RETAIL_SIM_URL the setup starts one in process, and the
// teardown prints the run's coverage before stopping it, since nothing can read it afterwards.
import { createSimulator } from "retail-sim";
import { type CoverageReport, coverageSummary } from "retail-sim/coverage";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The simulator's API root, for example `http://127.0.0.1:41234`. */
    simUrl: string;
    /** The run every sandbox of this test run is tagged with (`POST /_sim/sandboxes {"run": ...}`). */
    run: string;
  }
}

export default async function setup(project: TestProject) {
  const run = process.env.RETAIL_SIM_RUN ?? "vitest";
  project.provide("run", run);
  const shared = process.env.RETAIL_SIM_URL;
  if (shared) {
    project.provide("simUrl", shared.replace(/\/$/, ""));
    return;
  }
  const sim = createSimulator({ clock: "manual", seed: 1 });
  const { url } = await sim.listen(0);
  project.provide("simUrl", url);
  return async () => {
    try {
      const res = await fetch(`${url}/_sim/runs/${run}/coverage`);
      if (res.status !== 200) throw new Error(`GET /_sim/runs/${run}/coverage answered ${res.status}`);
      process.stdout.write(coverageSummary((await res.json()) as CoverageReport));
    } finally {
      await sim.close();
    }
  };
}
