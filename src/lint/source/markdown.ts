// A SKILL.md is code too: its fenced bash/Python/JS blocks and inline `skip-summary ...` spans are what the agent runs.
import { analyseCode } from "./analyse.js";
import { EMPTY_FACTS, type CodeFacts, type Op, type StringLit } from "./facts.js";
import type { Parsers } from "./tree-sitter.js";

const FENCE = /^(\s*)(```+|~~~+)\s*([\w+-]*)/;
const SHELL = new Set(["sh", "bash", "shell", "zsh", "console", "shell-session"]);
const PYTHON = new Set(["py", "python", "python3"]);
const JS = new Set(["js", "javascript", "mjs", "ts", "typescript", "jsx", "tsx"]);

/** The facts of every code block and inline command, with lines and columns of the markdown file. */
export function analyseMarkdown(text: string, parsers: Parsers): CodeFacts {
  const code = (language: "shell" | "python" | "js", name: string, body: string) => analyseCode(parsers, language, name, body, { script: false });
  const lines = text.split("\n");
  const parts: { facts: CodeFacts; line: number; column: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (open) {
      const fence = open[2]!;
      const lang = open[3]!.toLowerCase();
      let end = i + 1;
      while (end < lines.length && !lines[end]!.trimStart().startsWith(fence)) end++;
      const body = lines.slice(i + 1, end).join("\n");
      const facts = SHELL.has(lang) ? code("shell", "block.sh", body.replace(/^\s*\$ /gm, "")) : PYTHON.has(lang) ? code("python", "block.py", body) : JS.has(lang) ? code("js", `block.${lang === "typescript" ? "ts" : lang}`, body) : undefined;
      if (facts) parts.push({ facts, line: i + 1, column: 0 });
      i = end;
      continue;
    }
    for (const span of lines[i]!.matchAll(/`([^`\n]*skip-summary[^`\n]*)`/g)) {
      parts.push({ facts: code("shell", "span.sh", span[1]!), line: i, column: span.index! + 1 });
    }
  }
  if (parts.length === 0) return EMPTY_FACTS;
  const shift = <T extends { line: number; column: number }>(x: T, p: { line: number; column: number }): T => ({ ...x, line: x.line + p.line, column: x.line === 1 ? x.column + p.column : x.column });
  const ops: Op[] = [];
  const strings: StringLit[] = [];
  let usesLibrary = false;
  let mentionsSchemaVersion = false;
  for (const p of parts) {
    ops.push(...p.facts.ops.map((o) => shift(o, p)));
    strings.push(...p.facts.strings.map((s) => shift(s, p)));
    usesLibrary ||= p.facts.usesLibrary;
    mentionsSchemaVersion ||= p.facts.mentionsSchemaVersion;
  }
  ops.sort((a, b) => a.line - b.line || a.column - b.column);
  return { ops, strings, testNames: [], usesLibrary, mentionsSchemaVersion, skips: [] };
}
