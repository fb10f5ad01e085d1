// `lint --init [TILE...]`: the rule file rule-file-missing asks for is the copy shipped with skip-summary; this writes
// it where the lint (and Tessl) look for it, rules/no-silent-defer.md, and never over a file that is there.
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { isSystemError } from "../../fs/errors.js";
import { BUILTIN_RULE_PATH } from "../../lint/builtin-rule.js";
import { readRuleText } from "../../lint/tile/load-tile.js";
import { MANIFESTS } from "../../lint/tile/manifest.js";
import type { CliIo } from "../io.js";
import { usageError } from "../usage-error.js";

export const INIT_RULE_PATH = "rules/no-silent-defer.md";

export async function initRuleFiles(tiles: readonly string[], io: CliIo): Promise<0> {
  const text = await readRuleText(BUILTIN_RULE_PATH);
  for (const tile of tiles) {
    const dir = resolve(io.cwd, tile);
    try {
      if (!(await stat(dir)).isDirectory()) throw usageError(`--init: ${tile} is not a folder; pass the tile's root folder`);
    } catch (error) {
      if (!isSystemError(error)) throw error;
      throw usageError(`--init: ${tile} ${error.code === "ENOENT" ? "does not exist" : `cannot be read (${error.code})`}`, { cause: error });
    }
    const target = join(dir, INIT_RULE_PATH);
    const shown = tile === "." ? INIT_RULE_PATH : `${tile.replace(/\/+$/, "")}/${INIT_RULE_PATH}`;
    try {
      await mkdir(join(dir, "rules"), { recursive: true });
      // "wx": an author's own rule file, edited or not, is theirs.
      await writeFile(target, text, { flag: "wx" });
    } catch (error) {
      if (!isSystemError(error)) throw error;
      if (error.code === "EEXIST") {
        io.stderr.write(`skip-summary: ${shown} is there already; left as it is\n`);
        continue;
      }
      throw usageError(`--init: ${shown} cannot be written (${error.code})`, { cause: error });
    }
    io.stderr.write(`skip-summary: wrote ${shown} (the no-silent-defer rule shipped with skip-summary)${await manifestHint(dir)}\n`);
  }
  return 0;
}

/** Where the tile's manifest should list the rule, so the agent loads it with the skills (the lint finds it anyway). */
async function manifestHint(dir: string): Promise<string> {
  for (const name of MANIFESTS) {
    let text: string;
    try {
      text = await readFile(join(dir, name), "utf8");
    } catch {
      continue;
    }
    // A Claude Code plugin has no rules field.
    if (name === ".claude-plugin/plugin.json") return "";
    if (text.includes("no-silent-defer.md") || /"rules"\s*:\s*"(\.\/)?rules\/?"/.test(text)) return "";
    if (name === "tile.json") return `; list it in tile.json so the agent loads it: "steering": { "no-silent-defer": { "rules": "${INIT_RULE_PATH}", "alwaysApply": true } }`;
    return `; list it in ${name} so the agent loads it: "rules": ["${INIT_RULE_PATH}"]`;
  }
  return "";
}
