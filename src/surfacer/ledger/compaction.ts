// Folds the ledger journal's batches into the per-skill files, then deletes them: the journal stays short, so every
// read of a skill's ledger lists a small folder. It runs when due: after a pass (once mode at the end of a run,
// watch mode after a drain and at each rescan) once the oldest batch is COMPACT_AFTER_MS old, and beside the sends
// (not awaited) when the journal is full (COMPACT_AT_BATCHES batches, a long run of digests).
//
// Order, for durability: each skill file is written (its data fsynced, renamed) marking the batches folded in, then
// the ledger folder is fsynced once for all, and only then are the batches deleted. A crash anywhere leaves the
// batches, and folding one in again changes nothing (the marks). Any surfacer may compact; two at once only
// repeat work, since each skill's fold runs under that skill's lock.
import { lstat, readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { syncFolder } from "../../fs/index.js";
import { runInOrder } from "../pool.js";
import { isJournalTemp, journalDir, readBatches, type Batch } from "./batches.js";
import { ledgerDir } from "./paths.js";
import type { BookkeepingOptions } from "./set-aside.js";
import { updateSkillLedger, withBatches } from "./store.js";

/** Compact when this many batches wait… */
export const COMPACT_AT_BATCHES = 64;
/** …or when the oldest has waited this long (a quiet surfacer still folds its last burst in soon). */
export const COMPACT_AFTER_MS = 30_000;
/** A batch's mark is kept this long after the batch is gone, for a reader that listed it just before its delete… */
export const MARK_KEEP_MS = 10 * 60_000;
/**
 * …and at most this many marks of gone batches are kept (the newest): with at most COMPACT_AT_BATCHES batches folded
 * per round, a skill file holds at most twice that many marks, whatever the burst (fit.ts counts on it).
 */
export const GONE_MARKS_KEPT = COMPACT_AT_BATCHES;
/** A temp file a crash left in the journal folder is removed after this long (no writer takes that long). */
const TEMP_MAX_AGE_MS = 3_600_000;
/** Skill files written side by side: their fsyncs overlap. */
const CONCURRENCY = 8;

export interface CompactOptions extends BookkeepingOptions {
  readonly now: Date;
  readonly maxAgeMs?: number | undefined;
  /** Compact whatever waits, due or not. @default false */
  readonly force?: boolean;
  /** Only when the journal is full (COMPACT_AT_BATCHES), not merely old: the check on the delivery path. @default false */
  readonly onlyWhenFull?: boolean;
  /** Says when to stop (a shutdown): no further skill is folded in, and no batch is deleted. */
  readonly stop?: () => boolean;
}

export interface CompactResult {
  readonly batches: number;
  readonly records: number;
  readonly skills: number;
}

const running = new Map<string, Promise<CompactResult>>();

/** Folds the journal into the skill files when due (or `force`); one compaction per workspace at a time in a process. */
export function compactLedger(workspace: string, options: CompactOptions): Promise<CompactResult> {
  const known = running.get(workspace);
  if (known) return known;
  const job = compact(workspace, options).finally(() => running.delete(workspace));
  running.set(workspace, job);
  return job;
}

async function compact(workspace: string, options: CompactOptions): Promise<CompactResult> {
  const all = await readBatches(workspace, options);
  const done = { batches: 0, records: 0, skills: 0 };
  if (all.length === 0) return done;
  const full = all.length >= COMPACT_AT_BATCHES;
  const due = options.force || full || (!options.onlyWhenFull && options.now.getTime() - all[0]!.at >= COMPACT_AFTER_MS);
  if (!due) return done;
  // The oldest COMPACT_AT_BATCHES at a time, so a skill file never marks more batches than that at once.
  for (let from = 0; from < all.length; from += COMPACT_AT_BATCHES) {
    const round = await compactRound(workspace, all.slice(from, from + COMPACT_AT_BATCHES), options);
    if (round === undefined) break; // stopped part-way: the batches stay for the next compaction to finish
    done.batches += round.batches;
    done.records += round.records;
    done.skills += round.skills;
  }
  return done;
}

async function compactRound(workspace: string, batches: readonly Batch[], options: CompactOptions): Promise<CompactResult | undefined> {
  const present = new Set(batches.map((b) => b.name));
  const skills = [...new Set(batches.flatMap((b) => [...b.bySkill.keys()]))].sort();
  const stop = options.stop ?? (() => false);
  const folded = await runInOrder(skills, CONCURRENCY, (skill) =>
    updateSkillLedger(workspace, skill, (ledger) => {
      withBatches(ledger, batches, options.now);
      dropOldMarks(ledger.folded_batches, present, options.now);
    }, { ...options, now: options.now, maxAgeMs: options.maxAgeMs, syncFolder: false }),
  stop);
  await syncFolder(ledgerDir(workspace));
  if (folded.length < skills.length) return undefined;
  const dir = journalDir(workspace);
  for (const b of batches) await unlink(join(dir, b.name)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error; // another surfacer compacted it too
  });
  await syncFolder(dir);
  await sweepTemps(dir, options.now);
  return { batches: batches.length, records: batches.reduce((n, b) => n + b.size, 0), skills: skills.length };
}

function dropOldMarks(marks: Record<string, string> | undefined, present: ReadonlySet<string>, now: Date): void {
  if (!marks) return;
  const cutoff = new Date(now.getTime() - MARK_KEEP_MS).toISOString();
  const gone = Object.entries(marks).filter(([name]) => !present.has(name));
  for (const [name, at] of gone) if (at < cutoff) delete marks[name];
  // Batch names begin with their time, so the name order is the age order.
  const left = gone.filter(([name]) => marks[name] !== undefined).map(([name]) => name).sort();
  for (const name of left.slice(0, Math.max(0, left.length - GONE_MARKS_KEPT))) delete marks[name];
}

async function sweepTemps(dir: string, now: Date): Promise<void> {
  for (const name of (await readdir(dir).catch(() => [] as string[])).filter(isJournalTemp)) {
    const stats = await lstat(join(dir, name)).catch(() => undefined);
    if (stats && now.getTime() - stats.mtimeMs > TEMP_MAX_AGE_MS) await unlink(join(dir, name)).catch(() => undefined);
  }
}
