// Lints tiles: load each, run every enabled rule, drop suppressed findings, and return sorted per-file results.
import { isAbsolute, relative, resolve, sep } from "node:path";
import { RULES } from "./rules/index.js";
import { isSuppressed, parseSuppressions, type Suppression } from "./suppressions.js";
import { BUILTIN_RULE_PATH } from "./builtin-rule.js";
import { loadTile, readRuleText, type LoadTileOptions } from "./tile/load-tile.js";
import { isSkipSummaryError } from "../contract/errors.js";
import { groupCopies } from "./copies.js";
import type { FactsCache } from "./tile/facts-cache.js";
import type { Concurrency } from "./tile/facts-pool.js";
import { fillMessage, type FileResult, type Finding, type LintSettings, type LintSummary, type Report, type Severity, type TileFailure } from "./types.js";

export interface LintOptions {
  /** Folder that output paths are relative to. */
  readonly cwd: string;
  /** Severity per enabled rule (see resolveLintConfig); default: every rule at its default severity. */
  readonly severities?: ReadonlyMap<string, Severity>;
  readonly ignore?: readonly string[];
  /** `--rule FILE`: the rule file for tiles that have none of their own. */
  readonly ruleFile?: string;
  /** The config's `lint.rule`: where the tiles' rule ships (a shared tile); used like `--rule`, and no rule-file-missing. */
  readonly configuredRuleFile?: string;
  /** Report errors only (`--quiet`). */
  readonly quiet?: boolean;
  readonly settings?: LintSettings;
  /** `--cache`: what the parsers found, kept by content between runs (FactsCache.load; the caller saves it). */
  readonly cache?: FactsCache;
  /** `--concurrency`: parser worker threads (default "auto": only for a tile with enough to parse, on more than one core). */
  readonly concurrency?: Concurrency;
  /** Hears each tile as its turn comes (the CLI's progress line). */
  readonly onTile?: (index: number, dir: string) => void;
}

export function defaultSeverities(): Map<string, Severity> {
  return new Map(RULES.map((r) => [r.meta.id, r.meta.severity]));
}

export async function lintTiles(dirs: readonly string[], options: LintOptions): Promise<LintSummary> {
  const severities = options.severities ?? defaultSeverities();
  const origin = options.ruleFile !== undefined ? ("flag" as const) : options.configuredRuleFile !== undefined ? ("config" as const) : ("builtin" as const);
  const fallbackPath = origin === "builtin" ? BUILTIN_RULE_PATH : resolve(options.cwd, (options.ruleFile ?? options.configuredRuleFile)!);
  const fallbackRule = { path: fallbackPath, origin, text: await readRuleText(fallbackPath) };
  const findings: Finding[] = [];
  const failures: TileFailure[] = [];
  let skills = 0;
  for (const [index, dir] of dirs.entries()) {
    options.onTile?.(index, dir);
    // One tile never stops the others: a tile that cannot be read, or a bug met on it, is recorded and the run goes on.
    const tileFindings: Finding[] = [];
    try {
      skills += await lintTile(dir, options, severities, fallbackRule, tileFindings);
      findings.push(...tileFindings);
    } catch (error) {
      failures.push(isSkipSummaryError(error, "lint.tile_unreadable") ? { tile: dir, kind: "unreadable", message: error.message, error } : { tile: dir, kind: "internal", message: (error as Error).message, error });
    }
  }
  return { ...summarise(findings, dirs), skills, failures };
}

/** Lints one tile into `out` (left untouched when the tile fails); returns how many skills it has. */
async function lintTile(dir: string, options: LintOptions, severities: ReadonlyMap<string, Severity>, fallbackRule: LoadTileOptions["fallbackRule"], out: Finding[]): Promise<number> {
  const findings: Finding[] = [];
  const knownRuleIds = new Set(RULES.map((r) => r.meta.id));
  {
    const tile = await loadTile(dir, options.cwd, { ignore: options.ignore ?? [], fallbackRule, ...(options.cache ? { cache: options.cache } : {}), ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }) });
    const suppressionCache = new Map<string, Suppression[]>();
    const texts = new Map(tile.files.map((f) => [f.path, f.text]));
    const suppressionsOf = (file: string) => {
      let list = suppressionCache.get(file);
      if (!list) suppressionCache.set(file, (list = parseSuppressions(texts.get(file) ?? "")));
      return list;
    };
    for (const rule of RULES) {
      const severity = severities.get(rule.meta.id);
      if (severity === undefined || (options.quiet && severity === "warning")) continue;
      const report = (r: Report) => {
        if (isSuppressed(suppressionsOf(r.file), r.line, rule.meta.id)) return;
        const template = rule.meta.messages[r.messageId];
        if (template === undefined) throw new Error(`rule ${rule.meta.id} reported unknown messageId ${r.messageId}`);
        const absolute = isAbsolute(r.file) ? r.file : resolve(tile.dir, r.file);
        findings.push({
          ruleId: rule.meta.id,
          severity: r.severity !== undefined && severity === rule.meta.severity ? r.severity : severity,
          file: displayPath(options.cwd, absolute),
          line: r.line,
          column: r.column,
          messageId: r.messageId,
          message: fillMessage(template, r.data),
          ...(r.skill === undefined ? {} : { skill: r.skill }),
          snippet: r.snippet ?? lineText(texts.get(r.file), r.line) ?? fillMessage(template, r.data),
          ...(r.related === undefined || r.related.length === 0
            ? {}
            : { related: r.related.map((l) => ({ ...l, file: displayPath(options.cwd, isAbsolute(l.file) ? l.file : resolve(tile.dir, l.file)) })) }),
        });
      };
      rule.check({ tile, knownRuleIds, report, ...(options.settings ? { settings: options.settings } : {}) });
    }
    out.push(...groupCopies(findings, tile.files, (shown) => relative(tile.dir, resolve(options.cwd, shown)).split(sep).join("/")));
    return tile.skills.length;
  }
}

/** The text of a line, trimmed, when it says something (baselines match on it). */
function lineText(text: string | undefined, line: number): string | undefined {
  const value = text?.split("\n")[line - 1]?.trim();
  return value && value.length > 2 ? value.slice(0, 200) : undefined;
}

/**
 * Paths under the working folder print relative to it (what editors and CI annotations resolve); a tile outside it
 * prints absolute, as ESLint does, rather than as a chain of `../` that hides where it is.
 */
function displayPath(cwd: string, absolute: string): string {
  const rel = relative(cwd, absolute);
  if (rel === "") return ".";
  if (rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return absolute.split(sep).join("/");
  return rel.split(sep).join("/");
}

/** Groups findings by file, sorted by path, then line, column and rule id, so every format is deterministic. */
export function summarise(findings: readonly Finding[], tiles: readonly string[]): LintSummary {
  const byFile = new Map<string, Finding[]>();
  const seen = new Set<string>();
  for (const f of findings) {
    const key = `${f.file}\0${f.line}\0${f.column}\0${f.ruleId}\0${f.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const list = byFile.get(f.file) ?? [];
    list.push(f);
    byFile.set(f.file, list);
  }
  const files: FileResult[] = [...byFile.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([file, list]) => {
      list.sort((a, b) => a.line - b.line || a.column - b.column || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
      return { file, findings: list, errorCount: list.filter((f) => f.severity === "error").length, warningCount: list.filter((f) => f.severity === "warning").length };
    });
  return {
    files,
    errorCount: files.reduce((n, f) => n + f.errorCount, 0),
    warningCount: files.reduce((n, f) => n + f.warningCount, 0),
    tiles: [...tiles],
  };
}
