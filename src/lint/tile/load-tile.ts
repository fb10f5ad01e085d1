// Reads one tile folder from disk into a Tile; a folder that cannot be read at all is a TileReadError (exit 2).
import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { loadTypeScript } from "../source/js.js";
import { baseName } from "./classify-path.js";
import { listTileFiles, type TileFile } from "./files.js";
import { LEGACY_MANIFEST, PLUGIN_MANIFEST, parseManifest, type Manifest } from "./manifest.js";
import { parseRuleFile } from "./rule-file.js";
import { RELEVANT, buildTile, type RuleSource, type Tile } from "./tile.js";

export const RULE_FILE_NAME = "no-silent-defer.md";
const JS_BLOCK = /^\s*(```+|~~~+)\s*(js|javascript|mjs|ts|typescript|jsx|tsx)\b/m;

export class TileReadError extends Error {
  override readonly name = "TileReadError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

export interface LoadTileOptions {
  readonly ignore: readonly string[];
  /** The rule file for tiles that have none (`--rule FILE`); read once by the caller. */
  readonly fallbackRule: { readonly path: string; readonly origin: "flag" | "builtin"; readonly text: string };
}

/** The fallback rule file (`--rule FILE`, or the copy shipped with skip-summary) cannot be read: exit 2, naming the file. */
export class RuleFileReadError extends Error {
  override readonly name = "RuleFileReadError";
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(`${path}: the rule file cannot be read (${code}${ERRNO_WORDS[code] ? `: ${ERRNO_WORDS[code]}` : ""})`);
  }
}

const ERRNO_WORDS: Readonly<Record<string, string>> = { ENOENT: "no such file", EISDIR: "it is a folder", EACCES: "permission denied" };

export async function readRuleText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new RuleFileReadError(path, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
  }
}

export async function loadTile(dirArg: string, cwd: string, options: LoadTileOptions): Promise<Tile> {
  const dir = resolve(cwd, dirArg);
  try {
    const s = await stat(dir);
    if (!s.isDirectory()) throw new TileReadError(dirArg, "is not a folder; pass the tile's root folder");
  } catch (error) {
    if (error instanceof TileReadError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new TileReadError(dirArg, code === "ENOENT" ? "does not exist" : `cannot be read (${code ?? (error as Error).message})`);
  }
  let walked: Awaited<ReturnType<typeof listTileFiles>>;
  try {
    walked = await listTileFiles(dir, options.ignore);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    throw new TileReadError(dirArg, `cannot be read (${e.code ?? e.message}${e.path ? ` at ${e.path}` : ""})`);
  }
  const { files, unreadable } = walked;
  const byPath = new Map(files.map((f) => [f.path, f]));
  let manifest: Manifest | undefined;
  for (const name of [PLUGIN_MANIFEST, LEGACY_MANIFEST]) {
    const file = byPath.get(name);
    if (file?.text !== undefined) {
      manifest = parseManifest(name, file.text);
      break;
    }
  }
  const listed = manifest?.ruleFiles.find((r) => baseName(r.path) === RULE_FILE_NAME && byPath.get(r.path)?.text !== undefined);
  const own = listed?.path ?? (byPath.get(`rules/${RULE_FILE_NAME}`)?.text !== undefined ? `rules/${RULE_FILE_NAME}` : undefined);
  const rule: RuleSource = own
    ? { path: own, origin: "tile", parsed: parseRuleFile(byPath.get(own)!.text!) }
    : { path: options.fallbackRule.path, origin: options.fallbackRule.origin, parsed: parseRuleFile(options.fallbackRule.text) };
  const needsParser = (f: TileFile) =>
    f.text !== undefined && (f.language === "js" || (f.language === "markdown" && JS_BLOCK.test(f.text))) && RELEVANT.test(f.text);
  const ts = files.some(needsParser) ? await loadTypeScript() : undefined;
  return buildTile({ dir, files, unreadable, manifest, rule, ts });
}
