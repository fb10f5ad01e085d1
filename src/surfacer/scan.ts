// The truth about a workspace is a listing of its folder, never a watch event: this reads one and sorts it.
import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { sameSkill } from "../contract/ids.js";
import { skillIdFromFileName } from "../contract/paths.js";
import { parseClaimName, isPartialName, type ParsedClaim } from "./claim-name.js";

export interface WaitingEntry {
  readonly workspace: string;
  readonly skill: string;
  /** The summary name and path (`.skip-summary-<id>.json`). */
  readonly name: string;
  readonly path: string;
  /** The entry to claim: the summary itself, or a dead surfacer's claim or sent record. */
  readonly source: string;
  readonly mtimeMs: number;
  /** dev:ino:size:mtime, so watch mode can tell "the same file left in place" from a new one. */
  readonly signature: string;
  /** Set when `source` is another surfacer's claim or journal record. */
  readonly claim?: ParsedClaim;
}

export interface WorkspaceScan {
  readonly workspace: string;
  readonly exists: boolean;
  readonly summaries: readonly WaitingEntry[];
  readonly claims: readonly WaitingEntry[];
  /** Summary names whose owner lock (`<summary>.lock`) exists, with the lock's age in ms. */
  readonly locks: ReadonlyMap<string, number>;
  readonly partials: readonly { readonly name: string; readonly mtimeMs: number }[];
}

export async function scanWorkspace(workspace: string, options: { readonly skill?: string; readonly now?: number } = {}): Promise<WorkspaceScan> {
  let names: string[];
  try {
    names = await readdir(workspace);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { workspace, exists: false, summaries: [], claims: [], locks: new Map(), partials: [] };
    throw error;
  }
  const now = options.now ?? Date.now();
  const summaries: WaitingEntry[] = [];
  const claims: WaitingEntry[] = [];
  const locks = new Map<string, number>();
  const partials: { name: string; mtimeMs: number }[] = [];
  await Promise.all(
    names.map(async (name) => {
      const skill = skillIdFromFileName(name);
      const claim = skill === undefined ? parseClaimName(name) : undefined;
      const isLock = name.endsWith(".json.lock") && skillIdFromFileName(name.slice(0, -5)) !== undefined;
      const partial = isPartialName(name);
      if (skill === undefined && claim === undefined && !isLock && !partial) return;
      const wanted = skill ?? claim?.skill ?? skillIdFromFileName(isLock ? name.slice(0, -5) : name.split("~")[0]!);
      // A summary written before the one skill-id rule may carry a bare name: `check-cfps` is `tessl__check-cfps`.
      if (options.skill !== undefined && (wanted === undefined || !sameSkill(wanted, options.skill))) return;
      const path = join(workspace, name);
      let stats;
      try {
        stats = await lstat(path);
      } catch {
        return; // gone meanwhile: another surfacer claimed it, or the owner released its lock
      }
      if (isLock) locks.set(name.slice(0, -5), Math.max(0, now - stats.mtimeMs));
      else if (partial) partials.push({ name, mtimeMs: stats.mtimeMs });
      else {
        const summaryName = claim?.summaryName ?? name;
        const entry: WaitingEntry = {
          workspace,
          skill: (skill ?? claim?.skill)!,
          name: summaryName,
          path: join(workspace, summaryName),
          source: path,
          mtimeMs: stats.mtimeMs,
          signature: `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`,
          ...(claim ? { claim } : {}),
        };
        (claim ? claims : summaries).push(entry);
      }
    }),
  );
  return { workspace, exists: true, summaries: summaries.sort(oldestFirst), claims: claims.sort(oldestFirst), locks, partials };
}

export function oldestFirst(a: WaitingEntry, b: WaitingEntry): number {
  return a.mtimeMs - b.mtimeMs || (a.source < b.source ? -1 : a.source > b.source ? 1 : 0);
}

/** Whether `scan` shows a lock beside no waiting summary: rare (a surfacer killed mid-claim), and the only case worth loading dead-locks.ts for. */
export function hasLockBesideNoSummary(scan: WorkspaceScan): boolean {
  for (const name of scan.locks.keys()) if (!scan.summaries.some((e) => e.name === name)) return true;
  return false;
}
