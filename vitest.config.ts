import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "scenarios/**/*.test.ts", "conformance/**/*.test.ts"],
    pool: "threads",
    testTimeout: 20_000,
  },
});
