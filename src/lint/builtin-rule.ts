// Where the rule file shipped with this package lives: `rules/` is two folders up from src/lint/, dist/chunks/ and dist/lib/.
import { fileURLToPath } from "node:url";

export const BUILTIN_RULE_PATH: string = fileURLToPath(new URL("../../rules/no-silent-defer.md", import.meta.url));
