import { configDefaults, defineConfig } from "vitest/config";

// A machine's extra CA bundle (NODE_EXTRA_CA_CERTS) costs every Node start ~37 ms to parse, and the tests start
// hundreds (workers, fixtures, the built CLI where the process boundary matters); none talks TLS to the outside.
// A test that needs it passes it to its child explicitly.
delete process.env.NODE_EXTRA_CA_CERTS;

// Three projects: `default` is what a developer runs on every change (`npm run test:fast`), `stress` holds the
// fault, kill and adversarial campaigns (`test/stress/`), `packaging` checks what ships by packing and installing it
// (`npm pack`, pip; `test/packaging/`). CI (`npm test`) runs all three. docs/testing.md says which
// tests go where and how a CLI test runs in process or through the built CLI.
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The CLI tests spawn real processes; two cores cannot run many files at once without timeouts.
    maxWorkers: 2,
    // Attaches the helpers' cleanups (test/helpers/after-each.ts) to every file.
    setupFiles: ["test/setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "default",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/stress/**", "test/packaging/**"],
          // The files of a worker share one module graph: evaluating src/ (zod schemas, commander, the notifiers)
          // once per worker instead of once per file took the project from 56 s to 18 s on a subset of 511 tests.
          isolate: false,
        },
      },
      { extends: true, test: { name: "stress", include: ["test/stress/**/*.test.ts"] } },
      { extends: true, test: { name: "packaging", include: ["test/packaging/**/*.test.ts"] } },
    ],
  },
});
