// A user's own ESM module as a notifier, run on a worker thread of its own (module-host.ts). It is checked when
// loaded (a wrong export is a config error, found before any skip is claimed) and on every call (a wrong result is
// a permanent failure with words, never a crash).
import { stat } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { permanentFailure, resultProblem, transientFailure } from "./failure.js";
import { startModuleHost, type WorkerError } from "./module-host.js";
import type { Notifier, NotifyResult } from "./types.js";
import { SkipSummaryError } from "../contract/errors.js";

/** What a module must export: `createNotifier(options)` returning a notifier, or a default export with `send`. */
export interface NotifierModule {
  readonly createNotifier?: (options: Record<string, unknown>) => unknown;
  readonly default?: unknown;
}

/** `notifiers.module_failed`: the module at `path`, and what is wrong with it. */
export function moduleFailed(path: string, problem: string): SkipSummaryError<"notifiers.module_failed"> {
  return new SkipSummaryError("notifiers.module_failed", `${path}: ${problem}`, { path, problem });
}

/** How long a module's import plus its createNotifier(options) may take when no other limit is given. */
export const MODULE_LOAD_TIMEOUT_MS = 10_000;

/**
 * Loads on a worker thread of its own, under a deadline: an import (or a createNotifier) that never settles, or
 * that runs a synchronous endless loop, would otherwise leave the surfacer waiting on nothing (module-host.ts).
 */
export async function loadModuleNotifier(name: string, path: string, options: Record<string, unknown>, timeoutMs = MODULE_LOAD_TIMEOUT_MS): Promise<Notifier> {
  // Checked first, because import()'s own words for a missing file name our bundle's chunk as the importer.
  const found = await stat(path).catch((error: NodeJS.ErrnoException) => error);
  if (found instanceof Error) {
    const why = found.code === "ENOENT" ? "does not exist" : `cannot be read (${found.code ?? found.message})`;
    throw moduleFailed(path, `${why}: set path to your module's file; a relative path is resolved against the config file's folder`);
  }
  if (!found.isFile()) throw moduleFailed(path, "is not a file: set path to your module's .mjs or .js file");
  const loaded = await startModuleHost(pathToFileURL(path).href, options, timeoutMs);
  if (loaded.kind === "timed-out") {
    throw moduleFailed(path, `did not finish loading within ${timeoutMs} ms (its import or createNotifier(options) never settled, or ran without end): make loading finish, or raise notify.timeout_ms`);
  }
  if (loaded.kind === "never-loaded") {
    throw moduleFailed(path, `did not finish loading: its import or createNotifier(options) never settled, and its thread ended with nothing left to run (exit code ${loaded.code}; or the module called process.exit while loading): make loading finish`);
  }
  if (loaded.kind === "failed") {
    if (loaded.stage === "import") throw moduleFailed(path, `cannot be imported: ${words(loaded.error)}`);
    if (loaded.stage === "create") throw moduleFailed(path, `createNotifier(options) threw: ${words(loaded.error)}`);
    if (loaded.stage === "create-shape") throw moduleFailed(path, "createNotifier(options) must return an object with a send(request) function");
    const exported = loaded.exports?.join(", ") || "nothing";
    throw moduleFailed(path, `must export createNotifier(options) or a default object with a send(request) function; it exports ${exported}`);
  }
  const { host } = loaded;
  const identity = JSON.stringify(["module", path, options]);
  return {
    name,
    // A module that routes by workspace says so with its own destination(route, workspace); else it is one destination.
    destination: (route, workspace) => {
      if (host.destination === undefined) return identity;
      const own = host.destination(route, workspace);
      return own === undefined ? undefined : JSON.stringify([identity, own]);
    },
    async send(request): Promise<NotifyResult> {
      const { signal, ...data } = request;
      const answer = await host.send(data as Record<string, unknown>, signal);
      // A thread that ended during the send (process.exit, an uncaught error, stopped at its deadline) sent nothing
      // we can count on: a failure, retried later, and the summary stays.
      if (answer.kind === "ended") return transientFailure(`module notifier ${name}: ${answer.why}; nothing counts as sent`);
      if (answer.kind === "threw") return transientFailure(`module notifier ${name} threw: ${words(answer.error)}`);
      const problem = resultProblem(answer.result);
      if (problem !== undefined) return permanentFailure(`module notifier ${name} returned an invalid result: ${problem}`);
      return answer.result as NotifyResult;
    },
  };
}

// What the worker reported it threw, worded as describeError words an error of this thread.
function words(error: WorkerError | undefined): string {
  if (error === undefined) return "an unknown error";
  return error.cause && !error.message.includes(error.cause) ? `${error.message} (${error.cause})` : error.message;
}
