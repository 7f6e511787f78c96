import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "scenarios/**/*.test.ts", "conformance/**/*.test.ts"],
    pool: "threads",
    // Fails a test whose simulator answered what the OpenAPI document does not describe
    // (src/test-support/response-validation.ts installs the judge as the simulator's onExchange hook).
    setupFiles: ["src/test-support/setup.ts"],
    testTimeout: 20_000,
  },
});
