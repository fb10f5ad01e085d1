import { configDefaults, defineConfig } from "vitest/config";

// Two projects: `default` is what a developer runs on every change (`npm run test:fast`), `stress` holds the
// fault, kill and adversarial campaigns (`test/stress/`). CI (`npm test`) runs both.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The CLI tests spawn real processes; two cores cannot run many files at once without timeouts.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: "default", include: ["test/**/*.test.ts"], exclude: [...configDefaults.exclude, "test/stress/**"] },
      },
      { extends: true, test: { name: "stress", include: ["test/stress/**/*.test.ts"] } },
    ],
  },
});
