// Starts one simulator for the whole run and gives its URL to every test file (`inject("simUrl")`).
import { createSimulator } from "retail-sim";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The simulator's origin, for example `http://127.0.0.1:41234`. */
    simUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const sim = createSimulator({ seed: 1 });
  const server = await sim.listen(0);
  project.provide("simUrl", server.url);
  return () => sim.close();
}
