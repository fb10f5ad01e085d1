// Where the rule file shipped with this package lives: `rules/` at the package root, two folders up from src/lint/
// and dist/lib/ (and dist/esm/full.js's folder's parent), three up from dist/esm/chunks/.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const CANDIDATES = ["../../rules/no-silent-defer.md", "../../../rules/no-silent-defer.md"].map((p) => fileURLToPath(new URL(p, import.meta.url)));

export const BUILTIN_RULE_PATH: string = CANDIDATES.find((p) => existsSync(p)) ?? CANDIDATES[0]!;
