// The owner side's one write path: validate, then merge into any waiting summary under the skill's lock, then write atomically.
import { stat } from "node:fs/promises";
import {
  SCHEMA_VERSION,
  SUMMARY_FIELDS,
  summaryInvalid,
  fullSkillId,
  classifySummary,
  classifySummaryText,
  fitSummary,
  formatProblems,
  formatUtcTimestamp,
  mergeSummaries,
  resolveWorkspace,
  summaryPath,
  type SkipSummary,
} from "../contract/index.js";
import { describeFsError, isSystemError } from "../fs/errors.js";
import { writeFailed } from "./errors.js";
import { inspectTarget, readRegularFile, writeFileAtomically } from "../fs/atomic-write.js";
import { LOCK_STALE_MS, withFileLock, type HeldLock, type LockOptions } from "../fs/lock.js";
import { unwritableCode, writeToFallback, type EmitFallback } from "./fallback.js";

/** A skip as an owner describes it; `schema_version`, `items`, `technical_failure` and `occurred_at` have defaults. */
export interface SkipInput {
  /** The skill id, `tessl__check-cfps`; a bare name (`check-cfps`) is written with the prefix. */
  readonly skill: string;
  readonly step: string | number;
  readonly reason: string;
  /** @default [] (a global skip) */
  readonly items?: readonly string[];
  /** `true` for a transient failure a retry would likely fix. @default false */
  readonly technical_failure?: boolean;
  /** @default now, UTC */
  readonly occurred_at?: string;
  readonly schema_version?: number;
  /** Extra fields are kept as they are. */
  readonly [extra: string]: unknown;
}

export interface EmitOptions {
  /** The group workspace. @default --workspace > SKIP_SUMMARY_WORKSPACE > /workspace/group */
  readonly workspace?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  /** @default () => new Date() */
  readonly now?: () => Date;
  readonly lock?: LockOptions;
  /**
   * Where the one line goes when the workspace refused the write (EROFS, EACCES) and the summary went to the
   * fallback folder instead (docs/owner.md, "A read-only workspace"); `result.fallback` says the same. @default process.stderr
   */
  readonly stderr?: { write(text: string): unknown };
}

export interface EmitResult {
  readonly path: string;
  /** What is on disk now: the new skip, merged into a waiting one when there was one. */
  readonly summary: SkipSummary;
  readonly merged: boolean;
  /** Items this write cut to keep the file within the size limit; they are counted in `items_omitted`. */
  readonly itemsCut: number;
  /** Set when the workspace refused the write and `path` is in the fallback folder instead. */
  readonly fallback?: EmitFallback;
}

/** Builds and validates the summary for `input` without touching the disk. Throws `contract.summary_invalid` or `contract.skill_id_invalid`. */
export function buildSummary(input: SkipInput, now: () => Date = () => new Date()): SkipSummary {
  // `check-cfps` is written as `tessl__check-cfps`: the one skill-id rule (src/contract/ids.ts).
  const skill = fullSkillId(input.skill);
  const ordered: Record<string, unknown> = {
    schema_version: input.schema_version ?? SCHEMA_VERSION,
    skill,
    step: input.step,
    reason: input.reason,
    items: input.items ?? [],
    technical_failure: input.technical_failure ?? false,
    occurred_at: input.occurred_at ?? formatUtcTimestamp(now()),
  };
  for (const [key, value] of Object.entries(input)) {
    if (!(SUMMARY_FIELDS as readonly string[]).includes(key) && value !== undefined) ordered[key] = value;
  }
  const result = classifySummary(ordered);
  if (result.kind === "valid") return result.summary;
  if (result.kind === "unrecognised-version") {
    throw summaryInvalid([{ path: "schema_version", message: `this writer writes version ${SCHEMA_VERSION}, got ${JSON.stringify(result.version)}` }]);
  }
  throw summaryInvalid(result.problems);
}

/** Writes one skip for its skill, merging into a summary that is already waiting. */
export async function emitSkip(input: SkipInput, options: EmitOptions = {}): Promise<EmitResult> {
  const summary = buildSummary(input, options.now);
  const workspace = resolveWorkspace({ flag: options.workspace, env: options.env, cwd: options.cwd });
  await assertWorkspaceDir(workspace);
  try {
    return await writeInto(workspace, summary, options.lock);
  } catch (error) {
    // A read-only workspace (nanoclaw-public's default tier) must not lose the skip: fallback.ts says where it goes.
    const code = unwritableCode(error);
    if (code === undefined) throw error;
    const result = await writeToFallback(workspace, code, error as Error, { env: options.env ?? process.env, cwd: options.cwd ?? process.cwd() }, (dir) => writeInto(dir, summary, options.lock));
    (options.stderr ?? process.stderr).write(`skip-summary: ${result.fallback.notice}\n`);
    return result;
  }
}

/** How many times an emit whose lock was taken over (it stalled past the stale age) reads and merges again. */
const LOCK_LOST_TRIES = 3;
const LOCK_LOST = Symbol("lock lost");

async function writeInto(workspace: string, summary: SkipSummary, lock: LockOptions | undefined): Promise<EmitResult> {
  const path = summaryPath(workspace, summary.skill);
  // A lock held past its stale age is broken by the next emit or surfacer (a holder that stalled looks like a dead
  // one). What this emit read may then be out of date: a surfacer claimed the file (writing it back would send its
  // skips twice), or another emit merged into it (writing ours would lose theirs). So the writer checks right before
  // its rename that the lock is still the one it placed, and if not, reads and merges again under a new lock.
  for (let attempt = 1; ; attempt += 1) {
    const result = await withFileLock(`${path}.lock`, (held) => mergeAndWrite(path, summary, held), lock).catch((error: unknown) => {
      // The writers word the refusals they expect; an errno that still gets here is the workspace's, never a bug of ours.
      if (!isSystemError(error)) throw error;
      throw writeFailed("unwritable", path, `cannot write ${path}: ${describeFsError(error)}; check that the workspace is writable`, { cause: error });
    });
    if (result !== LOCK_LOST) return result;
    if (attempt >= LOCK_LOST_TRIES) {
      throw writeFailed("lock-stale", `${path}.lock`, `the lock ${path}.lock was taken over ${attempt} times while this emit was merging (each time it took longer than the lock's stale age of ${LOCK_STALE_MS / 1000} s); nothing was written: check what slows the workspace's file system, then emit again`);
    }
  }
}

async function mergeAndWrite(path: string, summary: SkipSummary, held: HeldLock): Promise<EmitResult | typeof LOCK_LOST> {
  let merged = false;
  let next = summary;
  // A surfacer may claim (rename away) the waiting file between the check and the read: then nothing waits.
  const waitingText = (await inspectTarget(path)) === "file" ? await readRegularFile(path).catch((e: unknown) => ignoreMissing(e, path)) : undefined;
  if (waitingText !== undefined) {
    const waiting = classifySummaryText(waitingText, { expectedSkill: summary.skill });
    if (waiting.kind === "unrecognised-version") {
      throw writeFailed(
        "unrecognised-version",
        path,
        `refusing to overwrite ${path}: it has schema_version ${JSON.stringify(waiting.version)}, which only its owner can migrate; surface or move it first`,
      );
    }
    if (waiting.kind === "invalid") {
      throw writeFailed(
        "invalid-existing",
        path,
        `refusing to overwrite ${path}: the waiting summary is invalid (${formatProblems(waiting.problems)}); run the surfacer to quarantine it, or move it away`,
      );
    }
    next = mergeSummaries(waiting.summary, summary);
    merged = true;
  }
  if (process.env.SKIP_SUMMARY_TEST_HOLD_AFTER_READ) await (await import("./test-hold.js")).holdForTest(process.env.SKIP_SUMMARY_TEST_HOLD_AFTER_READ);
  // Cut to the readers' size limit before writing: a summary the surfacer cannot read would be quarantined.
  const fitted = fitSummary(next);
  let lost = false;
  const beforeRename = async () => {
    if (await held.stillHeld()) return;
    lost = true;
    throw new Error("the lock was taken over");
  };
  try {
    await writeFileAtomically(path, fitted.text, 0o644, { beforeRename });
  } catch (error) {
    if (lost) return LOCK_LOST;
    throw error;
  }
  return { path, summary: fitted.summary, merged, itemsCut: fitted.cut };
}

function ignoreMissing(error: unknown, path: string): undefined {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return undefined;
  if (!isSystemError(error)) throw error;
  throw writeFailed("unwritable", path, `cannot read the waiting summary ${path} to merge into it: ${code}`, { cause: error });
}

async function assertWorkspaceDir(workspace: string): Promise<void> {
  try {
    if ((await stat(workspace)).isDirectory()) return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") {
      throw writeFailed("unwritable", workspace, `cannot use the workspace ${workspace}: ${code}`, { cause: error });
    }
  }
  throw writeFailed("unwritable", workspace, `the workspace ${workspace} is not an existing directory; create it or pass --workspace DIR`);
}
