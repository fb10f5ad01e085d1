// Reads bash (and bats) by words, with quotes, comments and heredocs handled, so a `#` or `>` inside a string is not code.
import { FactsBuilder, SEND_NAME, type CodeFacts } from "./facts.js";
import { TEMP_MARK, UNKNOWN } from "./targets.js";

interface Word {
  readonly raw: string;
  readonly quoted: boolean;
  readonly line: number;
  readonly column: number;
}

interface Command {
  readonly words: Word[];
  readonly redirects: { op: string; target: Word }[];
}

const SEPARATORS = new Set([";", "&", "|", "(", ")", "\n"]);
const KEYWORDS = new Set(["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "time", "exec", "command", "sudo", "{", "}", "then", "esac", "in"]);

/** Splits shell text into simple commands; quoted words and heredoc bodies are also recorded as strings. */
function lex(text: string, facts: FactsBuilder, bats: boolean, firstLine = 1, firstColumn = 1): Command[] {
  const commands: Command[] = [];
  // Commands inside `$(...)` are commands too (`body=$(cat "$f")` reads a file); their positions are shifted.
  const substitution = (open: number, end: number) => {
    const inner = text.slice(open + 1, end);
    const column = open + 1 - lineStart + 1;
    commands.push(...lex(inner, facts, false, line, column));
  };
  let words: Word[] = [];
  let redirects: Command["redirects"] = [];
  let pendingRedirect: string | undefined;
  const heredocs: { delim: string; strip: boolean }[] = [];
  let i = 0;
  let line = firstLine;
  let lineStart = 1 - firstColumn;

  const endCommand = () => {
    if (words.length > 0 || redirects.length > 0) commands.push({ words, redirects });
    words = [];
    redirects = [];
    pendingRedirect = undefined;
  };
  const pushWord = (w: Word) => {
    if (pendingRedirect !== undefined) {
      redirects.push({ op: pendingRedirect, target: w });
      pendingRedirect = undefined;
    } else words.push(w);
  };

  while (i < text.length) {
    const c = text[i]!;
    if (c === "\n") {
      endCommand();
      i++;
      line++;
      lineStart = i;
      // Heredoc bodies are data, never code: each line is a string until the delimiter.
      for (const h of heredocs.splice(0)) {
        while (i < text.length) {
          const end = text.indexOf("\n", i);
          const body = text.slice(i, end === -1 ? text.length : end);
          const bodyLine = line;
          i = end === -1 ? text.length : end + 1;
          line++;
          lineStart = i;
          if ((h.strip ? body.replace(/^\t+/, "") : body) === h.delim) break;
          facts.string(body, bodyLine, 1);
        }
      }
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "\\" && text[i + 1] === "\n") {
      i += 2;
      line++;
      lineStart = i;
      continue;
    }
    if (c === "#") {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (c === "<" && text[i + 1] === "<" && text[i + 2] !== "<") {
      const m = /^<<(-?)\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2/.exec(text.slice(i));
      if (m) {
        heredocs.push({ delim: m[3]!, strip: m[1] === "-" });
        i += m[0].length;
        continue;
      }
    }
    if (c === ">" || c === "<" || (c === "&" && text[i + 1] === ">")) {
      const m = /^(&>>?|>>?\|?|<)/.exec(text.slice(i))!;
      pendingRedirect = m[0];
      i += m[0].length;
      if (text[i] === "&") {
        // `2>&1`: a descriptor, not a file.
        while (i < text.length && /[&\d-]/.test(text[i]!)) i++;
        pendingRedirect = undefined;
      }
      continue;
    }
    if (SEPARATORS.has(c)) {
      endCommand();
      i++;
      continue;
    }
    // A word: runs until unquoted whitespace or an operator.
    const startLine = line;
    const startCol = i - lineStart + 1;
    let raw = "";
    let quoted = false;
    while (i < text.length) {
      const d = text[i]!;
      if (d === "'") {
        const end = text.indexOf("'", i + 1);
        const stop = end === -1 ? text.length : end;
        const value = text.slice(i + 1, stop);
        facts.string(value, line, i - lineStart + 1);
        for (const ch of value) if (ch === "\n") line++;
        raw += value;
        quoted = true;
        i = stop + 1;
        if (value.includes("\n")) lineStart = text.lastIndexOf("\n", stop) + 1;
      } else if (d === '"') {
        let j = i + 1;
        let value = "";
        const col = i - lineStart + 1;
        const valueLine = line;
        while (j < text.length && text[j] !== '"') {
          if (text[j] === "\\" && j + 1 < text.length) {
            value += text[j + 1] === "\n" ? "" : text[j + 1];
            j += 2;
            continue;
          }
          if (text[j] === "$" && text[j + 1] === "(") {
            const end = matchParen(text, j + 1);
            substitution(j + 1, end);
            value += text.slice(j, end + 1);
            j = end + 1;
            continue;
          }
          if (text[j] === "\n") {
            line++;
            lineStart = j + 1;
          }
          value += text[j];
          j++;
        }
        facts.string(value, valueLine, col);
        raw += value;
        quoted = true;
        i = j + 1;
      } else if (d === "$" && text[i + 1] === "(") {
        const end = matchParen(text, i + 1);
        substitution(i + 1, end);
        raw += text.slice(i, end + 1);
        i = end + 1;
      } else if (d === "\\" && i + 1 < text.length) {
        raw += text[i + 1];
        i += 2;
      } else if (/[\s;&|()<>]/.test(d)) {
        break;
      } else {
        raw += d;
        i++;
      }
    }
    pushWord({ raw, quoted, line: startLine, column: startCol });
    if (bats && words.length === 2 && words[0]!.raw === "@test" && quoted) facts.testNames.push({ value: raw, line: startLine, column: startCol });
  }
  endCommand();
  return commands;
}

function matchParen(text: string, open: number): number {
  let depth = 0;
  for (let j = open; j < text.length; j++) {
    if (text[j] === "(") depth++;
    else if (text[j] === ")" && --depth === 0) return j;
  }
  return text.length - 1;
}

/** Substitutes variables whose literal value is known; temp-file commands become {@link TEMP_MARK}. */
function resolve(raw: string, vars: Map<string, string>, depth = 0): string {
  return raw
    .replace(/\$\(\s*mktemp\b[^)]*\)|`\s*mktemp\b[^`]*`/g, TEMP_MARK)
    .replace(/\$\([^)]*\)|`[^`]*`/g, UNKNOWN)
    .replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}|\$([A-Za-z_][A-Za-z0-9_]*)|\$[$!#?@*0-9]/g, (_m, a?: string, b?: string) => {
      const value = vars.get((a ?? b) as string);
      return value === undefined || depth > 4 ? UNKNOWN : resolve(value, vars, depth + 1);
    });
}

export function analyseShell(text: string, options: { readonly bats?: boolean; readonly test?: boolean } = {}): CodeFacts {
  const facts = new FactsBuilder();
  const commands = lex(text, facts, options.bats ?? false);
  const vars = new Map<string, string>();
  for (const command of commands) {
    let words = command.words;
    // Leading assignments (and `local`/`export`) give variables a value; the rest is the command.
    while (words.length > 0) {
      const w = words[0]!;
      if (KEYWORDS.has(w.raw) && !w.quoted) words = words.slice(1);
      else if (/^(local|export|readonly|declare|typeset)$/.test(w.raw)) words = words.slice(1).filter((x) => !x.raw.startsWith("-"));
      else break;
    }
    while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!.raw)) {
      const [name, ...value] = words[0]!.raw.split("=");
      vars.set(name!, resolve(value.join("="), vars));
      words = words.slice(1);
    }
    if (words[0]?.raw === "for" && words[2]?.raw === "in" && words[3]) vars.set(words[1]!.raw, resolve(words[3].raw, vars));
    for (const r of command.redirects) {
      const target = resolve(r.target.raw, vars);
      facts.op(r.op === "<" ? "read" : "write", r.op, target, r.target.line, r.target.column);
    }
    if (words.length === 0 || words[0]!.raw === "for") continue;
    commandOps(words, vars, facts);
  }
  return facts.build();
}

function commandOps(words: Word[], vars: Map<string, string>, facts: FactsBuilder): void {
  let name = words[0]!.raw;
  let args = words.slice(1);
  if ((name === "npx" || name === "pnpm" || name === "yarn") && args.length > 0) {
    name = args[0]!.raw;
    args = args.slice(1);
  }
  const base = name.slice(name.lastIndexOf("/") + 1);
  const at = words[0]!;
  const operands = args.filter((w) => !w.raw.startsWith("-") || w.quoted);
  const targetOf = (w: Word) => resolve(w.raw, vars);
  if (base === "skip-summary") {
    facts.usesLibrary = true;
    if (args[0]?.raw === "emit") {
      const flag = args.findIndex((w) => w.raw === "--skill" || w.raw.startsWith("--skill="));
      const value = flag === -1 ? undefined : args[flag]!.raw.startsWith("--skill=") ? args[flag]!.raw.slice(8) : args[flag + 1]?.raw;
      const skill = value === undefined ? undefined : resolve(value, vars);
      facts.op("emit", "skip-summary emit", "", at.line, at.column, skill !== undefined && !skill.includes(UNKNOWN) ? { skill } : {});
    }
    return;
  }
  switch (base) {
    case "tee":
      for (const w of operands) facts.op("write", base, targetOf(w), w.line, w.column);
      return;
    case "cp":
    case "install":
    case "dd": {
      const last = operands.at(-1);
      if (last) facts.op("write", base, targetOf(last).replace(/^of=/, ""), last.line, last.column);
      return;
    }
    case "mv": {
      const [src, dst] = operands.slice(-2);
      if (src && dst) facts.op("rename", base, targetOf(dst), dst.line, dst.column, { source: targetOf(src) });
      return;
    }
    case "rm":
    case "unlink":
    case "shred":
      for (const w of operands) facts.op("delete", base, targetOf(w), w.line, w.column);
      return;
    case "cat":
    case "jq":
    case "head":
    case "tail":
    case "less":
    case "grep":
    case "source":
    case ".":
      for (const w of operands) facts.op("read", base, targetOf(w), w.line, w.column);
      return;
  }
  if (SEND_NAME.test(base)) facts.op("send", base, "", at.line, at.column);
}
