// Every failure stays on record, handled or not: one JSON line per failed attempt, appended to a file.
// The append goes through the safe-path layer: a link planted at the log's name is refused, never followed.
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { appendSafely } from "../../fs/index.js";

/** What became of a failed attempt. */
export type FailureDisposition = "retried" | "healed" | "continued" | "caught" | "ignored" | "cancelled" | "failed";

export interface FailureEntry {
  readonly time: string;
  readonly skill: string;
  readonly step: string;
  readonly attempt: number;
  readonly exit_code: number | null;
  readonly signal: string | null;
  readonly timed_out: boolean;
  /** The step's on_error strategy (abort, continue, retry, auto_heal), or `heal` for a heal command. */
  readonly strategy: string;
  readonly disposition: FailureDisposition;
  /** True when the plan carried on past this failure (the step recovered, or the failure was continued, caught or ignored). */
  readonly recovered: boolean;
  readonly stderr_tail: string;
}

export const STDERR_TAIL_MAX = 2_000;

export interface FailuresLog {
  readonly path: string | undefined;
  record(entry: FailureEntry): void;
  /** Resolves when every line is on disk; the first write error, if any, is returned rather than thrown. */
  close(): Promise<Error | undefined>;
}

/**
 * Appends in order through one promise chain; `path` undefined keeps entries in memory only. The folder is
 * created (on the first failure) only when `createDir` says so: the default path lives in the workspace, and a
 * mistyped workspace must fail loudly rather than be created.
 */
export function createFailuresLog(path: string | undefined, sink?: (entry: FailureEntry) => void, createDir = false): FailuresLog {
  let chain: Promise<void> | undefined;
  let failure: Error | undefined;
  return {
    path,
    record(entry) {
      sink?.(entry);
      if (!path) return;
      chain ??= createDir ? makeFolder(dirname(path)) : Promise.resolve();
      const line = `${JSON.stringify({ ...entry, stderr_tail: entry.stderr_tail.slice(-STDERR_TAIL_MAX) })}\n`;
      chain = chain.then(() => appendSafely(path, line, { mode: 0o644 })).catch((error: Error) => {
        failure ??= error;
      });
    },
    async close() {
      await chain;
      return failure;
    },
  };
}

/**
 * `mkdir -p`, one level at a time. Node's `mkdir(path, { recursive: true })` spins forever when a parent exists
 * but mkdir still answers ENOENT (a path under /proc, a dangling symlink): here that ENOENT is final.
 */
export async function makeFolder(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    try {
      await mkdir(at);
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") break;
      if (code !== "ENOENT" || dirname(at) === at) throw error;
      missing.push(at);
    }
  }
  for (const at of missing.reverse()) {
    await mkdir(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    });
  }
}
