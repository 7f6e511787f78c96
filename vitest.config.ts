import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "scenarios/**/*.test.ts", "conformance/**/*.test.ts"],
    pool: "threads",
    // Every response a test gets is checked against the OpenAPI document (issue 7).
    setupFiles: ["src/test-support/response-validation.ts"],
    testTimeout: 20_000,
  },
});
