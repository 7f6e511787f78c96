// A vitest project testing an SDK against one retail-sim shared by parallel workers: the global setup finds the
// simulator (or starts one), and each test file makes a sandbox of its own, tagged with the run's name (its own
// stores, keys, clock, limits and faults), so files run side by side without seeing each other's state.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    root: fileURLToPath(new URL(".", import.meta.url)),
    include: ["*.test.ts"],
    globalSetup: ["./global-setup.ts"],
    // Files run at the same time, each in a worker of its own: sandboxes are what makes that safe.
    fileParallelism: true,
    pool: "threads",
    maxWorkers: 4,
  },
});
