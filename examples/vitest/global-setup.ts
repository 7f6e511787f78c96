// global-setup.ts: one simulator for the whole run, started before any worker; its URL goes to every test
// file (`inject("simUrl")`).
import { createSimulator } from "retail-sim";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The simulator's origin, for example `http://127.0.0.1:41234`. */
    simUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const sim = createSimulator({ clock: "manual", seed: 1 });
  const { url } = await sim.listen(0);
  project.provide("simUrl", url);
  return () => sim.close();
}
