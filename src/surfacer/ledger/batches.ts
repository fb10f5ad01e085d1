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
import { withSafeDir, replaceAtomically } from "../../fs/index.js";
import { readRegularFile } from "../../fs/atomic-write.js";
import * as z from "zod/mini";
import { isValidSkillId } from "../../contract/ids.js";
import type { Occurrence } from "./entry.js";
import { ledgerDir } from "./paths.js";

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

function serialise(r: JournalRecord): string {
  return JSON.stringify({ skill: r.skill, now: r.now.toISOString(), tz: r.timeZone, o: { ...r.occurrence, occurredAt: r.occurrence.occurredAt.toISOString() } });
}

// A journal line is read back by any surfacer, perhaps of another version: it is checked, never trusted by a cast.
const isoTime = z.string().check(z.refine((t) => !Number.isNaN(Date.parse(t))));
const JournalLine = z.object({
  skill: z.string().check(z.refine(isValidSkillId)),
  now: isoTime,
  tz: z.string(),
  o: z.object({
    reasonKey: z.string(),
    reason: z.string(),
    step: z.union([z.string(), z.number()]),
    items: z.array(z.string()),
    occurredAt: isoTime,
    deliveryId: z.string(),
    disposition: z.enum(["sent", "folded", "muted"]),
    messageId: z.optional(z.string()),
    reported: z.optional(z.record(z.string(), z.number())),
    silenceId: z.optional(z.string()),
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
  };
  return { skill: d.data.skill, now: new Date(d.data.now), timeZone: d.data.tz, occurrence };
}

/** Writes one batch durably; when this returns, what it counts survives a crash or a power cut. */
export async function writeBatch(workspace: string, records: readonly JournalRecord[], owner: { host: string; pid: number }, now: Date): Promise<string> {
  const name = `${String(now.getTime()).padStart(13, "0")}-${owner.host}-${owner.pid}-${Math.floor(Math.random() * 36 ** 8).toString(36)}.jsonl`;
  // Both folders are opened through the safe-path layer: a link planted at either name is refused.
  await withSafeDir(ledgerDir(workspace), { create: true }, (ledger) =>
    withSafeDir(ledger.at(JOURNAL_DIR), { create: true }, (dir) => replaceAtomically(dir.at(name), records.map((r) => `${serialise(r)}\n`).join(""))),
  );
  return name;
}

// Batches never change once written, so each is read and parsed once per process.
const parsed = new Map<string, Batch>();

/** The batches waiting to be folded in, oldest first; a batch deleted while it is read was folded in already. */
export async function readBatches(workspace: string): Promise<Batch[]> {
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
      let text: string;
      try {
        text = await readRegularFile(key);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
        throw error;
      }
      const bySkill = new Map<string, JournalRecord[]>();
      let size = 0;
      for (const line of text.split("\n")) {
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
export function journalRecords(workspace: string, records: readonly JournalRecord[], owner: { host: string; pid: number }, now: () => Date): Promise<void> {
  if (records.length === 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    let q = queues.get(workspace);
    if (!q) queues.set(workspace, (q = { waiting: [], running: false }));
    q.waiting.push({ records, done: (error) => (error === undefined ? resolve() : reject(error)) });
    if (!q.running) void drain(workspace, q, owner, now);
  });
}

async function drain(workspace: string, q: NonNullable<ReturnType<typeof queues.get>>, owner: { host: string; pid: number }, now: () => Date): Promise<void> {
  q.running = true;
  while (q.waiting.length > 0) {
    const group = q.waiting.splice(0, q.waiting.length);
    const records = group.flatMap((g) => g.records);
    try {
      await writeBatch(workspace, records, owner, now());
      for (const g of group) g.done();
    } catch (error) {
      for (const g of group) g.done(error ?? new Error("the ledger journal could not be written"));
    }
  }
  q.running = false;
  queues.delete(workspace);
}
