// A skip must never be lost because the workspace is read-only: nanoclaw-public mounts `/workspace/group` read-only
// for every group that is neither main nor trusted, its default tier (jbaruch/nanoclaw-public 6f53dd6
// src/container-runner.ts, buildVolumeMounts: `readonly: !isMain && !group.containerConfig?.trusted`). The one
// folder such a container may write that outlives it is the group's IPC messages folder, `/workspace/ipc/messages`
// (the host's `data/ipc/<folder>/messages`, mounted read-write for every tier). The host's IPC loop lists only the
// `*.json` names directly in it (src/ipc.ts, startIpcWatcher: `readdirSync(messagesDir).filter(f =>
// f.endsWith('.json'))`), never a subfolder, and never deletes one; so a subfolder, `skip-summary`, is ignored by the
// host and kept by it, and the surfacer (the hook in the container, the backstop on the host) looks there too.
import { lstat, mkdir, statfs } from "node:fs/promises";
import { FALLBACK_ENV, fallbackFolder } from "../contract/fallback-folder.js";

/** Why a write may go to the fallback folder: the workspace refuses writes, and will not change its mind. */
export const FALLBACK_CODES = ["EROFS", "EACCES", "EPERM"] as const;

type Env = Readonly<Record<string, string | undefined>>;

/** The errno in the error or its causes that makes the workspace unwritable for good, if any. */
export function unwritableCode(error: unknown): (typeof FALLBACK_CODES)[number] | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if ((FALLBACK_CODES as readonly unknown[]).includes(code)) return code as (typeof FALLBACK_CODES)[number];
  }
  return undefined;
}

/**
 * Makes (or finds) the fallback folder, or says why it cannot be used. Its parent must already exist: the host
 * creates and polls the messages folder, so a missing one means no host would ever see what is written below it.
 */
export async function openFallbackFolder(env: Env, cwd: string): Promise<{ readonly dir: string } | { readonly why: string }> {
  const { dir, parent } = fallbackFolder(env, cwd);
  try {
    if (!(await lstat(parent)).isDirectory()) return { why: `${parent} is not a folder` };
  } catch (error) {
    return { why: `${parent} does not exist (${(error as NodeJS.ErrnoException).code}): no NanoClaw host polls it` };
  }
  try {
    await mkdir(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return { why: `cannot create ${dir} (${(error as NodeJS.ErrnoException).code})` };
  }
  // A link planted at the name must not send the summary elsewhere.
  const stats = await lstat(dir).catch(() => undefined);
  if (!stats?.isDirectory()) return { why: `${dir} is not a real folder (a link or a file sits at that name)` };
  return { dir };
}

// statfs(2) f_type of file systems that live in memory: what is written there dies with the machine or container.
const MEMORY_FS = new Set([0x01021994 /* tmpfs */, 0x858458f6 /* ramfs */]);

/** True when `dir` is on a tmpfs or ramfs: a write there must say so, since it will not outlive the container. */
export async function inMemory(dir: string): Promise<boolean> {
  try {
    return MEMORY_FS.has((await statfs(dir)).type);
  } catch {
    return false;
  }
}

/** Set on an emit result when the summary went to the fallback folder. */
export interface EmitFallback {
  /** The workspace that refused the write. */
  readonly workspace: string;
  readonly code: (typeof FALLBACK_CODES)[number];
  /** The fallback folder is a tmpfs or ramfs: the summary dies with the container unless the host mounts it. */
  readonly inMemory: boolean;
  /** The one line said on stderr. */
  readonly notice: string;
}

/**
 * Writes through `write` into the fallback folder after the workspace refused with `code`; rethrows `original`,
 * with why the fallback could not be used, when there is none.
 */
export async function writeToFallback<T extends { readonly path: string }>(
  workspace: string,
  code: (typeof FALLBACK_CODES)[number],
  original: Error,
  context: { readonly env: Env; readonly cwd: string },
  write: (dir: string) => Promise<T>,
): Promise<T & { readonly fallback: EmitFallback }> {
  const folder = await openFallbackFolder(context.env, context.cwd);
  if ("why" in folder) {
    original.message += `; no fallback folder either: ${folder.why} (set ${FALLBACK_ENV} to a writable folder the surfacer also watches, or make the workspace writable)`;
    throw original;
  }
  const result = await write(folder.dir);
  const memory = await inMemory(folder.dir);
  const why = code === "EROFS" ? "is read-only (EROFS)" : `refuses writes (${code})`;
  const notice =
    `the workspace ${workspace} ${why}, so the skip summary was written to ${result.path} instead, where the surfacer also looks` +
    (memory ? `; note: ${folder.dir} is in memory (tmpfs), so it does not outlive this machine or container` : "");
  return { ...result, fallback: { workspace, code, inMemory: memory, notice } };
}
