// When the lint's parser workers start. A worker needs ~0.1 s to boot and load its grammars, and until the tile is
// listed this thread is the only one working: so the workers start while the listing is still under way, as soon as it
// has seen enough files to parse (the folders as fast-glob reads them, files.ts `onFolder`), instead of after it. The
// count is settled on the finished listing: more workers if the tile turned out larger, none if it was smaller (ignored
// files were counted on the way). A worker that cannot start is no error: the files are parsed on this thread, with the
// same findings, as without workers.
import type { Dirent } from "node:fs";
import { loadavg } from "node:os";
import { grammarOf } from "../source/analyse.js";
import { Parsers, type Grammar } from "../source/tree-sitter.js";
import { baseName, isCode, languageOf } from "./classify-path.js";
import { FactsPool, workerCount, type Concurrency } from "./facts-pool.js";

/** A file a parser may read: code, or a SKILL.md (its code blocks); what "auto" counts. */
export function mayParse(path: string): boolean {
  const language = languageOf(path);
  return isCode(language) || language === "shell-or-other" || baseName(path) === "SKILL.md";
}

export class PoolStarter {
  private pool: FactsPool | undefined;
  private failed = false;
  private seen = 0;
  private readonly grammars = new Set<Grammar>();

  constructor(
    private readonly concurrency: Concurrency,
    /** The tile's absolute folder: the listing's folders are made tile-relative, as the rest of the lint sees paths. */
    private readonly dir: string,
    /** The machine's load average (1 minute), read once per tile: "auto" starts no worker on a busy machine. */
    private readonly load: number = concurrency === "auto" ? loadavg()[0]! : 0,
  ) {}

  /** The workers, once started. */
  get workers(): FactsPool | undefined {
    return this.pool;
  }

  /** A folder the listing read: its files are counted, and the workers start once there are enough. */
  readonly onFolder = (folder: string, entries: readonly Dirent[]): void => {
    if (this.pool || this.failed || this.concurrency === "off") return;
    const rel = folder.length > this.dir.length && folder.startsWith(this.dir) ? `${folder.slice(this.dir.length + 1)}/` : "";
    for (const entry of entries) {
      if (entry.isDirectory()) continue;
      const path = rel + entry.name;
      if (!mayParse(path)) continue;
      this.seen++;
      this.grammars.add(grammarOf(languageOf(path), path));
    }
    this.start(workerCount(this.concurrency, this.seen, undefined, this.load));
  };

  /** The finished listing (files only): how many workers the tile needs, now that it is known. */
  readonly onListed = (paths: readonly string[]): void => {
    this.settle(paths.filter(mayParse));
  };

  /** With `--cache`, the files to parse are known only once they are read and hashed. */
  settle(candidates: readonly string[]): void {
    const wanted = workerCount(this.concurrency, candidates.length, undefined, this.load);
    if (wanted === 0) {
      this.close();
      this.pool = undefined;
      return;
    }
    for (const path of candidates) this.grammars.add(grammarOf(languageOf(path), path));
    if (this.pool) this.pool.grow(wanted, [...this.grammars]);
    else this.start(wanted);
  }

  close(): void {
    this.pool?.close();
  }

  private start(workers: number): void {
    if (workers === 0 || this.pool || this.failed) return;
    const grammars = [...this.grammars];
    try {
      this.pool = FactsPool.start(workers, grammars);
    } catch {
      // No thread for a worker (Node's ERR_WORKER_INIT_FAILED, say): this thread parses everything, as with "off".
      this.failed = true;
      return;
    }
    // This thread's grammars compile (in V8's background threads) while it lists and reads the files, instead of after.
    // Loaded once per process either way; an error shows where they are awaited (load-tile.ts).
    if (this.pool) void Parsers.load(grammars).catch(() => undefined);
  }
}
