// `lint --cache`: what the parsers found in each file, kept between runs by content hash, as ESLint's --cache keeps
// results. Parsing is most of a large tile's lint time (bench/lint.mjs); a CI job that restores the cache file parses
// only the files that changed. The facts depend only on a file's text, language and test role, so that is the key;
// the cache is dropped whole when skip-summary (or its build) changes, and a cache that cannot be read is ignored.
import { createHash } from "node:crypto";
import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CodeFacts } from "../source/facts.js";

declare const __SKIP_SUMMARY_VERSION__: string | undefined;

/** Default file name, in the folder lint runs in. Not `.skip-summary-*`, which names skip summaries. */
export const DEFAULT_CACHE_FILE = ".skipsummary-lintcache.json";
const FORMAT = 1;

export interface CachedFacts {
  readonly facts: CodeFacts;
  readonly error?: string;
}

/** The build that wrote the cache: a cache from another version or build is not trusted. */
function buildStamp(): string {
  const version = typeof __SKIP_SUMMARY_VERSION__ === "string" ? __SKIP_SUMMARY_VERSION__ : "dev";
  let file = "";
  try {
    const path = fileURLToPath(import.meta.url);
    const s = statSync(path);
    file = `${path}:${s.size}:${s.mtimeMs}`;
  } catch {
    file = import.meta.url;
  }
  return `${FORMAT}:${version}:${file}`;
}

export class FactsCache {
  private readonly used = new Map<string, CachedFacts>();

  private constructor(
    readonly path: string,
    private readonly stamp: string,
    private readonly stored: ReadonlyMap<string, CachedFacts>,
  ) {}

  /** Reads the cache file; a missing, unreadable, corrupt or foreign one starts empty (it is rewritten on save). */
  static load(path: string): FactsCache {
    const stamp = buildStamp();
    let stored = new Map<string, CachedFacts>();
    try {
      const data = JSON.parse(readFileSync(path, "utf8")) as { stamp?: unknown; entries?: unknown };
      if (data.stamp === stamp && typeof data.entries === "object" && data.entries !== null) stored = new Map(Object.entries(data.entries as Record<string, CachedFacts>));
    } catch {
      // No cache yet, or not one this build can trust: every file is parsed.
    }
    return new FactsCache(path, stamp, stored);
  }

  static key(parts: { readonly language: string; readonly test: boolean; readonly path: string; readonly text: string }): string {
    // The extension picks the grammar (.ts, .tsx, .bats), so it is part of what the facts depend on.
    const ext = parts.path.slice(parts.path.lastIndexOf(".") + 1);
    return createHash("sha1").update(`${parts.language}\0${parts.test ? 1 : 0}\0${ext}\0`).update(parts.text).digest("base64url");
  }

  has(key: string): boolean {
    return this.stored.has(key) || this.used.has(key);
  }

  get(key: string, compute: () => CachedFacts): CachedFacts {
    const known = this.used.get(key) ?? this.stored.get(key);
    if (known) {
      this.used.set(key, known);
      return known;
    }
    const fresh = compute();
    this.used.set(key, fresh);
    return fresh;
  }

  /** Writes the entries this run used (others are dropped), atomically: a crash leaves the old cache or none. */
  save(): { readonly ok: true } | { readonly ok: false; readonly errno: string } {
    const tmp = `${this.path}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify({ stamp: this.stamp, entries: Object.fromEntries(this.used) }));
      renameSync(tmp, this.path);
      return { ok: true };
    } catch (error) {
      try {
        unlinkSync(tmp);
      } catch {
        // nothing was written
      }
      return { ok: false, errno: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
    }
  }
}
