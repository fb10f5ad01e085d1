// What the field scenarios share: the servers a test starts (closed after it), the skill's emit line as the
// scripted model sends it to Bash, and the summaries left in a folder.
import { readdir } from "node:fs/promises";
import { afterEachTest } from "../../helpers/after-each.js";
import { startModelServer, type ModelServer } from "./model-server.js";
import { startReceiver, type Receiver } from "./receiver.js";

const open: (() => Promise<void>)[] = [];
afterEachTest(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

export async function modelServer(): Promise<ModelServer> {
  const model = await startModelServer();
  open.push(model.close);
  return model;
}

export async function receiver(options: { hang?: boolean } = {}): Promise<Receiver> {
  const r = await startReceiver(options);
  open.push(r.close);
  return r;
}

/**
 * The shell line a skill runs to record a skip. `workspace` is added as `--workspace`, a shell word (`"$PWD"`), as a
 * skill following docs/integrations/claude-code.md §4 writes it.
 */
export function emitLine(skill: string, reason: string, items: readonly string[], workspace?: string): string {
  const quote = (s: string) => `"${s.replace(/(["\\$`])/g, "\\$1")}"`;
  return ["skip-summary emit", "--skill", skill, "--step 3", "--reason", quote(reason), ...items.flatMap((i) => ["--item", quote(i)]), ...(workspace ? ["--workspace", workspace] : [])].join(" ");
}

/** The skip summaries waiting in `dir` (`.skip-summary-<skill>.json`). */
export async function summariesIn(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((f) => /^\.skip-summary-.+\.json$/.test(f)).sort();
}
