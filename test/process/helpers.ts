// Shared by the process-layer tests: fixture paths, a summary to surface, and a config with one command notifier.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ROOT } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";

export const PROCESS_FIXTURES = join(ROOT, "test", "fixtures", "process");
export const processFixture = (name: string) => join(PROCESS_FIXTURES, name);

/** Writes one waiting summary for `skill` through the real `emit` (in process: the process boundary is not the point here). */
export async function emitSummary(workspace: string, skill = "tessl__a", reason = "nightly budget spent"): Promise<void> {
  const r = await runCliInProcess(["emit", "--skill", skill, "--step", "1", "--reason", reason, "--workspace", workspace]);
  if (r.code !== 0) throw new Error(`emit failed: ${r.stderr}`);
}

/** A config file with the given notify section; returns its path. */
export async function writeConfig(dir: string, notify: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<string> {
  const path = join(dir, "skip-summary.config.json");
  await writeFile(path, JSON.stringify({ notify, ...extra }));
  return path;
}

export async function lines(path: string): Promise<string[]> {
  return (await readFile(path, "utf8").catch(() => "")).split("\n").filter(Boolean);
}

