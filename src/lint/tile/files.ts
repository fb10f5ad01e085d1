// Lists a tile's files with fast-glob and reads the ones the checks need, reporting (never crashing on) files it cannot read.
import { closeSync, fstatSync, openSync, readdirSync, readSync, realpathSync, constants, type Dirent } from "node:fs";
import { relative, sep } from "node:path";
import { isSystemError } from "../../fs/errors.js";
import fg from "fast-glob";
import { baseName, isScheduleConfig, isSummaryLikeName, languageOf, type Language } from "./classify-path.js";

/** Files larger than this are reported and not read. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** Installed dependency tiles (`.tessl/`) are other tiles, not this one's files. */
export const DEFAULT_IGNORE = ["**/node_modules/**", "**/.git/**", "**/.tessl/**"];

export interface TileFile {
  /** Tile-relative, `/`-separated. */
  readonly path: string;
  readonly language: Language;
  /** The text when the file was read as UTF-8; undefined for files the checks do not read or could not read. */
  readonly text?: string;
}

export type UnreadableReason =
  | "binary"
  | "too-large"
  | "not-utf8"
  | "symlink-loop"
  | "symlinked-folder"
  | "symlink-outside"
  | "not-a-file"
  | "line-break-folder"
  | "unreadable-folder"
  | "unreadable";

export interface UnreadableFile {
  readonly path: string;
  readonly reason: UnreadableReason;
  readonly detail?: string;
}

export interface TileFiles {
  readonly files: TileFile[];
  readonly unreadable: UnreadableFile[];
}

const decoder = new TextDecoder("utf-8", { fatal: true });

export interface ListHooks {
  /**
   * Hears each folder's entries as fast-glob reads it, before its filters (so ignored files are counted too): the lint
   * starts its parser workers as soon as it has seen enough files to parse (pool-start.ts), while the rest is listed.
   */
  readonly onFolder?: (folder: string, entries: readonly Dirent[]) => void;
  /** Hears the listed paths before any is read (the lint settles how many parser workers to keep then). */
  readonly onListed?: (paths: readonly string[]) => void;
  /**
   * Hears each file as it is read (the lint hands the ones to parse to its workers then). With it, the reading lets the
   * event loop run now and then, so the workers' messages come in.
   */
  readonly onRead?: (file: TileFile) => void;
}

/** Files read between two turns of the event loop when `onRead` is given. */
const READS_PER_TURN = 200;

export async function listTileFiles(dir: string, ignore: readonly string[], hooks: ListHooks = {}): Promise<TileFiles> {
  const { onFolder, onListed, onRead } = hooks;
  // The synchronous walk: on a local disk it avoids a thread-pool hop per folder, which dominates on small tiles' many folders.
  // "**/*", not "**": a globstar never matches a name with a line break, so "**" would drop such a folder without a
  // trace, while "**/*" still lists it (its last part is matched by "*") and it can be reported below.
  const unreadable: UnreadableFile[] = [];
  const entries: WalkEntry[] = walk(dir, "", ignore, unreadable, onFolder);
  onListed?.(entries.filter((e) => !e.dirent.isDirectory()).map((e) => e.path));
  const files: TileFile[] = [];
  const links = new LinkFollower(dir);
  const buffer = Buffer.allocUnsafe(64 * 1024);
  let reads = 0;
  for (const entry of entries) {
    const { dirent, path } = entry;
    if (dirent.isDirectory()) {
      if (/[\r\n]/.test(path)) unreadable.push({ path, reason: "line-break-folder" });
      continue;
    }
    const language = languageOf(path);
    if (!isRead(path, language) && !dirent.isSymbolicLink()) {
      files.push({ path, language });
      continue;
    }
    const read = readText(`${dir}/${path}`, buffer);
    if (typeof read === "string") {
      const file: TileFile = { path, language: language === "shell-or-other" ? sniff(read) : language, text: read };
      files.push(file);
      if (onRead) {
        onRead(file);
        if (++reads % READS_PER_TURN === 0) await new Promise<void>((r) => setImmediate(r));
      }
    } else if (read.reason === "symlinked-folder") {
      // A link to a folder inside the tile is followed (its files belong to the skill it sits in), at most once along
      // a chain of links; one that leaves the tile, or would loop, is reported and not followed.
      const followed = links.follow(path);
      if (typeof followed === "string") entries.push(...walk(followed, path, ignore, unreadable));
      else unreadable.push({ path, ...followed });
    } else {
      // Links are always reported (a loop must not pass unseen); unreadable content only where a check would read it.
      // A scheduler's file is read only to learn who runs a skill: one that is binary (a binary plist), too large or not
      // UTF-8 is listed without a finding.
      if (read.reason === "symlink-loop" || (isRead(path, language) && !onlyForSchedule(path, language))) unreadable.push({ path, ...read });
      files.push({ path, language: language === "shell-or-other" ? "other" : language });
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, unreadable };
}

/**
 * fast-glob's listing of `root`, its paths prefixed with `prefix` (a followed link's path in the tile). A folder inside
 * that cannot be read is reported and its walk goes on (one folder never hides the rest of the tile); `root` itself
 * failing is the caller's error.
 */
function walk(root: string, prefix: string, ignore: readonly string[], unreadable: UnreadableFile[], onFolder?: ListHooks["onFolder"]): WalkEntry[] {
  const readdir = ((path: string, options?: { withFileTypes?: boolean }) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(path, options as { withFileTypes: true });
    } catch (error) {
      const at = relative(root, path).split(sep).join("/");
      if (at === "" || !isSystemError(error)) throw error;
      unreadable.push({ path: prefix === "" ? at : `${prefix}/${at}`, reason: "unreadable-folder", detail: error.code });
      return [];
    }
    if (options?.withFileTypes) onFolder?.(path, entries);
    return entries;
  }) as typeof readdirSync;
  // "**/*", not "**": a globstar never matches a name with a line break, so "**" would drop such a folder without a
  // trace, while "**/*" still lists it (its last part is matched by "*") and it can be reported below.
  const entries = fg.sync("**/*", {
    cwd: root,
    dot: true,
    onlyFiles: false,
    followSymbolicLinks: false,
    objectMode: true,
    ignore: [...DEFAULT_IGNORE, ...ignore],
    // An error reaches the adapter above, which reports it; nothing is skipped in silence.
    suppressErrors: false,
    // fast-glob's documented file-system adapter: the same readdirSync, heard on the way (folders as absolute paths).
    fs: { readdirSync: readdir },
  });
  return prefix === "" ? entries : entries.map((e) => ({ path: `${prefix}/${e.path}`, dirent: e.dirent }));
}

type WalkEntry = { readonly path: string; readonly dirent: fg.Entry["dirent"] };

/** Decides which links to folders are followed: inside the tile, and not back into a folder on their own chain. */
class LinkFollower {
  private readonly root: string;
  /** Followed link path -> the real folders followed to reach it (itself included). */
  private readonly chains = new Map<string, ReadonlySet<string>>();
  constructor(private readonly dir: string) {
    this.root = realpathSync(dir);
  }

  /** The real folder to walk, or why the link is not followed. */
  follow(path: string): string | Omit<UnreadableFile, "path"> {
    let real: string;
    try {
      real = realpathSync(`${this.dir}/${path}`);
    } catch (error) {
      return { reason: "unreadable", detail: (error as NodeJS.ErrnoException).code ?? String(error) };
    }
    const inside = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith(sep) ? parent : `${parent}${sep}`);
    if (!inside(real, this.root)) return { reason: "symlink-outside", detail: real };
    // A link into a folder that holds it, or into one a link on the way here came from or led to, would list itself
    // forever: the chain holds the real folder each link of the way sits in and the one it leads to.
    const here = realpathSync(`${this.dir}/${path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "."}`);
    let chain: ReadonlySet<string> = new Set([here]);
    for (let at = path.lastIndexOf("/"); at > 0; at = path.lastIndexOf("/", at - 1)) {
      const c = this.chains.get(path.slice(0, at));
      if (c) {
        chain = new Set([...c, here]);
        break;
      }
    }
    if (inside(here, real) || chain.has(real)) return { reason: "symlinked-folder", detail: relative(this.root, real).split(sep).join("/") || "." };
    this.chains.set(path, new Set([...chain, real]));
    return real;
  }
}

/** Code, SKILL.md, rule files, manifests and summaries are read; other files (docs, data, images) only listed. */
/** Windows scripts: the lint does not parse them, but one may put a skill on a schedule (skill-scripts.ts). */
const WINDOWS_SCRIPT = /\.(?:ps1|cmd|bat)$/i;

/** Read only because it may be a scheduler's file, not because a check needs its text. */
function onlyForSchedule(path: string, language: Language): boolean {
  return (language === "other" || language === "json") && (isScheduleConfig(path) || WINDOWS_SCRIPT.test(path)) && !isRead(path, language, false);
}

function isRead(path: string, language: Language, schedules = true): boolean {
  switch (language) {
    case "other":
      // A Windows script may register a scheduled task (Register-ScheduledTask, schtasks): read for that alone.
      return isSummaryLikeName(path) || (schedules && (isScheduleConfig(path) || WINDOWS_SCRIPT.test(path)));
    case "markdown": {
      const name = baseName(path);
      // references/*.md: a SKILL.md's linked instructions, read for instructed skips.
      return name === "SKILL.md" || name === "no-silent-defer.md" || /(^|\/)(rules|references)\//.test(path);
    }
    case "json":
      return isSummaryLikeName(path) || (schedules && isScheduleConfig(path)) || path === "tile.json" || path === ".tessl-plugin/plugin.json" || path === ".claude-plugin/plugin.json" || path === "tessl.json";
    default:
      return true;
  }
}

/** An extension-less script is bash or Python when its first line says so. */
function sniff(text: string): Language {
  const first = text.slice(0, text.indexOf("\n") === -1 ? text.length : text.indexOf("\n"));
  if (/^#!.*\b(bash|sh|zsh|dash|ksh)\b/.test(first)) return "shell";
  if (/^#!.*\bpython/.test(first)) return "python";
  if (/^#!.*\b(node|deno|bun|tsx)\b/.test(first)) return "js";
  return "other";
}

function readText(path: string, buffer: Buffer): string | Omit<UnreadableFile, "path"> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return { reason: "symlink-loop" };
    return { reason: "unreadable", detail: code ?? String(error) };
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return { reason: "symlinked-folder" };
    if (!stat.isFile()) return { reason: "not-a-file" };
    if (stat.size > MAX_FILE_BYTES) return { reason: "too-large", detail: String(stat.size) };
    const bytes = stat.size <= buffer.length ? buffer : Buffer.allocUnsafe(stat.size);
    // The size fstat gave, and no more: a file read to its size needs no second read to meet its end (one system call
    // fewer for each of a large tile's thousands of small files). A file that shrank meanwhile ends early (a read of 0).
    let length = 0;
    while (length < stat.size) {
      const n = readSync(fd, bytes, length, stat.size - length, null);
      if (n === 0) break;
      length += n;
    }
    const view = bytes.subarray(0, length);
    if (view.includes(0)) return { reason: "binary" };
    try {
      return decoder.decode(view);
    } catch {
      return { reason: "not-utf8" };
    }
  } catch (error) {
    return { reason: "unreadable", detail: (error as NodeJS.ErrnoException).code ?? String(error) };
  } finally {
    closeSync(fd);
  }
}
