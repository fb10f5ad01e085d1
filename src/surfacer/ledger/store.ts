// The ledger on disk: one small file per skill in `<workspace>/.skip-summary-ledger/`, so that a burst of many
// skills never rewrites one big file, and two surfacers only wait for each other on the same skill. Every change
// is read-modify-write under the skill's lock file and lands by an fsynced rename: a reader sees the old file or
// the new one, and a change is durable before the caller deletes anything it accounts for.
import { readdir, rename } from "node:fs/promises";
import { join } from "node:path";
import { isValidSkillId } from "../../contract/ids.js";
import { withSafeDir, replaceAtomically } from "../../fs/index.js";
import { readRegularFile } from "../../owner/atomic-write.js";
import { withFileLock } from "../../owner/lock.js";
import { DEFAULT_LEDGER_MAX_AGE_MS } from "../policy/settings.js";
import { emptyLedger, LEDGER_VERSION, pruneLedger, type SkillLedger } from "./entry.js";

/** The folder beside the summaries. Its name has no `.json` suffix, so no reader mistakes it for a summary. */
export const LEDGER_DIR = ".skip-summary-ledger";
/** Names in the folder that are not skills start with `_`, which a skill id never does. */
export const SILENCES_FILE = "_silences.json";

export function ledgerDir(workspace: string): string {
  return join(workspace, LEDGER_DIR);
}

/**
 * Runs `fn` with the ledger folder created (one level, in an existing workspace) and opened through the safe-path
 * layer: a link or a file planted at its name is refused (`fs.unsafe_path`), and `write` lands inside that folder.
 */
export async function inLedgerDir<T>(workspace: string, fn: (write: (name: string, text: string) => Promise<void>) => Promise<T>): Promise<T> {
  return withSafeDir(ledgerDir(workspace), { create: true }, (dir) => fn((name, text) => replaceAtomically(dir.at(name), text)));
}

function skillFile(workspace: string, skill: string): string {
  if (!isValidSkillId(skill)) throw new Error(`invalid skill id ${JSON.stringify(skill)}`);
  return join(ledgerDir(workspace), `${skill}.json`);
}

/** The skill's ledger as it is on disk (empty when there is none yet); never throws for a missing folder. */
export async function readSkillLedger(workspace: string, skill: string): Promise<SkillLedger> {
  return (await readLedgerFile(skillFile(workspace, skill), skill)) ?? emptyLedger(skill);
}

async function readLedgerFile(path: string, skill: string): Promise<SkillLedger | undefined> {
  let text: string;
  try {
    text = await readRegularFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const data = JSON.parse(text) as Partial<SkillLedger>;
  if (data.version !== LEDGER_VERSION || data.skill !== skill || typeof data.entries !== "object") {
    throw new SyntaxError(`${path} is not a version ${LEDGER_VERSION} ledger of ${skill}`);
  }
  return { ...emptyLedger(skill), ...data } as SkillLedger;
}

export interface LedgerWriteOptions {
  readonly now: Date;
  /** Entries not seen for this long are dropped on write. @default 90 days */
  readonly maxAgeMs?: number;
}

/**
 * Runs `change` on the skill's ledger under its lock and writes the result durably. A file that cannot be parsed
 * is kept aside as `<skill>.json.corrupt-<time>` and a new one started: counts are history, the summaries
 * themselves are never at stake.
 */
export async function updateSkillLedger<T>(workspace: string, skill: string, change: (ledger: SkillLedger) => T, options: LedgerWriteOptions): Promise<{ result: T; ledger: SkillLedger }> {
  const path = skillFile(workspace, skill);
  return inLedgerDir(workspace, (write) => withFileLock(`${path}.lock`, async () => {
    let ledger: SkillLedger;
    try {
      ledger = (await readLedgerFile(path, skill)) ?? emptyLedger(skill);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      await rename(path, `${path}.corrupt-${options.now.getTime()}`);
      ledger = emptyLedger(skill);
    }
    const result = change(ledger);
    pruneLedger(ledger, options.now, options.maxAgeMs ?? DEFAULT_LEDGER_MAX_AGE_MS);
    await write(`${skill}.json`, `${JSON.stringify(ledger)}\n`);
    return { result, ledger };
  }));
}

/** Every skill's ledger in the workspace (for `history`); unreadable files are reported, not fatal. */
export async function readAllLedgers(workspace: string): Promise<{ ledgers: SkillLedger[]; problems: string[] }> {
  let names: string[];
  try {
    names = await readdir(ledgerDir(workspace));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ledgers: [], problems: [] };
    throw error;
  }
  const ledgers: SkillLedger[] = [];
  const problems: string[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith(".json") || name.startsWith("_")) continue;
    const skill = name.slice(0, -".json".length);
    if (!isValidSkillId(skill)) continue;
    try {
      const ledger = await readLedgerFile(join(ledgerDir(workspace), name), skill);
      if (ledger) ledgers.push(ledger);
    } catch (error) {
      problems.push(`${join(ledgerDir(workspace), name)}: ${(error as Error).message}`);
    }
  }
  return { ledgers, problems };
}
