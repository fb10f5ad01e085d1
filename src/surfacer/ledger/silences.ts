// "I know; mute this skill for a week." Silences live beside the ledger (`_silences.json`), changed under a lock
// like the ledger, so the CLI and several surfacers can touch them at once. A silence never hides a skip: what
// it mutes is counted in the ledger, and when it ends one message says what happened while it was on.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { sameSkill } from "../../contract/ids.js";
import * as z from "zod/mini";
import { SkipSummaryError } from "../../contract/errors.js";
import { REASON_KEY_MAX_LENGTH } from "../../contract/fields.js";
import { truncate } from "../../contract/truncate.js";
import { withFileLock } from "../../fs/lock.js";
import { byteLength, checkWithinLimit, FILE_LIMITS, readWithinLimit } from "../../fs/size-contract.js";
import { setAside, unreadableWords, type BookkeepingOptions } from "./set-aside.js";
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

/** Ended and reported silences are forgotten after this long (sooner when the file is full). */
const KEEP_ENDED_MS = 30 * 86_400_000;
/** Silences in the file at most; ended and reported ones make room first. */
export const MAX_SILENCES = 100;
/** A comment says why in a sentence or two. */
export const COMMENT_MAX_LENGTH = 500;

const text = z.string();
const SilenceShape = z.looseObject({
  id: text, skill: text, reason_key: z.optional(text), comment: text, created_at: text, ends_at: text,
  expired_by_hand: z.optional(z.boolean()), reported_at: z.optional(text),
});
const FileShape = z.looseObject({ silences: z.array(SilenceShape) });

function filePath(workspace: string): string {
  return join(ledgerDir(workspace), SILENCES_FILE);
}

type SilencesRead = { readonly kind: "ok"; readonly silences: Silence[] } | { readonly kind: "unreadable"; readonly problem: string };

async function readSilencesFile(path: string): Promise<SilencesRead> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readWithinLimit("silences", path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "ok", silences: [] }; // ENOTDIR: see ledger-file.ts
    const problem = unreadableWords(error);
    if (problem === undefined) throw error;
    return { kind: "unreadable", problem };
  }
  const checked = FileShape.safeParse(raw);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    return { kind: "unreadable", problem: `it is not a silences file (${issue ? `${issue.path.join(".") || "the file"}: ${issue.message}` : "wrong shape"})` };
  }
  return { kind: "ok", silences: checked.data.silences as Silence[] };
}

/** The silences; none when there is no file, or when it cannot be read (it is then set aside, and `onSetAside` told). */
export async function listSilences(workspace: string, options: BookkeepingOptions = {}): Promise<Silence[]> {
  return readOrSetAside(workspace, options, false);
}

async function readOrSetAside(workspace: string, options: BookkeepingOptions, locked: boolean): Promise<Silence[]> {
  const path = filePath(workspace);
  const read = await readSilencesFile(path);
  if (read.kind === "ok") return read.silences;
  const recheck = async () => {
    const again = await readSilencesFile(path);
    return again.kind === "unreadable" ? again.problem : undefined;
  };
  await setAside({ workspace, path, kind: "silences", problem: read.problem, recheck, lock: !locked }, options);
  return [];
}

function fileText(silences: readonly Silence[]): string {
  return `${JSON.stringify({ version: 1, silences: [...silences] } satisfies SilencesFile, null, 2)}\n`;
}

/**
 * The file's size once every silence in it has ended by hand and been reported: the most that `silence expire` and
 * the surfacer's marks can make of it. A new silence is only taken when this fits, so they never overflow it.
 */
function grownText(silences: Silence[]): string {
  return fileText(silences.map((s) => ({ ...s, expired_by_hand: true, reported_at: s.reported_at ?? new Date(8.64e15).toISOString() })));
}

/** Reads, changes and writes the silences under their lock; returns what `change` returned. */
export async function updateSilences<T>(workspace: string, now: Date, change: (silences: Silence[]) => T, options: BookkeepingOptions = {}): Promise<T> {
  const path = filePath(workspace);
  return inLedgerDir(workspace, (write) => withFileLock(`${path}.lock`, async () => {
    const silences = await readOrSetAside(workspace, options, true);
    const result = change(silences);
    const cutoff = now.getTime() - KEEP_ENDED_MS;
    const kept = makeRoom(silences.filter((s) => s.reported_at === undefined || Date.parse(s.ends_at) >= cutoff));
    await write(SILENCES_FILE, checkWithinLimit("silences", path, fileText(kept)));
    return result;
  }), options);
}

/**
 * Past {@link MAX_SILENCES} or the size limit, the ended and reported silences go, those that ended first first.
 * A file an older version wrote may still not fit (it took any comment): its long comments are then cut.
 */
function makeRoom(silences: Silence[]): Silence[] {
  const done = silences.filter((s) => s.reported_at !== undefined).sort((a, b) => Date.parse(a.ends_at) - Date.parse(b.ends_at));
  const drop = new Set<Silence>();
  const fits = () => silences.length - drop.size <= MAX_SILENCES && byteLength(grownText(silences.filter((s) => !drop.has(s)))) <= FILE_LIMITS.silences;
  for (const s of done) {
    if (fits()) break;
    drop.add(s);
  }
  const kept = silences.filter((s) => !drop.has(s));
  if (byteLength(grownText(kept)) <= FILE_LIMITS.silences) return kept;
  return kept.map((s) => (s.comment.length > COMMENT_MAX_LENGTH ? { ...s, comment: truncate(s.comment, COMMENT_MAX_LENGTH) } : s));
}

/** Whether one more silence fits, after ended and reported ones made room; `undefined` when it does, else why not. */
function roomProblem(silences: readonly Silence[]): string | undefined {
  const kept = makeRoom([...silences]);
  if (kept.length > MAX_SILENCES) {
    return `${MAX_SILENCES} silences are in effect or still to be reported already, the most the file keeps; expire one first (skip-summary silence list, silence expire ID)`;
  }
  if (byteLength(grownText(kept)) > FILE_LIMITS.silences) {
    return `the silences file would pass its limit of ${FILE_LIMITS.silences} bytes; expire a silence first, or use shorter comments`;
  }
  return undefined;
}

export interface NewSilence {
  readonly skill: string;
  readonly reasonKey?: string | undefined;
  readonly forMs: number;
  readonly comment: string;
}

/** Why `input` cannot be a silence, naming the field; `undefined` when it can. */
export function silenceInputProblem(input: NewSilence): string | undefined {
  if (input.comment.length > COMMENT_MAX_LENGTH) return `the comment is ${input.comment.length} characters long; the limit is ${COMMENT_MAX_LENGTH}`;
  if (input.reasonKey !== undefined && input.reasonKey.length > REASON_KEY_MAX_LENGTH) {
    return `the reason key is ${input.reasonKey.length} characters long; a reason key is at most ${REASON_KEY_MAX_LENGTH}, so it would never match`;
  }
  return undefined;
}

/**
 * Adds a silence. Throws `surfacer.silence_invalid` for an input {@link silenceInputProblem} refuses, and
 * `surfacer.silences_full` when the file has no room for it even after ended and reported silences made room.
 */
export async function addSilence(workspace: string, input: NewSilence, now: Date, options: BookkeepingOptions = {}): Promise<Silence> {
  const problem = silenceInputProblem(input);
  if (problem !== undefined) throw new SkipSummaryError("surfacer.silence_invalid", `cannot add the silence: ${problem}`, { problem });
  const silence: Silence = {
    id: randomBytes(4).toString("hex"),
    skill: input.skill,
    ...(input.reasonKey !== undefined ? { reason_key: input.reasonKey } : {}),
    comment: input.comment,
    created_at: now.toISOString(),
    ends_at: new Date(now.getTime() + input.forMs).toISOString(),
  };
  const path = filePath(workspace);
  return updateSilences(workspace, now, (all) => {
    const full = roomProblem([...all, silence]);
    if (full !== undefined) throw new SkipSummaryError("surfacer.silences_full", `cannot add the silence: ${full}`, { path, limit: MAX_SILENCES });
    all.push(silence);
    return silence;
  }, options);
}

/** Ends a silence now; `undefined` when there is no silence with that id. Its message goes out at the next surface. */
export async function expireSilence(workspace: string, id: string, now: Date, options: BookkeepingOptions = {}): Promise<Silence | undefined> {
  return updateSilences(workspace, now, (all) => {
    const s = all.find((x) => x.id === id);
    if (s && Date.parse(s.ends_at) > now.getTime()) {
      s.ends_at = now.toISOString();
      s.expired_by_hand = true;
    }
    return s;
  }, options);
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

export async function markReported(workspace: string, id: string, now: Date, options: BookkeepingOptions = {}): Promise<void> {
  await updateSilences(workspace, now, (all) => {
    const s = all.find((x) => x.id === id);
    if (s) s.reported_at = now.toISOString();
  }, options);
}
