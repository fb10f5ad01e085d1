// The ledger on disk: one small file per skill in `<workspace>/.skip-summary-ledger/`, so that a burst of many
// skills never rewrites one big file, and two surfacers only wait for each other on the same skill. Every change
// is read-modify-write under the skill's lock file and lands by an fsynced rename: a reader sees the old file or
// the new one. New counts reach these files through the journal (batches.ts, compaction.ts); what a skill's
// ledger holds is its file plus the journal batches not yet folded into it, and that is what the readers here return.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { isSkipSummaryError } from "../../contract/errors.js";
import { isValidSkillId } from "../../contract/ids.js";
import { withSafeDir, replaceAtomically, type WriteOptions } from "../../fs/index.js";
import { withFileLock } from "../../fs/lock.js";
import { checkWithinLimit } from "../../fs/size-contract.js";
import { DEFAULT_LEDGER_MAX_AGE_MS } from "../policy/settings.js";
import { applyOccurrence, emptyLedger, pruneLedger, type SkillLedger } from "./entry.js";
import { readBatches, type Batch } from "./batches.js";
import { fitLedger } from "./fit.js";
import { ledgerFileProblem, readLedgerFile } from "./ledger-file.js";
import { LEDGER_DIR, SILENCES_FILE, ledgerDir } from "./paths.js";
import { setAside, setAsideIfNotFolder, unreadableWords, type BookkeepingOptions } from "./set-aside.js";

export { LEDGER_DIR, SILENCES_FILE, ledgerDir };
export type { BookkeepingOptions };

/**
 * Runs `fn` with the ledger folder created (one level, in an existing workspace) and opened through the safe-path
 * layer, so `write` lands inside that folder. A link or a file planted at its name is never followed: it is set
 * aside (set-aside.ts) and a new folder made, once; if it cannot be, the refusal (`fs.unsafe_path`) goes on up.
 */
export async function inLedgerDir<T>(workspace: string, fn: (write: (name: string, text: string, options?: WriteOptions) => Promise<void>) => Promise<T>, options: BookkeepingOptions = {}): Promise<T> {
  const run = () => withSafeDir(ledgerDir(workspace), { create: true }, (dir) => fn((name, text, o) => replaceAtomically(dir.at(name), text, o)));
  try {
    return await run();
  } catch (error) {
    if (!isSkipSummaryError(error, "fs.unsafe_path") || error.data.path !== ledgerDir(workspace)) throw error;
    await setAsideLedgerFolder(workspace, options);
    return run();
  }
}

/** Sets aside whatever sits at the ledger folder's name when it is not a real folder. */
export function setAsideLedgerFolder(workspace: string, options: BookkeepingOptions): Promise<void> {
  return setAsideIfNotFolder(workspace, ledgerDir(workspace), options);
}

function skillFile(workspace: string, skill: string): string {
  if (!isValidSkillId(skill)) throw new Error(`invalid skill id ${JSON.stringify(skill)}`);
  return join(ledgerDir(workspace), `${skill}.json`);
}

/**
 * The skill's ledger: its file (empty when there is none yet, or when it cannot be read: it is then set aside)
 * plus the journal batches not folded into it yet. The batches are listed first and the file read after: a batch
 * deleted in between was folded into the file before its delete, so nothing is missed, and the file's marks keep a
 * batch from counting twice.
 */
export async function readSkillLedger(workspace: string, skill: string, listed?: readonly Batch[], options: BookkeepingOptions = {}): Promise<SkillLedger> {
  // `listed`: the batches, listed by the caller before this call (a digest lists them once for all its members).
  const batches = listed ?? (await readBatches(workspace, options));
  const path = skillFile(workspace, skill);
  const read = await readLedgerFile(path, skill);
  if (read.kind === "unreadable") await setAsideSkillFile(workspace, path, skill, read.problem, options, false);
  return withBatches(read.kind === "ok" ? read.ledger : emptyLedger(skill), batches);
}

function setAsideSkillFile(workspace: string, path: string, skill: string, problem: string, options: BookkeepingOptions, locked: boolean): Promise<void> {
  return setAside({ workspace, path, kind: "ledger", problem, recheck: () => ledgerFileProblem(path, skill), lock: !locked }, options);
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

export interface LedgerWriteOptions extends BookkeepingOptions {
  readonly now: Date;
  /** Entries not seen for this long are dropped on write. @default 90 days */
  readonly maxAgeMs?: number | undefined;
  /**
   * Fsync the ledger folder after the rename. Compaction passes false and fsyncs the folder once for all the skills
   * it wrote, before it deletes the batches they came from. @default true
   */
  readonly syncFolder?: boolean;
}

/**
 * Runs `change` on the skill's ledger under its lock and writes the result durably, fitted to the file's limit
 * (fit.ts). A file that cannot be read is set aside and a new one started: counts are history, the summaries
 * themselves are never at stake.
 */
export async function updateSkillLedger<T>(workspace: string, skill: string, change: (ledger: SkillLedger) => T, options: LedgerWriteOptions): Promise<{ result: T; ledger: SkillLedger }> {
  const path = skillFile(workspace, skill);
  return inLedgerDir(workspace, (write) => withFileLock(`${path}.lock`, async () => {
    const read = await readLedgerFile(path, skill);
    if (read.kind === "unreadable") await setAsideSkillFile(workspace, path, skill, read.problem, options, true);
    const ledger = read.kind === "ok" ? read.ledger : emptyLedger(skill);
    const result = change(ledger);
    pruneLedger(ledger, options.now, options.maxAgeMs ?? DEFAULT_LEDGER_MAX_AGE_MS);
    const text = checkWithinLimit("ledger", path, fitLedger(ledger));
    // With syncFolder false the rename is made durable by the caller's one folder fsync (compaction).
    await write(`${skill}.json`, text, { syncFolder: options.syncFolder !== false });
    return { result, ledger };
  }), options);
}

/**
 * Every skill's ledger in the workspace (for `history`). Files that cannot be read are set aside (and told to
 * `onSetAside`); `problems` has the rest that could not be looked at, in words.
 */
export async function readAllLedgers(workspace: string, options: BookkeepingOptions = {}): Promise<{ ledgers: SkillLedger[]; problems: string[] }> {
  await setAsideLedgerFolder(workspace, options);
  const batches = await readBatches(workspace, options);
  let names: string[];
  try {
    names = await readdir(ledgerDir(workspace));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { ledgers: [], problems: [] };
    const problem = unreadableWords(error);
    if (problem === undefined) throw error;
    return { ledgers: [], problems: [`${ledgerDir(workspace)}: ${problem}`] };
  }
  const ledgers: SkillLedger[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith(".json") || name.startsWith("_")) continue;
    const skill = name.slice(0, -".json".length);
    if (!isValidSkillId(skill)) continue;
    const path = join(ledgerDir(workspace), name);
    const read = await readLedgerFile(path, skill);
    if (read.kind === "unreadable") await setAsideSkillFile(workspace, path, skill, read.problem, options, false);
    if (read.kind === "ok") ledgers.push(withBatches(read.ledger, batches));
  }
  // Skills counted so far only in the journal.
  const seen = new Set(ledgers.map((l) => l.skill));
  const journalOnly = new Set(batches.flatMap((b) => [...b.bySkill.keys()]).filter((s) => !seen.has(s)));
  for (const skill of [...journalOnly].sort()) ledgers.push(withBatches(emptyLedger(skill), batches));
  return { ledgers, problems: [] };
}
