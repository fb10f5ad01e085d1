// A user's own ESM module as a notifier. It is checked when loaded (a wrong export is a config error, found before
// any skip is claimed) and on every call (a wrong result is a permanent failure with words, never a crash).
import { stat } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { permanentFailure, resultProblem, transientFailure } from "./failure.js";
import { importFile } from "./import-file.js";
import { describeError } from "./redact.js";
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
 * Loads under a deadline: an import (or a createNotifier) that never settles would otherwise leave the surfacer
 * waiting on nothing, and Node ends such a process with exit 0 and no word, the summary unsent and unexplained.
 */
export async function loadModuleNotifier(name: string, path: string, options: Record<string, unknown>, timeoutMs = MODULE_LOAD_TIMEOUT_MS): Promise<Notifier> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(moduleFailed(path, `did not finish loading within ${timeoutMs} ms (its import or createNotifier(options) never settled): make loading finish, or raise notify.timeout_ms`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([load(name, path, options), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function load(name: string, path: string, options: Record<string, unknown>): Promise<Notifier> {
  // Checked first, because import()'s own words for a missing file name our bundle's chunk as the importer.
  const found = await stat(path).catch((error: NodeJS.ErrnoException) => error);
  if (found instanceof Error) {
    const why = found.code === "ENOENT" ? "does not exist" : `cannot be read (${found.code ?? found.message})`;
    throw moduleFailed(path, `${why}: set path to your module's file; a relative path is resolved against the config file's folder`);
  }
  if (!found.isFile()) throw moduleFailed(path, "is not a file: set path to your module's .mjs or .js file");
  let mod: NotifierModule;
  try {
    mod = (await importFile(pathToFileURL(path).href)) as NotifierModule;
  } catch (error) {
    throw moduleFailed(path, `cannot be imported: ${describeError(error)}`);
  }
  let candidate: unknown;
  if (typeof mod.createNotifier === "function") {
    try {
      candidate = await mod.createNotifier(options);
    } catch (error) {
      throw moduleFailed(path, `createNotifier(options) threw: ${describeError(error)}`);
    }
    if (!hasSend(candidate)) throw moduleFailed(path, "createNotifier(options) must return an object with a send(request) function");
  } else if (hasSend(mod.default)) {
    candidate = mod.default;
  } else {
    const exported = Object.keys(mod).join(", ") || "nothing";
    throw moduleFailed(
      path,
      `must export createNotifier(options) or a default object with a send(request) function; it exports ${exported}`,
    );
  }
  const user = candidate as { send: (request: unknown) => unknown; destination?: unknown };
  const identity = JSON.stringify(["module", path, options]);
  return {
    name,
    // A module that routes by workspace says so with its own destination(route, workspace); else it is one destination.
    destination: (route, workspace) => {
      if (typeof user.destination !== "function") return identity;
      const own: unknown = (user.destination as (r: string, w: string) => unknown).call(user, route, workspace);
      return typeof own === "string" ? JSON.stringify([identity, own]) : undefined;
    },
    async send(request): Promise<NotifyResult> {
      let result: unknown;
      try {
        result = await user.send(request);
      } catch (error) {
        return transientFailure(`module notifier ${name} threw: ${describeError(error)}`);
      }
      const problem = resultProblem(result);
      if (problem !== undefined) return permanentFailure(`module notifier ${name} returned an invalid result: ${problem}`);
      return result as NotifyResult;
    },
  };
}

function hasSend(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as { send?: unknown }).send === "function";
}
