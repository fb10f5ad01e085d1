// A file that cannot be surfaced must not vanish and must not block the owner's next emit: it moves to a
// quarantine folder inside the workspace (same file system, so the move is one rename), with its reason beside it.
// The folder goes through the safe-path layer: a link or a file planted at its name is refused, never followed.
import { nodeCrypto } from "../lazy/node-crypto.js";
import { rename } from "node:fs/promises";
import { basename, join } from "node:path";
import { openSafeDir, replaceAtomically, type SafeDir } from "../fs/index.js";

export const QUARANTINE_DIR_NAME = ".skip-summary-quarantine";

export interface QuarantinePlace {
  /** The quarantine folder. */
  readonly dir: string;
  /** Where the entry goes. */
  readonly path: string;
  /** The JSON file beside it that says why. */
  readonly reasonPath: string;
}

/** Chooses the names before the notice is sent, so the notice can say where the file is kept. */
export function quarantinePlace(workspace: string, summaryName: string, now: Date): QuarantinePlace {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const base = `${stamp}-${nodeCrypto().randomBytes(3).toString("hex")}-${summaryName.replace(/^\./, "")}`;
  const dir = join(workspace, QUARANTINE_DIR_NAME);
  return { dir, path: join(dir, base), reasonPath: join(dir, `${base}.reason.json`) };
}

export interface QuarantineRecord {
  readonly original: string;
  readonly skill: string;
  readonly code: string;
  readonly reason: string;
  readonly quarantined_at: string;
  readonly notice_delivery_id: string;
}

/** Beside a ledger, journal or silences file that could not be read (src/surfacer/ledger/set-aside.ts). */
export interface SetAsideRecord {
  readonly original: string;
  readonly kind: string;
  readonly problem: string;
  readonly set_aside_at: string;
}

/**
 * Opens the quarantine folder; throws `fs.unsafe_path` when a link or a non-folder sits at its name. Without
 * `create`, a missing folder is `undefined`: the cycle checks before sending the notice (so the notice never
 * names a place the file cannot go) without leaving an empty folder behind when the notice then fails.
 */
export async function openQuarantine(place: QuarantinePlace, create: boolean): Promise<SafeDir | undefined> {
  try {
    return await openSafeDir(place.dir, { create, mode: 0o700 });
  } catch (error) {
    if (!create && (error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Writes the reason first, then moves the entry: a crash between the two leaves a reason without a file, never a file without a reason. */
export async function moveToQuarantine(claimPath: string, place: QuarantinePlace, record: QuarantineRecord | SetAsideRecord, opened?: SafeDir): Promise<void> {
  const dir = opened ?? (await openQuarantine(place, true))!;
  try {
    await replaceAtomically(dir.at(basename(place.reasonPath)), `${JSON.stringify(record, null, 2)}\n`);
    await rename(claimPath, dir.at(basename(place.path)));
    await dir.sync();
  } finally {
    if (!opened) await dir.close();
  }
}
