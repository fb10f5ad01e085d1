// Where the rule file shipped with this package lives: two folders up from src/lint/ and dist/chunks/, one from dist/lib/.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const CANDIDATES = ["../../rules/no-silent-defer.md", "../rules/no-silent-defer.md"];

export const BUILTIN_RULE_PATH: string =
  CANDIDATES.map((c) => fileURLToPath(new URL(c, import.meta.url))).find((p) => existsSync(p)) ?? fileURLToPath(new URL(CANDIDATES[0]!, import.meta.url));
