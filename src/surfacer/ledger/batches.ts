// The ledger's write-ahead journal. Counting a skip costs a whole transaction on the skill's own file (a lock, a temp
// file, an fsync, a rename, a folder fsync) before its summary may be deleted: a digest of 10,000 paid that 10,000
// times. Now the counts of a digest's members go into one batch file, written once and durably; the summaries are
// deleted after that one write. Later, off the delivery path, compaction.ts folds the batches into the per-skill
// files and deletes them.
//
// A batch is immutable: written to a temp name, fsynced, renamed into `.skip-summary-ledger/_journal/`, the folder
// fsynced. So a reader sees all of a batch or none of it, and any surfacer may fold any batch (no owner to wait for).
// What a skill's ledger holds is its file plus the batches that file does not mark as folded in (view.ts).
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod/mini";
import { isSkipSummaryError } from "../../contract/errors.js";
import { REASON_KEY_MAX_LENGTH } from "../../contract/fields.js";
import { isValidSkillId } from "../../contract/ids.js";
import { withSafeDir, replaceAtomically } from "../../fs/index.js";
import { byteLength, checkWithinLimit, FILE_LIMITS, readWithinLimit } from "../../fs/size-contract.js";
import { checkTimeZone } from "./days.js";
import { itemsKey, keptStep, stepKey, type Occurrence } from "./entry.js";
import { ledgerDir } from "./paths.js";
import { setAside, setAsideIfNotFolder, unreadableWords, type BookkeepingOptions } from "./set-aside.js";

/** Inside the ledger folder; its name starts with `_`, which no skill id does. */
export const JOURNAL_DIR = "_journal";
const BATCH = /^(\d{13})-([A-Za-z0-9-]{0,63})-(\d+)-([a-z0-9]+)\.jsonl$/;

/** One counted skip, as written: the occurrence, the clock and zone it is applied with, so every reader applies it alike. */
export interface JournalRecord {
  readonly skill: string;
  readonly occurrence: Occurrence;
  readonly now: Date;
  readonly timeZone: string;
}

export interface Batch {
  readonly name: string;
  /** When it was written (from its name). */
  readonly at: number;
  /** Its records per skill, in the order they were written. */
  readonly bySkill: ReadonlyMap<string, readonly JournalRecord[]>;
  readonly size: number;
}

export function journalDir(workspace: string): string {
  return join(ledgerDir(workspace), JOURNAL_DIR);
}

// A line is bounded whatever the summary held: the items and a long step go in as their keys (entry.ts), the step
// as its short form, and the reason (500) and reason key (100) are bounded by the contract; so a batch of any size
// is split into files within FILE_LIMITS.journalBatch (splitLines).
function serialise(r: JournalRecord): string {
  const o = r.occurrence;
  const line = { ...o, step: keptStep(o.step), stepKey: o.stepKey ?? stepKey(o.step), items: [], itemsKey: o.itemsKey ?? itemsKey(o.items), occurredAt: o.occurredAt.toISOString() };
  return `${JSON.stringify({ skill: r.skill, now: r.now.toISOString(), tz: r.timeZone, o: line })}\n`;
}

/** The lines as batch texts, each within the limit, in order. */
export function splitLines(lines: readonly string[], limit: number = FILE_LIMITS.journalBatch): string[] {
  const texts: string[] = [];
  let current = "";
  let size = 0;
  for (const line of lines) {
    const bytes = byteLength(line);
    if (size > 0 && size + bytes > limit) {
      texts.push(current);
      current = "";
      size = 0;
    }
    current += line;
    size += bytes;
  }
  if (size > 0) texts.push(current);
  return texts;
}

// A journal line is read back by any surfacer, perhaps of another version: it is checked, never trusted by a cast.
const isoTime = z.string().check(z.refine((t) => !Number.isNaN(Date.parse(t))));
const timeZone = z.string().check(z.refine((tz) => {
  try {
    checkTimeZone(tz);
    return true;
  } catch {
    return false;
  }
}));
const JournalLine = z.object({
  skill: z.string().check(z.refine(isValidSkillId)),
  now: isoTime,
  tz: timeZone,
  o: z.object({
    reasonKey: z.string().check(z.maxLength(REASON_KEY_MAX_LENGTH)),
    reason: z.string(),
    step: z.union([z.string(), z.number()]),
    items: z.array(z.string()),
    occurredAt: isoTime,
    deliveryId: z.string(),
    disposition: z.enum(["sent", "folded", "muted"]),
    messageId: z.optional(z.string()),
    reported: z.optional(z.record(z.string(), z.number())),
    reportedOther: z.optional(z.number()),
    silenceId: z.optional(z.string()),
    stepKey: z.optional(z.string()),
    itemsKey: z.optional(z.string()),
  }),
});

function parse(line: string): JournalRecord | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined; // a batch lands whole (temp file, fsync, rename), so only a hand edit gets here
  }
  const d = JournalLine.safeParse(raw);
  if (!d.success) return undefined;
  const { o } = d.data;
  const occurrence: Occurrence = {
    reasonKey: o.reasonKey,
    reason: o.reason,
    step: o.step,
    items: o.items,
    occurredAt: new Date(o.occurredAt),
    deliveryId: o.deliveryId,
    disposition: o.disposition,
    ...(o.messageId !== undefined ? { messageId: o.messageId } : {}),
    ...(o.reported !== undefined ? { reported: o.reported } : {}),
    ...(o.silenceId !== undefined ? { silenceId: o.silenceId } : {}),
    ...(o.reportedOther !== undefined ? { reportedOther: o.reportedOther } : {}),
    ...(o.stepKey !== undefined ? { stepKey: o.stepKey } : {}),
    ...(o.itemsKey !== undefined ? { itemsKey: o.itemsKey } : {}),
  };
  return { skill: d.data.skill, now: new Date(d.data.now), timeZone: d.data.tz, occurrence };
}

/**
 * Writes the records durably, as one batch or, past the size limit, as several; when this returns, what they count
 * survives a crash or a power cut. A crash between two batches leaves some counted: the rest are counted again by
 * delivery id, never twice (the ledger remembers which it counted). Returns the batches' names.
 */
export async function writeBatch(workspace: string, records: readonly JournalRecord[], owner: { host: string; pid: number }, now: Date, options: BookkeepingOptions = {}): Promise<string[]> {
  const names: string[] = [];
  for (const text of splitLines(records.map(serialise))) {
    const name = `${String(now.getTime()).padStart(13, "0")}-${owner.host}-${owner.pid}-${Math.floor(Math.random() * 36 ** 8).toString(36)}.jsonl`;
    checkWithinLimit("journalBatch", name, text);
    await inJournalDir(workspace, (dir) => replaceAtomically(dir.at(name), text), options);
    names.push(name);
  }
  return names;
}

// Both folders are opened through the safe-path layer: a link planted at either name is never followed. It is set
// aside (with what else sits there instead of a folder) and the folders made again, once.
async function inJournalDir<T>(workspace: string, fn: (dir: { at(name: string): string }) => Promise<T>, options: BookkeepingOptions): Promise<T> {
  const run = () => withSafeDir(ledgerDir(workspace), { create: true }, (ledger) => withSafeDir(ledger.at(JOURNAL_DIR), { create: true }, fn));
  try {
    return await run();
  } catch (error) {
    if (!isSkipSummaryError(error, "fs.unsafe_path")) throw error;
    await setAsideIfNotFolder(workspace, ledgerDir(workspace), options);
    await setAsideIfNotFolder(workspace, journalDir(workspace), options);
    return run();
  }
}

// Batches never change once written, so each is read and parsed once per process.
const parsed = new Map<string, Batch>();

/**
 * The batches waiting to be folded in, oldest first; a batch deleted while it is read was folded in already. A batch
 * that cannot be read (too big, a link, a folder or a FIFO at its name) is set aside: what it counted is lost, and
 * nothing else. A line that is not a count (a hand edit, an unknown time zone) is skipped.
 */
export async function readBatches(workspace: string, options: BookkeepingOptions = {}): Promise<Batch[]> {
  const dir = journalDir(workspace);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw error;
  }
  const out: Batch[] = [];
  for (const name of names.filter((n) => BATCH.test(n)).sort()) {
    const key = join(dir, name);
    let batch = parsed.get(key);
    if (!batch) {
      const read = await readBatchText(key);
      if (read.kind === "gone") continue;
      if (read.kind === "unreadable") {
        const recheck = async () => {
          const again = await readBatchText(key);
          return again.kind === "unreadable" ? again.problem : undefined;
        };
        await setAside({ workspace, path: key, kind: "journal batch", problem: read.problem, recheck }, options);
        continue;
      }
      const bySkill = new Map<string, JournalRecord[]>();
      let size = 0;
      for (const line of read.text.split("\n")) {
        if (line === "") continue;
        const r = parse(line);
        if (!r) continue;
        size += 1;
        const list = bySkill.get(r.skill) ?? [];
        list.push(r);
        bySkill.set(r.skill, list);
      }
      batch = { name, at: Number(BATCH.exec(name)![1]), bySkill, size };
      parsed.set(key, batch);
    }
    out.push(batch);
  }
  // Forget batches of this folder that are gone (folded in and deleted).
  const present = new Set(names.map((n) => join(dir, n)));
  for (const key of parsed.keys()) if (key.startsWith(`${dir}/`) && !present.has(key)) parsed.delete(key);
  return out;
}

async function readBatchText(path: string): Promise<{ kind: "text"; text: string } | { kind: "gone" } | { kind: "unreadable"; problem: string }> {
  try {
    return { kind: "text", text: await readWithinLimit("journalBatch", path) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "gone" };
    const problem = unreadableWords(error);
    if (problem === undefined) throw error;
    return { kind: "unreadable", problem };
  }
}

/** Temp files a crash left in the journal folder (their batch was never renamed into place, so nothing waits on them). */
export function isJournalTemp(name: string): boolean {
  return /\.jsonl\.tmp-\d+-[a-z0-9]+$/.test(name);
}

// Group commit: counts that arrive while a batch of the same workspace is being written wait for it, then go out
// together as the next batch. (A single count does not come here: the accountant writes it straight into its
// skill's file, one transaction either way, with nothing left to fold in; several single sends in flight then
// write side by side, as fast as before the journal.)
const queues = new Map<string, { waiting: { records: readonly JournalRecord[]; done: (error?: unknown) => void }[]; running: boolean }>();

/** Journals `records` durably (with whatever else is waiting for the same workspace); resolves once they are on disk. */
export function journalRecords(workspace: string, records: readonly JournalRecord[], owner: { host: string; pid: number }, now: () => Date, options: BookkeepingOptions = {}): Promise<void> {
  if (records.length === 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    let q = queues.get(workspace);
    if (!q) queues.set(workspace, (q = { waiting: [], running: false }));
    q.waiting.push({ records, done: (error) => (error === undefined ? resolve() : reject(error)) });
    if (!q.running) void drain(workspace, q, owner, now, options);
  });
}

async function drain(workspace: string, q: NonNullable<ReturnType<typeof queues.get>>, owner: { host: string; pid: number }, now: () => Date, options: BookkeepingOptions): Promise<void> {
  q.running = true;
  while (q.waiting.length > 0) {
    const group = q.waiting.splice(0, q.waiting.length);
    const records = group.flatMap((g) => g.records);
    try {
      await writeBatch(workspace, records, owner, now(), options);
      for (const g of group) g.done();
    } catch (error) {
      for (const g of group) g.done(error ?? new Error("the ledger journal could not be written"));
    }
  }
  q.running = false;
  queues.delete(workspace);
}
