// Where the rule file shipped with this package lives: `rules/` at the package root, two folders up from src/lint/,
// dist/lib/ and dist/chunks/; three up should the chunks ever move one folder deeper.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const CANDIDATES = ["../../rules/no-silent-defer.md", "../../../rules/no-silent-defer.md"].map((p) => fileURLToPath(new URL(p, import.meta.url)));

export const BUILTIN_RULE_PATH: string = CANDIDATES.find((p) => existsSync(p)) ?? CANDIDATES[0]!;
