// The ledger on disk: one small file per skill in `<workspace>/.skip-summary-ledger/`, so that a burst of many
// skills never rewrites one big file, and two surfacers only wait for each other on the same skill. Every change
// is read-modify-write under the skill's lock file and lands by an fsynced rename: a reader sees the old file or
// the new one. New counts reach these files through the journal (batches.ts, compaction.ts); what a skill's
// ledger holds is its file plus the journal batches not yet folded into it, and that is what the readers here return.
import { readdir, rename } from "node:fs/promises";
import { join } from "node:path";
import { isValidSkillId } from "../../contract/ids.js";
import { withSafeDir, replaceAtomically, type WriteOptions } from "../../fs/index.js";
import { readRegularFile } from "../../fs/atomic-write.js";
import { withFileLock } from "../../fs/lock.js";
import { DEFAULT_LEDGER_MAX_AGE_MS } from "../policy/settings.js";
import { applyOccurrence, emptyLedger, LEDGER_VERSION, pruneLedger, type SkillLedger } from "./entry.js";
import { readBatches, type Batch } from "./batches.js";
import { LEDGER_DIR, SILENCES_FILE, ledgerDir } from "./paths.js";

export { LEDGER_DIR, SILENCES_FILE, ledgerDir };

/**
 * Runs `fn` with the ledger folder created (one level, in an existing workspace) and opened through the safe-path
 * layer: a link or a file planted at its name is refused (`fs.unsafe_path`), and `write` lands inside that folder.
 */
export async function inLedgerDir<T>(workspace: string, fn: (write: (name: string, text: string, options?: WriteOptions) => Promise<void>) => Promise<T>): Promise<T> {
  return withSafeDir(ledgerDir(workspace), { create: true }, (dir) => fn((name, text, options) => replaceAtomically(dir.at(name), text, options)));
}

function skillFile(workspace: string, skill: string): string {
  if (!isValidSkillId(skill)) throw new Error(`invalid skill id ${JSON.stringify(skill)}`);
  return join(ledgerDir(workspace), `${skill}.json`);
}

/**
 * The skill's ledger: its file (empty when there is none yet) plus the journal batches not folded into it yet.
 * The batches are listed first and the file read after: a batch deleted in between was folded into the file
 * before its delete, so nothing is missed, and the file's marks keep a batch from counting twice.
 */
export async function readSkillLedger(workspace: string, skill: string, listed?: readonly Batch[]): Promise<SkillLedger> {
  // `listed`: the batches, listed by the caller before this call (a digest lists them once for all its members).
  const batches = listed ?? (await readBatches(workspace));
  const ledger = (await readLedgerFile(skillFile(workspace, skill), skill)) ?? emptyLedger(skill);
  return withBatches(ledger, batches);
}

/** Applies what the batches hold for this skill and the file does not mark as folded in; returns the same object. */
export function withBatches(ledger: SkillLedger, batches: readonly Batch[], mark?: Date): SkillLedger {
  for (const batch of batches) {
    const records = batch.bySkill.get(ledger.skill);
    if (!records || ledger.folded_batches?.[batch.name] !== undefined) continue;
    for (const r of records) applyOccurrence(ledger, r.occurrence, r.now, r.timeZone);
    if (mark) (ledger.folded_batches ??= {})[batch.name] = mark.toISOString();
  }
  return ledger;
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
  /**
   * Fsync the ledger folder after the rename. Compaction passes false and fsyncs the folder once for all the skills
   * it wrote, before it deletes the batches they came from. @default true
   */
  readonly syncFolder?: boolean;
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
    // With syncFolder false the rename is made durable by the caller's one folder fsync (compaction).
    await write(`${skill}.json`, `${JSON.stringify(ledger)}\n`, { syncFolder: options.syncFolder !== false });
    return { result, ledger };
  }));
}

/** Every skill's ledger in the workspace (for `history`); unreadable files are reported, not fatal. */
export async function readAllLedgers(workspace: string): Promise<{ ledgers: SkillLedger[]; problems: string[] }> {
  const batches = await readBatches(workspace);
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
      if (ledger) ledgers.push(withBatches(ledger, batches));
    } catch (error) {
      problems.push(`${join(ledgerDir(workspace), name)}: ${(error as Error).message}`);
    }
  }
  // Skills counted so far only in the journal.
  const seen = new Set(ledgers.map((l) => l.skill));
  const journalOnly = new Set(batches.flatMap((b) => [...b.bySkill.keys()]).filter((s) => !seen.has(s)));
  for (const skill of [...journalOnly].sort()) ledgers.push(withBatches(emptyLedger(skill), batches));
  return { ledgers, problems };
}

