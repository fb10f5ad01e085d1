import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The CLI tests spawn real processes; two cores cannot run many files at once without timeouts.
    maxWorkers: 2,
  },
});
