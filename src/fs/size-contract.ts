// One size contract per kind of file the tools keep in a workspace. A reader takes at most its kind's limit (more is
// not a file we made, and must not be read into memory); so every writer keeps its file under that same limit by
// design: the summary writer cuts items (src/contract/size-cap.ts), the ledger keeps a bounded set of reason keys
// (src/surfacer/ledger/fit.ts), the journal splits a burst into batches that fit, the silences file caps comments and
// the number of silences, and an Alertmanager alert is fitted before it is posted and recorded. The limits are
// documented in docs/surfacer.md ("Size limits"); a test writes each kind at its limit and reads it back.
import { MAX_SUMMARY_BYTES } from "../contract/read-file.js";
import { readOwnRecord } from "./read-bounded.js";

export const FILE_LIMITS = {
  /** `.skip-summary-<skill>.json`, the file contract. */
  summary: MAX_SUMMARY_BYTES,
  /** `.skip-summary-ledger/<skill>.json`, one skill's ledger. */
  ledger: 128 * 1024,
  /** `.skip-summary-ledger/_journal/<name>.jsonl`, one batch of counts. */
  journalBatch: 256 * 1024,
  /** `.skip-summary-ledger/_silences.json`. */
  silences: 256 * 1024,
  /** `.skip-summary-alertmanager/<notifier>~<id>.json`, one alert to re-post. */
  alertmanagerRecord: 256 * 1024,
} as const;

export type FileKind = keyof typeof FILE_LIMITS;

export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

export function fitsLimit(kind: FileKind, text: string): boolean {
  return byteLength(text) <= FILE_LIMITS[kind];
}

/**
 * The writer's side of the contract: `text` is what it is about to write. Each writer fits its file before it gets
 * here, so a text over the limit is a bug of ours, and stays one (exit 70), rather than a file no reader takes.
 */
export function checkWithinLimit(kind: FileKind, path: string, text: string): string {
  const bytes = byteLength(text);
  if (bytes > FILE_LIMITS[kind]) throw new Error(`bug: ${path} would be ${bytes} bytes, over the ${FILE_LIMITS[kind]}-byte limit of a ${kind} file`);
  return text;
}

/**
 * The reader's side: a file of this kind that the tools wrote, as text. Never through a link, never blocking on a
 * FIFO, only a regular file (`ENOTREG` otherwise), at most the kind's limit (`fs.input_too_large` past it).
 */
export async function readWithinLimit(kind: FileKind, path: string): Promise<string> {
  return (await readOwnRecord(path, FILE_LIMITS[kind])).toString("utf8");
}
