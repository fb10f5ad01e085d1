// Helpers that leave things behind (temp folders, servers, child processes) register their cleanup here once, at
// import. A module-level afterEach would not do: the default project shares one module graph across the test files
// of a worker (isolate: false, vitest.config.ts), so a helper module runs once and its hook would only attach to the
// first file that imported it. test/setup.ts runs these after every test of every file.
const cleanups: (() => Promise<void> | void)[] = [];

/** Runs `cleanup` after each test, in every test file. */
export function afterEachTest(cleanup: () => Promise<void> | void): void {
  cleanups.push(cleanup);
}

/** The cleanups, last registered first (as vitest runs stacked hooks). */
export async function runCleanups(): Promise<void> {
  for (const cleanup of [...cleanups].reverse()) await cleanup();
}
