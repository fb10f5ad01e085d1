// Where a skip summary goes when its workspace refuses writes (src/owner/fallback.ts says why this folder), and so
// where every surfacer looks besides the workspace: one definition for the writer and the readers.
import { join, resolve } from "node:path";

/** Names the fallback folder outright (any writable folder the surfacer also watches). */
export const FALLBACK_ENV = "SKIP_SUMMARY_FALLBACK_DIR";
/** The nanoclaw notifier's messages folder setting (src/notifiers/env-names.ts); the fallback is its subfolder. */
const NANOCLAW_DIR_ENV = "SKIP_SUMMARY_NANOCLAW_DIR";
export const NANOCLAW_MESSAGES_DIR = "/workspace/ipc/messages";
/** Not a `*.json` name, so the host's IPC loop never reads it as a message. */
export const FALLBACK_SUBFOLDER = "skip-summary";

/** The fallback folder for this environment: `SKIP_SUMMARY_FALLBACK_DIR`, else `<messages folder>/skip-summary`. */
export function fallbackFolder(env: Readonly<Record<string, string | undefined>>, cwd: string): { readonly dir: string; readonly parent: string } {
  const named = env[FALLBACK_ENV];
  if (named) return { dir: resolve(cwd, named), parent: resolve(cwd, named, "..") };
  const messages = env[NANOCLAW_DIR_ENV] ? resolve(cwd, env[NANOCLAW_DIR_ENV]) : NANOCLAW_MESSAGES_DIR;
  return { dir: join(messages, FALLBACK_SUBFOLDER), parent: messages };
}
