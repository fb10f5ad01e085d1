// What one file tells the rules (its CodeFacts), from its path, language, test role and text alone. It lives apart from
// tile.ts because it runs in two places: in the lint's own thread and in its parser workers (facts-worker.ts), and a
// file must come out the same in both, errors included.
import { analyseCode, grammarOf, needsParse, RELEVANT, type CodeLanguage } from "../source/analyse.js";
import { EMPTY_FACTS } from "../source/facts.js";
import { analyseMarkdown } from "../source/markdown.js";
import { pythonHeredocs } from "../source/heredoc-python.js";
import type { Grammar, Parsers } from "../source/tree-sitter.js";
import type { CachedFacts } from "./facts-cache.js";
import { baseName, isCode } from "./classify-path.js";
import type { TileFile } from "./files.js";

const BLOCK = /^\s*(?:```+|~~~+)\s*(js|javascript|mjs|ts|typescript|jsx|tsx|py|python|python3|sh|bash|shell|zsh|console|shell-session)\b/gm;

/** The facts, or empty facts and why the file could not be analysed (reported as an unreadable file). */
export function analyseFile(file: TileFile, test: boolean, parsers: Parsers): CachedFacts {
  if (file.text === undefined) return { facts: EMPTY_FACTS };
  try {
    switch (file.language) {
      case "shell": {
        let f = analyseCode(parsers, "shell", file.path, file.text, { script: !test });
        // The Python a script runs from a heredoc is read as Python, at its own lines.
        if (!test && parsers.has("python")) {
          for (const doc of pythonHeredocs(file.text)) {
            // Its calls (`emit_skip("tessl__x", ...)`, file writes) are the script's too, at the same lines.
            const py = analyseCode(parsers, "python", file.path, doc.text, { script: true });
            if (py.skips.length > 0 || py.ops.length > 0 || py.usesLibrary) {
              f = { ...f, skips: [...f.skips, ...py.skips], ops: [...f.ops, ...py.ops].sort((a, b) => a.line - b.line || a.column - b.column), strings: [...f.strings, ...py.strings], usesLibrary: f.usesLibrary || py.usesLibrary, mentionsSchemaVersion: f.mentionsSchemaVersion || py.mentionsSchemaVersion };
            }
          }
        }
        // In a shell test every quoted string is the test's own output, so each may name a pattern.
        return { facts: test ? { ...f, testNames: f.strings } : f };
      }
      case "bats":
        return { facts: analyseCode(parsers, "bats", file.path, file.text, { script: false }) };
      case "python":
      case "js":
        return { facts: analyseCode(parsers, file.language, file.path, file.text, { script: !test }) };
      case "markdown":
        return { facts: baseName(file.path) === "SKILL.md" ? analyseMarkdown(file.text, parsers) : EMPTY_FACTS };
      default:
        return { facts: EMPTY_FACTS };
    }
  } catch (error) {
    return { facts: EMPTY_FACTS, error: `could not be analysed (${(error as Error).message})` };
  }
}

/** The grammars a file will be parsed with; none for a file whose facts are found without a parser. */
export function grammarsFor(f: TileFile, test: boolean): Grammar[] {
  if (f.text === undefined) return [];
  if (f.language === "markdown") {
    if (baseName(f.path) !== "SKILL.md" || !RELEVANT.test(f.text)) return [];
    // Inline `skip-summary ...` spans are read as shell, so bash is always needed.
    return ["bash", ...f.text.matchAll(BLOCK)].map((m) => (typeof m === "string" ? (m as Grammar) : /^(py|python|python3)$/.test(m[1]!) ? "python" : /^(js|javascript|mjs)$/.test(m[1]!) ? "javascript" : /^(ts|typescript)$/.test(m[1]!) ? "typescript" : /^(jsx|tsx)$/.test(m[1]!) ? "tsx" : "bash"));
  }
  if (f.language !== "python" && f.language !== "js" && f.language !== "shell" && f.language !== "bats") return [];
  const language = f.language as CodeLanguage;
  const own: Grammar[] = needsParse(language, f.text, !test) ? [grammarOf(language, f.path)] : [];
  return language === "shell" && !test && pythonHeredocs(f.text).some((d) => needsParse("python", d.text, true)) ? [...own, "python"] : own;
}

/**
 * The facts of a code file that `grammarsFor` gives no grammar: what analyseFile finds for it (its text names nothing a
 * reader looks for), known without testing the text again. The rules ask for every script's facts after the parsing,
 * on the lint's own thread, so the load step hands these over (load-tile.ts). Undefined for any other file.
 */
export function factsWithoutParser(f: TileFile): CachedFacts | undefined {
  return f.text !== undefined && isCode(f.language) ? { facts: EMPTY_FACTS } : undefined;
}
