// Reads Python by tokens (strings with every prefix and triple quotes, comments, brackets), then by logical lines.
import { FactsBuilder, SEND_NAME, type CodeFacts } from "./facts.js";
import { TEMP_MARK, UNKNOWN } from "./targets.js";

interface Token {
  readonly kind: "name" | "string" | "op" | "number";
  readonly text: string;
  /** For strings: the value without quotes and prefix. */
  readonly value: string;
  readonly fstring: boolean;
  readonly line: number;
  readonly column: number;
}

interface LogicalLine {
  readonly indent: number;
  readonly tokens: Token[];
}

const STRING_START = /^([rRbBuUfF]{0,2})('''|"""|'|")/;

function tokenize(text: string): LogicalLine[] {
  const lines: LogicalLine[] = [];
  let tokens: Token[] = [];
  let depth = 0;
  let indent = 0;
  let atLineStart = true;
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const flush = () => {
    if (tokens.length > 0) lines.push({ indent, tokens });
    tokens = [];
  };
  while (i < text.length) {
    const c = text[i]!;
    if (atLineStart) {
      let j = i;
      while (text[j] === " " || text[j] === "\t") j++;
      indent = j - i;
      atLineStart = false;
      i = j;
      continue;
    }
    if (c === "\n") {
      if (depth === 0) {
        flush();
        atLineStart = true;
      }
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (c === "#") {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (c === "\\" && text[i + 1] === "\n") {
      i += 2;
      line++;
      lineStart = i;
      continue;
    }
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const s = STRING_START.exec(text.slice(i, i + 5));
    if (s && (s[1] !== "" || c === "'" || c === '"')) {
      const quote = s[2]!;
      const raw = s[1]!.toLowerCase().includes("r");
      let j = i + s[0].length;
      let value = "";
      const startLine = line;
      const column = i - lineStart + 1;
      while (j < text.length && !text.startsWith(quote, j)) {
        if (text[j] === "\\" && !raw) {
          value += text[j + 1] ?? "";
          if (text[j + 1] === "\n") {
            line++;
            lineStart = j + 2;
          }
          j += 2;
          continue;
        }
        if (text[j] === "\n") {
          if (quote.length === 1) break;
          line++;
          lineStart = j + 1;
        }
        value += text[j];
        j++;
      }
      tokens.push({ kind: "string", text: text.slice(i, j + quote.length), value, fstring: /f/i.test(s[1]!), line: startLine, column });
      i = j + quote.length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i, i + 200));
    if (name) {
      tokens.push({ kind: "name", text: name[0], value: name[0], fstring: false, line, column: i - lineStart + 1 });
      i += name[0].length;
      continue;
    }
    const num = /^\d[\d_.eExXa-fA-F]*/.exec(text.slice(i, i + 50));
    if (num) {
      tokens.push({ kind: "number", text: num[0], value: num[0], fstring: false, line, column: i - lineStart + 1 });
      i += num[0].length;
      continue;
    }
    const op = /^(==|!=|<=|>=|\*\*|\/\/|->|:=|[-+*/%=<>()[\]{}.,:;@&|^~])/.exec(text.slice(i, i + 2));
    const t = op ? op[0] : c;
    if (t === "(" || t === "[" || t === "{") depth++;
    if (t === ")" || t === "]" || t === "}") depth = Math.max(0, depth - 1);
    tokens.push({ kind: "op", text: t, value: t, fstring: false, line, column: i - lineStart + 1 });
    i += t.length;
  }
  flush();
  return lines;
}

/** The index just past the bracket that closes the one at `open`. */
function closeOf(tokens: Token[], open: number): number {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    const t = tokens[j]!.text;
    if (t === "(" || t === "[" || t === "{") depth++;
    else if ((t === ")" || t === "]" || t === "}") && --depth === 0) return j + 1;
  }
  return tokens.length;
}

function splitArgs(tokens: Token[]): Token[][] {
  const args: Token[][] = [];
  let current: Token[] = [];
  let depth = 0;
  for (const t of tokens) {
    if (t.text === "(" || t.text === "[" || t.text === "{") depth++;
    if (t.text === ")" || t.text === "]" || t.text === "}") depth--;
    if (t.text === "," && depth === 0) {
      args.push(current);
      current = [];
    } else current.push(t);
  }
  if (current.length > 0) args.push(current);
  return args;
}

const PATH_FUNCS = /^(os\.path\.join|os\.path\.abspath|os\.path\.expanduser|os\.path\.realpath|join|Path|pathlib\.Path|PurePath|str|sorted|list|glob\.glob|glob\.iglob|glob|iglob|os\.fspath)$/;
const TEMP_FUNCS = /(mkstemp|mktemp|NamedTemporaryFile|mkdtemp|TemporaryDirectory|gettempdir)$/;

class PythonReader {
  readonly vars = new Map<string, string>();

  /** Resolves an expression's tokens to path text: literals kept, known variables substituted, the rest `*`. */
  resolve(tokens: Token[]): string {
    let out = "";
    let i = 0;
    while (i < tokens.length) {
      const t = tokens[i]!;
      if (t.kind === "string") {
        out += t.fstring ? t.value.replace(/\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}|\{[^}]*\}/g, (_m, n?: string) => (n ? this.vars.get(n) ?? UNKNOWN : UNKNOWN)) : t.value;
        i++;
        continue;
      }
      if (t.kind === "name") {
        let j = i;
        let callee = t.text;
        while (tokens[j + 1]?.text === "." && tokens[j + 2]?.kind === "name") {
          callee += `.${tokens[j + 2]!.text}`;
          j += 2;
        }
        if (tokens[j + 1]?.text === "(") {
          const end = closeOf(tokens, j + 1);
          const args = splitArgs(tokens.slice(j + 2, end - 1)).filter((a) => !(a[1]?.text === "=" && a[0]?.kind === "name"));
          const last = callee.slice(callee.lastIndexOf(".") + 1);
          if (TEMP_FUNCS.test(callee)) out += TEMP_MARK;
          else if (PATH_FUNCS.test(callee)) out += args.map((a) => this.resolve(a)).join("/");
          else if (last === "glob" || last === "joinpath") out += `${UNKNOWN}/${args.map((a) => this.resolve(a)).join("/")}`;
          else out += UNKNOWN;
          i = end;
          continue;
        }
        out += j === i ? this.vars.get(t.text) ?? UNKNOWN : UNKNOWN;
        i = j + 1;
        continue;
      }
      // A subscript (`os.environ["WS"]`, `sys.argv[1]`) is one unknown part; its key is not part of the path.
      if (t.text === "[") {
        if (!out.endsWith(UNKNOWN)) out += UNKNOWN;
        i = closeOf(tokens, i);
        continue;
      }
      if (t.text === "/") out += "/";
      else if (t.text !== "+" && t.text !== "(" && t.text !== ")") out += UNKNOWN;
      i++;
    }
    return out.replace(/\/+/g, "/");
  }
}

export function analysePython(text: string): CodeFacts {
  const facts = new FactsBuilder();
  const reader = new PythonReader();
  const lines = tokenize(text);
  let testIndent: number | undefined;
  let decorators: Token[] = [];
  for (const { indent, tokens } of lines) {
    if (testIndent !== undefined && indent <= testIndent) testIndent = undefined;
    const first = tokens[0]!;
    if (first.text === "@") decorators.push(...tokens);
    else {
      if ((first.text === "def" || (first.text === "async" && tokens[1]?.text === "def")) && testIndent === undefined) {
        const name = tokens[first.text === "def" ? 1 : 2]?.text ?? "";
        if (/^test/.test(name)) {
          testIndent = indent;
          for (const d of decorators) if (d.kind === "string") facts.testNames.push({ value: d.value, line: d.line, column: d.column });
        }
      }
      decorators = [];
    }
    for (const t of tokens) {
      if (t.kind === "string") {
        const lit = facts.string(t.value, t.line, t.column);
        if (testIndent !== undefined) facts.testNames.push(lit);
      } else if (t.text === "schema_version") facts.mentionsSchemaVersion = true;
    }
    lineFacts(tokens, reader, facts);
  }
  return facts.build();
}

function lineFacts(tokens: Token[], reader: PythonReader, facts: FactsBuilder): void {
  const first = tokens[0]!;
  if (first.kind === "name" && tokens[1]?.text === "=") reader.vars.set(first.text, reader.resolve(tokens.slice(2)));
  if (first.text === "for") {
    const inAt = tokens.findIndex((t) => t.text === "in");
    if (inAt === 2 && tokens[1]!.kind === "name") reader.vars.set(tokens[1]!.text, reader.resolve(tokens.slice(3, tokens.length - 1)));
  }
  if (first.text === "with" || first.text === "async") {
    const asAt = tokens.findIndex((t) => t.text === "as");
    if (asAt > 0 && tokens[asAt + 1]?.kind === "name") reader.vars.set(tokens[asAt + 1]!.text, reader.resolve(tokens.slice(1, asAt)));
  }
  if ((first.text === "import" || first.text === "from") && tokens.some((t) => t.text === "skip_summary")) facts.usesLibrary = true;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== "name" || tokens[i + 1]?.text !== "(" || tokens[i - 1]?.text === "def") continue;
    const receiverEnd = tokens[i - 1]?.text === "." ? i - 1 : i;
    const q = qualified(tokens, i);
    const method = tokens[i - 1]?.text === "." ? `.${t.text}` : undefined;
    const end = closeOf(tokens, i + 1);
    const args = splitArgs(tokens.slice(i + 2, end - 1));
    const positional = args.filter((a) => !(a[1]?.text === "=" && a[0]?.kind === "name"));
    const keyword = (k: string) => args.find((a) => a[0]?.text === k && a[1]?.text === "=")?.slice(2);
    const arg = (n: number) => (positional[n] ? reader.resolve(positional[n]!) : "");
    const receiver = () => reader.resolve(receiverTokens(tokens, receiverEnd));
    const name = t.text;
    const at = [t.line, t.column] as const;
    if (q === "open" || q === "io.open") {
      const mode = positional[1] ?? keyword("mode");
      const modeText = mode?.[0]?.kind === "string" ? mode[0].value : "r";
      facts.op(/[wax+]/.test(modeText) ? "write" : "read", "open", arg(0), ...at);
    } else if (/^(os\.(remove|unlink))$/.test(q)) facts.op("delete", q, arg(0), ...at);
    else if (/^(os\.(replace|rename)|shutil\.move)$/.test(q)) facts.op("rename", q, arg(1), ...at, { source: arg(0) });
    else if (method === ".write_text" || method === ".write_bytes") facts.op("write", q, receiver(), ...at);
    else if (method === ".read_text" || method === ".read_bytes" || method === ".open") facts.op("read", q, receiver(), ...at);
    else if (method === ".unlink") facts.op("delete", q, receiver(), ...at);
    else if ((method === ".replace" || method === ".rename") && positional.length === 1) {
      const src = receiver();
      if (src.includes(".skip-summary-") || src.includes(TEMP_MARK)) facts.op("rename", q, arg(0), ...at, { source: src });
    } else if (/^(subprocess\.)?(run|call|check_call|check_output|Popen)$/.test(q)) {
      const list = positional[0] ?? [];
      const words = list.filter((x) => x.kind === "string").map((x) => x.value);
      const cmd = words.length === 1 ? words[0]!.split(/\s+/) : words;
      const at0 = cmd.findIndex((w) => w.endsWith("skip-summary"));
      if (at0 !== -1) {
        facts.usesLibrary = true;
        if (cmd[at0 + 1] === "emit") {
          const flag = cmd.indexOf("--skill");
          const skill = flag === -1 ? undefined : cmd[flag + 1];
          facts.op("emit", "skip-summary emit", "", ...at, skill ? { skill } : {});
        }
      }
    } else if (SEND_NAME.test(name)) facts.op("send", q, "", ...at);
  }
}

function qualified(tokens: Token[], i: number): string {
  let name = tokens[i]!.text;
  let j = i;
  while (tokens[j - 1]?.text === "." && tokens[j - 2]?.kind === "name") {
    name = `${tokens[j - 2]!.text}.${name}`;
    j -= 2;
  }
  return name;
}

/** The tokens of the expression before `.method(`: a name chain or a call such as `Path(x)`. */
function receiverTokens(tokens: Token[], dot: number): Token[] {
  let j = dot - 1;
  let depth = 0;
  while (j >= 0) {
    const t = tokens[j]!.text;
    if (t === ")" || t === "]") depth++;
    else if (t === "(" || t === "[") {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && tokens[j]!.kind === "op" && t !== "." && t !== "/") break;
    j--;
  }
  return tokens.slice(j + 1, dot);
}
