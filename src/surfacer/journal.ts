// The journal that keeps a crash between "sent" and "deleted" from sending again. Its main record is a name:
// once every notifier succeeded, the claim is renamed to `….sent` (one atomic rename, no extra write), and
// only then deleted. A takeover that finds a `.sent` record deletes it without sending. A delivery that only
// partly succeeded writes `<summary>~<delivery-id>.partial`, listing the notifiers that already have it.
import { nodeCrypto } from "../lazy/node-crypto.js";
import { rename, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fsyncDirectory, writeFileAtomically } from "../fs/atomic-write.js";
import { partialName, sentName } from "./claim-name.js";

/** Stable for the same bytes of the same skill, across retries, takeovers and re-runs. */
export function deliveryIdOf(skill: string, bytes: Uint8Array | string): string {
  return nodeCrypto().createHash("sha256").update(skill).update("\0").update(bytes).digest("hex").slice(0, 32);
}

/**
 * Records that the notice for this claim went out; returns the record's path. The folder is fsynced before
 * anything is deleted, so that after a power cut the record (and the claim rename before it) is on disk: without
 * it the folder could come back with the summary under an earlier name, and its notice would go out again.
 */
export async function recordSent(claimPath: string): Promise<string> {
  const target = sentName(claimPath);
  await rename(claimPath, target);
  await fsyncDirectory(dirname(target));
  return target;
}

export async function readPartial(workspace: string, summaryName: string, deliveryId: string): Promise<Set<string>> {
  try {
    const { readOwnRecord } = await import("../fs/read-bounded.js");
    const data = JSON.parse((await readOwnRecord(join(workspace, partialName(summaryName, deliveryId)), 64 * 1024)).toString("utf8")) as { sent?: unknown };
    return new Set(Array.isArray(data.sent) ? data.sent.filter((n): n is string => typeof n === "string") : []);
  } catch {
    return new Set();
  }
}

export async function writePartial(workspace: string, summaryName: string, deliveryId: string, sent: ReadonlySet<string>, now: Date): Promise<void> {
  const body = { delivery_id: deliveryId, sent: [...sent].sort(), updated_at: now.toISOString() };
  await writeFileAtomically(join(workspace, partialName(summaryName, deliveryId)), `${JSON.stringify(body)}\n`);
}

/** A `.partial` record outlives its summary when the owner merged a new skip in (a new delivery id). */
export const PARTIAL_MAX_AGE_MS = 7 * 24 * 3_600_000;

/** Removes `.partial` records older than a week: at worst a notifier that already had one of them gets it again. */
export async function sweepPartials(workspace: string, partials: readonly { readonly name: string; readonly mtimeMs: number }[], now: number): Promise<void> {
  for (const p of partials) if (now - p.mtimeMs > PARTIAL_MAX_AGE_MS) await unlink(join(workspace, p.name)).catch(() => undefined);
}

export async function removePartial(workspace: string, summaryName: string, deliveryId: string): Promise<void> {
  await unlink(join(workspace, partialName(summaryName, deliveryId))).catch(() => undefined);
}
