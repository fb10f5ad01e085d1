// The nanoclaw2 notifier is the only part that needs SQLite, so the binding is loaded here, on its first send, and
// nowhere else: `emit` and an empty `surface` never pay for a native module. The binding is `libsql` (a SQLite fork
// with a better-sqlite3 API) because it installs from the npm registry alone, its native library shipped inside a
// platform package, while better-sqlite3 on Node 20 builds from source for minutes when its prebuilt download is
// unreachable, and the wasm builds either keep the file in memory or lock with a `.lock` folder that the agent's
// own SQLite never looks at. Measurements: docs/integrations/nanoclaw.md and bench/nanoclaw2.mjs.
import { createRequire } from "node:module";
import { SkipSummaryError } from "../contract/errors.js";

export const SQLITE_PACKAGE = "libsql";

/** What this notifier uses of a SQLite connection: the better-sqlite3 shape that libsql also has. */
export interface SqliteDatabase {
  exec(sql: string): unknown;
  prepare(sql: string): SqliteStatement;
  close(): void;
  readonly inTransaction: boolean;
}

export interface SqliteStatement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export type OpenDatabase = (path: string, options: { timeout: number }) => SqliteDatabase;


let cached: OpenDatabase | undefined;

/** Loads the binding once per process; a failure says which package to install, and is not cached. */
export function loadSqlite(): OpenDatabase {
  if (cached !== undefined) return cached;
  let Database: new (path: string, options: { timeout: number }) => SqliteDatabase;
  try {
    Database = createRequire(import.meta.url)(SQLITE_PACKAGE) as typeof Database;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "MODULE_NOT_FOUND" ? "is not installed" : `did not load (${(error as Error).message.split("\n")[0]})`;
    // `notifiers.sqlite_unavailable`: the optional dependency is not installed or its native library does not load here.
    throw new SkipSummaryError(
      "notifiers.sqlite_unavailable",
      `the nanoclaw2 notifier needs the optional package "${SQLITE_PACKAGE}", which ${why}: ` +
        `install it next to skip-summary (npm install ${SQLITE_PACKAGE}); it ships its SQLite library for Linux, macOS and Windows on x64 and arm64`,
      { package: SQLITE_PACKAGE },
    );
  }
  cached = (path, options) => new Database(path, options);
  return cached;
}
