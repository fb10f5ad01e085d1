// "I know; mute this skill for a week." Silences live beside the ledger (`_silences.json`), changed under a lock
// like the ledger, so the CLI and several surfacers can touch them at once. A silence never hides a skip: what
// it mutes is counted in the ledger, and when it ends one message says what happened while it was on.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { sameSkill } from "../../contract/ids.js";
import { readRegularFile } from "../../fs/atomic-write.js";
import { withFileLock } from "../../fs/lock.js";
import { inLedgerDir, ledgerDir, SILENCES_FILE } from "./store.js";

export interface Silence {
  readonly id: string;
  readonly skill: string;
  /** Only this reason key; absent: every skip of the skill. */
  readonly reason_key?: string;
  readonly comment: string;
  readonly created_at: string;
  ends_at: string;
  /** Set by `silence expire`. */
  expired_by_hand?: boolean;
  /** When the "while muted" message went out; a silence is reported once. */
  reported_at?: string;
}

interface SilencesFile {
  version: 1;
  silences: Silence[];
}

/** Ended and reported silences are forgotten after this long. */
const KEEP_ENDED_MS = 30 * 86_400_000;

function filePath(workspace: string): string {
  return join(ledgerDir(workspace), SILENCES_FILE);
}

export async function listSilences(workspace: string): Promise<Silence[]> {
  try {
    const data = JSON.parse(await readRegularFile(filePath(workspace))) as Partial<SilencesFile>;
    return Array.isArray(data.silences) ? data.silences : [];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** Reads, changes and writes the silences under their lock; returns what `change` returned. */
export async function updateSilences<T>(workspace: string, now: Date, change: (silences: Silence[]) => T): Promise<T> {
  const path = filePath(workspace);
  return inLedgerDir(workspace, (write) => withFileLock(`${path}.lock`, async () => {
    const silences = await listSilences(workspace);
    const result = change(silences);
    const cutoff = now.getTime() - KEEP_ENDED_MS;
    const kept = silences.filter((s) => s.reported_at === undefined || Date.parse(s.ends_at) >= cutoff);
    await write(SILENCES_FILE, `${JSON.stringify({ version: 1, silences: kept } satisfies SilencesFile, null, 2)}\n`);
    return result;
  }));
}

export interface NewSilence {
  readonly skill: string;
  readonly reasonKey?: string | undefined;
  readonly forMs: number;
  readonly comment: string;
}

export async function addSilence(workspace: string, input: NewSilence, now: Date): Promise<Silence> {
  const silence: Silence = {
    id: randomBytes(4).toString("hex"),
    skill: input.skill,
    ...(input.reasonKey !== undefined ? { reason_key: input.reasonKey } : {}),
    comment: input.comment,
    created_at: now.toISOString(),
    ends_at: new Date(now.getTime() + input.forMs).toISOString(),
  };
  return updateSilences(workspace, now, (all) => {
    all.push(silence);
    return silence;
  });
}

/** Ends a silence now; `undefined` when there is no silence with that id. Its message goes out at the next surface. */
export async function expireSilence(workspace: string, id: string, now: Date): Promise<Silence | undefined> {
  return updateSilences(workspace, now, (all) => {
    const s = all.find((x) => x.id === id);
    if (s && Date.parse(s.ends_at) > now.getTime()) {
      s.ends_at = now.toISOString();
      s.expired_by_hand = true;
    }
    return s;
  });
}

export function isActive(s: Silence, now: Date): boolean {
  return Date.parse(s.created_at) <= now.getTime() && now.getTime() < Date.parse(s.ends_at);
}

/** The silence that mutes this skill and key now, if any (`check-cfps` and `tessl__check-cfps` are one skill). */
export function matchingSilence(silences: readonly Silence[], skill: string, reasonKey: string, now: Date): Silence | undefined {
  return silences.find((s) => isActive(s, now) && sameSkill(s.skill, skill) && (s.reason_key === undefined || s.reason_key === reasonKey));
}

/** Silences that ended and whose message has not gone out yet. */
export function endedUnreported(silences: readonly Silence[], now: Date): Silence[] {
  return silences.filter((s) => s.reported_at === undefined && Date.parse(s.ends_at) <= now.getTime());
}

export async function markReported(workspace: string, id: string, now: Date): Promise<void> {
  await updateSilences(workspace, now, (all) => {
    const s = all.find((x) => x.id === id);
    if (s) s.reported_at = now.toISOString();
  });
}
