// One entry point per file: pick the grammar, parse once, and read both the file facts and the silent-skip evidence.
import { pythonSkips } from "../skips/python-skips.js";
import { shellSkips } from "../skips/shell-skips.js";
import { jsSkips } from "../skips/js-skips.js";
import { EMPTY_FACTS, writesSkipSummary, type CodeFacts } from "./facts.js";
import { analyseJsTree } from "./js.js";
import { analysePythonTree } from "./python.js";
import { analyseShellTree, prepareBats } from "./shell.js";
import { jsGrammar, type Grammar, type Parsers } from "./tree-sitter.js";
import type { Language } from "../tile/classify-path.js";

export type CodeLanguage = "python" | "shell" | "bats" | "js";

/**
 * A file that names none of these can hold nothing the summary checks look for (no summary path, no emit, no pattern
 * reference): its facts are empty and most scripts of a large tile are never parsed for them.
 */
export const RELEVANT = /skip-summary|skipAndExit|emitSkip|createSkipCollector|no-silent-defer\/|readSummaryFile|classifySummary|skip_summary/;

/** Words without which a file has none of the silent-skip shapes (a loop's failure branch, a budget stop, a catch-all). */
const SKIP_SHAPES: Readonly<Record<CodeLanguage, RegExp>> = {
  python: /\bexcept\b|\bcontinue\b|\bbreak\b|=\s*\[\]|verified|checked|validated|confirmed_at|status|\[0?:\s*\w|\[-\s*\w+\s*:\]|\bexit\(|which\(|returncode\s*!=|\bcode\s*!=|\.bozo\b|\bos\.system\(|returncode\s*==\s*0\b|\bnot\s+[\w.]*(?:[Tt]oken|TOKEN|[Kk]ey|KEY|[Ss]ecret|SECRET|[Pp]assw|PASSW|[Cc]ookie|COOKIE|[Cc]redential|CREDENTIAL)/,
  // The last line an echo: a run that may end on a message after work whose status nothing read (uncheckedThenDone).
  shell: /\bcontinue\b|\bbreak\b|\btrap\b|\bexit\b|\|\||\bhead\b|\belse\b|\bif\s+!|-ne\s+"?0|\n[ \t]*(?:echo|printf)\b[^\n]*\s*$/,
  bats: /(?!)/,
  js: /\bcatch\b|\bcontinue\b|\bbreak\b|\.slice\(\s*0\s*,|process\.exit/,
};

/** The grammar a file of this language is read with (anything not Python or JS/TS: bash, as SKILL.md's inline commands). */
export function grammarOf(language: Language, fileName: string): Grammar {
  return language === "python" ? "python" : language === "js" ? jsGrammar(fileName) : "bash";
}

/** Whether the file needs a parser at all: for its facts, or (scripts only) for silent-skip shapes. */
export function needsParse(language: CodeLanguage, text: string, script: boolean): boolean {
  return RELEVANT.test(text) || (script && SKIP_SHAPES[language].test(text));
}

/**
 * This project's Python helper vendored into a tile (`skip-summary helper python > scripts/skip_summary.py`, or an
 * edited copy): it defines the writer rather than using it, so its own strings and file ops say nothing about the
 * skill. A skill that calls it is seen at the call (`emit_skip(...)`); one that only carries it is unchanged.
 */
export function isVendoredHelper(language: CodeLanguage, source: string): boolean {
  return language === "python" && /^def emit_skip\(/m.test(source) && /^class SkipCollector\b/m.test(source) && /^SUMMARY_FILE_PREFIX = /m.test(source);
}

export function analyseCode(parsers: Parsers, language: CodeLanguage, fileName: string, source: string, options: { readonly script: boolean }): CodeFacts {
  if (isVendoredHelper(language, source)) return EMPTY_FACTS;
  const wantFacts = RELEVANT.test(source);
  const wantSkips = options.script && SKIP_SHAPES[language].test(source);
  if (!wantFacts && !wantSkips) return EMPTY_FACTS;
  const bats = language === "bats" ? prepareBats(source) : undefined;
  const grammar = grammarOf(language, fileName);
  return parsers.parse(grammar, bats?.text ?? source, (root) => {
    const facts = wantFacts
      ? language === "python"
        ? analysePythonTree(root)
        : language === "js"
          ? analyseJsTree(root)
          : analyseShellTree(root, bats ? { testNames: bats.names } : {})
      : EMPTY_FACTS;
    // A script that writes a skip summary tells the owner itself (the rule ignores its skips), so they are not looked for.
    if (!wantSkips || writesSkipSummary(facts)) return facts;
    const skips = language === "python" ? pythonSkips(root) : language === "js" ? jsSkips(root) : shellSkips(root);
    return { ...facts, skips };
  });
}
