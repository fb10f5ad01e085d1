// A file that cannot be surfaced must not vanish and must not block the owner's next emit: it moves to a
// quarantine folder inside the workspace (same file system, so the move is one rename), with its reason beside it.
import { randomBytes } from "node:crypto";
import { mkdir, rename } from "node:fs/promises";
import { join } from "node:path";

export const QUARANTINE_DIR_NAME = ".skip-summary-quarantine";

export interface QuarantinePlace {
  /** Where the entry goes. */
  readonly path: string;
  /** The JSON file beside it that says why. */
  readonly reasonPath: string;
}

/** Chooses the names before the notice is sent, so the notice can say where the file is kept. */
export function quarantinePlace(workspace: string, summaryName: string, now: Date): QuarantinePlace {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const base = `${stamp}-${randomBytes(3).toString("hex")}-${summaryName.replace(/^\./, "")}`;
  const dir = join(workspace, QUARANTINE_DIR_NAME);
  return { path: join(dir, base), reasonPath: join(dir, `${base}.reason.json`) };
}

export interface QuarantineRecord {
  readonly original: string;
  readonly skill: string;
  readonly code: string;
  readonly reason: string;
  readonly quarantined_at: string;
  readonly notice_delivery_id: string;
}

/** Writes the reason first, then moves the entry: a crash between the two leaves a reason without a file, never a file without a reason. */
export async function moveToQuarantine(claimPath: string, place: QuarantinePlace, record: QuarantineRecord): Promise<void> {
  await mkdir(join(place.path, ".."), { recursive: true, mode: 0o700 });
  const { writeFileAtomically } = await import("../owner/index.js");
  await writeFileAtomically(place.reasonPath, `${JSON.stringify(record, null, 2)}\n`);
  await rename(claimPath, place.path);
}
