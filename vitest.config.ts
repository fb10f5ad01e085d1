import { readFileSync } from "node:fs";
import { configDefaults, defineConfig } from "vitest/config";
import { useScratchFolder } from "./test/scratch-folder.js";

// A machine's extra CA bundle (NODE_EXTRA_CA_CERTS) costs every Node start ~37 ms to parse, and the tests start
// hundreds (workers, fixtures, the built CLI where the process boundary matters); none talks TLS to the outside.
// A test that needs it passes it to its child explicitly.
delete process.env.NODE_EXTRA_CA_CERTS;

// The tests' temp folders: one folder for the run, on tmpfs where the machine has room (test/scratch-folder.ts says why).
useScratchFolder();

// Vitest's on-disk cache of transformed modules (experimental.fsModuleCache, node_modules/.experimental-vitest-cache)
// keys each file by its content, this config file and the lockfile, but the TypeScript transform also reads
// tsconfig.json (target, verbatimModuleSyntax...): its text joins the key, so an edit there cannot serve stale code.
let tsconfigInKey = false;
const tsconfigCacheKey = {
  name: "skip-summary:tsconfig-in-module-cache-key",
  configureVitest({ experimental_defineCacheKeyGenerator }: { experimental_defineCacheKeyGenerator: (key: () => string) => void }) {
    if (tsconfigInKey) return; // the hook runs once per project
    tsconfigInKey = true;
    const tsconfig = readFileSync(new URL("tsconfig.json", import.meta.url), "utf8");
    experimental_defineCacheKeyGenerator(() => tsconfig);
  },
};

// Four projects: `default` is what a developer runs on every change (`npm run test:fast`), `stress` holds the
// fault, kill and adversarial campaigns (`test/stress/`), `packaging` checks what ships by packing and installing it
// (`npm pack`, pip; `test/packaging/`), `field` runs the real Claude Code (`test/field/`). CI (`npm test`) runs all
// four. docs/testing.md says which
// tests go where and how a CLI test runs in process or through the built CLI.
export default defineConfig({
  plugins: [tsconfigCacheKey],
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Three files at once on this project's 2-core machine: a test file often waits (on a child process, a timer, a
    // real Alertmanager), and a third worker keeps both cores busy meanwhile. Interleaved at 21:00 UTC, the default
    // project took 25.2/22.9/22.4 s with 2 workers and 19.6/20.4/20.4 s with 3, the same CPU (~36 s); stress and
    // packaging 157 s (175-206 s with 2). More would only add module graphs and timeouts (docs/testing.md).
    maxWorkers: 3,
    // The main process turns ~440 TypeScript modules into JavaScript for the workers: ~3 of its ~6.5 s of CPU per
    // run. This keeps the result on disk between runs (a rerun: 6.3 s -> 3.1 s of that process's CPU). A fresh
    // clone (CI) starts empty and pays what it paid before. `npx vitest --clearCache` empties it.
    experimental: { fsModuleCache: true },
    // Attaches the helpers' cleanups (test/helpers/after-each.ts) to every file.
    setupFiles: ["test/setup.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "default",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/stress/**", "test/packaging/**", "test/field/**"],
          // The files of a worker share one module graph: evaluating src/ (zod schemas, commander, the notifiers)
          // once per worker instead of once per file took the project from 56 s to 18 s on a subset of 511 tests.
          isolate: false,
        },
      },
      { extends: true, test: { name: "stress", include: ["test/stress/**/*.test.ts"] } },
      { extends: true, test: { name: "packaging", include: ["test/packaging/**/*.test.ts"] } },
      // The real Claude Code against a scripted model (docs/testing.md, "Field tests"): its own install (`npm ci --prefix
      // test/field`), so each file registers skipped tests without it, and fails under CI=true.
      { extends: true, test: { name: "field", include: ["test/field/**/*.test.ts"], testTimeout: 120_000 } },
    ],
  },
});
