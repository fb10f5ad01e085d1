// Reads Python with the tree-sitter grammar: calls, imports, assignments and string literals; comments are not in the tree.
import { FactsBuilder, SEND_NAME, type CodeFacts } from "./facts.js";
import { TEMP_MARK, UNKNOWN } from "./targets.js";
import { at, walk, type SyntaxNode } from "./tree-sitter.js";

const PATH_FUNCS = /^(os\.path\.join|os\.path\.abspath|os\.path\.expanduser|os\.path\.realpath|join|Path|pathlib\.Path|PurePath|str|sorted|list|glob\.glob|glob\.iglob|glob|iglob|os\.fspath)$/;
const TEMP_FUNCS = /(mkstemp|mktemp|NamedTemporaryFile|mkdtemp|TemporaryDirectory|gettempdir)$/;

/** The value of a string literal; f-string fields are resolved through `vars` (unknown ones become `*`). */
export function pyString(node: SyntaxNode, vars?: ReadonlyMap<string, string>): string {
  let out = "";
  for (const c of node.namedChildren) {
    if (c.type === "string_content") out += c.text.replace(/\\(.)/gs, (_m, ch: string) => (ch === "n" ? "\n" : ch === "\n" ? "" : ch));
    else if (c.type === "escape_sequence") out += c.text === "\\n" ? "\n" : c.text.slice(1);
    else if (c.type === "interpolation") {
      const e = c.namedChildren[0];
      out += e?.type === "identifier" && vars ? vars.get(e.text) ?? UNKNOWN : UNKNOWN;
    }
  }
  return out;
}

/** `os.path.join` for an attribute chain of names, else "". */
export function dotted(node: SyntaxNode | null): string {
  if (!node) return "";
  if (node.type === "identifier") return node.text;
  if (node.type === "attribute") {
    const left = dotted(node.childForFieldName("object"));
    const name = node.childForFieldName("attribute")?.text ?? "";
    return left === "" ? "" : `${left}.${name}`;
  }
  return "";
}

export function callArgs(call: SyntaxNode): { positional: SyntaxNode[]; keyword: (name: string) => SyntaxNode | undefined } {
  const list = call.childForFieldName("arguments")?.namedChildren ?? [];
  const positional = list.filter((a) => a.type !== "keyword_argument" && a.type !== "comment");
  return {
    positional,
    keyword: (name) => list.find((a) => a.type === "keyword_argument" && a.childForFieldName("name")?.text === name)?.childForFieldName("value") ?? undefined,
  };
}

class Resolver {
  readonly vars = new Map<string, string>();

  resolve(node: SyntaxNode | null | undefined, depth = 0): string {
    if (!node || depth > 12) return UNKNOWN;
    switch (node.type) {
      case "string":
        return pyString(node, this.vars);
      case "concatenated_string":
        return node.namedChildren.map((c) => this.resolve(c, depth + 1)).join("");
      case "identifier":
        return this.vars.get(node.text) ?? UNKNOWN;
      case "parenthesized_expression":
        return this.resolve(node.namedChildren[0], depth + 1);
      case "binary_operator": {
        const op = node.childForFieldName("operator")?.text;
        const l = this.resolve(node.childForFieldName("left"), depth + 1);
        const r = this.resolve(node.childForFieldName("right"), depth + 1);
        return (op === "/" ? `${l}/${r}` : op === "+" ? l + r : UNKNOWN).replace(/\/+/g, "/");
      }
      case "call": {
        const fn = node.childForFieldName("function");
        const callee = dotted(fn) || (fn?.type === "attribute" ? `.${fn.childForFieldName("attribute")?.text}` : "");
        const last = callee.slice(callee.lastIndexOf(".") + 1);
        const args = callArgs(node).positional;
        if (TEMP_FUNCS.test(callee)) return TEMP_MARK;
        if (PATH_FUNCS.test(callee)) return args.map((a) => this.resolve(a, depth + 1)).join("/").replace(/\/+/g, "/");
        if (last === "glob" || last === "joinpath") return `${UNKNOWN}/${args.map((a) => this.resolve(a, depth + 1)).join("/")}`.replace(/\/+/g, "/");
        return UNKNOWN;
      }
      default:
        return UNKNOWN;
    }
  }
}

const PY_TYPES = new Set(["string", "import_statement", "import_from_statement", "assignment", "for_statement", "as_pattern", "call", "function_definition"]);
/** Identifiers are many; they are looked at only when the file has the one name that matters (schema_version). */
const PY_TYPES_WITH_NAMES = new Set([...PY_TYPES, "identifier"]);
/** The last name of every callee callFacts can turn into an op; any other call is passed over before its arguments are read. */
const OP_CALL = /^(open|remove|unlink|replace|rename|move|write_text|write_bytes|read_text|read_bytes|run|call|check_call|check_output|Popen|emit_skip|skip_and_exit|SkipCollector)$|send|notify/i;
/** This project's Python helper (python/skip_summary.py): `emit_skip(skill, ...)`, `skip_and_exit(skill, ...)`, `SkipCollector(skill)`. */
const HELPER_CALL = /^(skip_summary\.)?(emit_skip|skip_and_exit|SkipCollector)$/;

function isTestFunction(node: SyntaxNode): boolean {
  return node.type === "function_definition" && /^test/.test(node.childForFieldName("name")?.text ?? "");
}

export function analysePythonTree(root: SyntaxNode): CodeFacts {
  const facts = new FactsBuilder();
  const r = new Resolver();
  let testEnd = -1;
  walk(root, root.text.includes("schema_version") ? PY_TYPES_WITH_NAMES : PY_TYPES, (node) => {
    const test = node.startIndex < testEnd;
    if (!test && isTestFunction(node)) {
      testEnd = node.endIndex;
      const decorated = node.parent?.type === "decorated_definition" ? node.parent : undefined;
      for (const d of decorated?.namedChildren.filter((c) => c.type === "decorator") ?? []) {
        for (const s of d.descendantsOfType("string")) facts.testNames.push({ value: pyString(s), line: at(s)[0], column: at(s)[1] });
      }
      return;
    }
    switch (node.type) {
      case "string": {
        const lit = facts.string(pyString(node, r.vars), ...at(node));
        if (test) facts.testNames.push(lit);
        return false;
      }
      case "identifier":
        if (node.text === "schema_version") facts.mentionsSchemaVersion = true;
        return;
      case "import_statement":
      case "import_from_statement":
        if (/\bskip_summary\b/.test(node.text)) facts.usesLibrary = true;
        return false;
      case "assignment": {
        const left = node.childForFieldName("left");
        if (left?.type === "identifier") r.vars.set(left.text, r.resolve(node.childForFieldName("right")));
        return;
      }
      case "for_statement": {
        const left = node.childForFieldName("left");
        if (left?.type === "identifier") r.vars.set(left.text, r.resolve(node.childForFieldName("right")));
        return;
      }
      case "as_pattern": {
        const target = node.childForFieldName("alias")?.namedChildren[0] ?? node.childForFieldName("alias");
        if (target?.type === "identifier") r.vars.set(target.text, r.resolve(node.namedChildren[0]));
        return;
      }
      case "call":
        callFacts(node, r, facts);
        return;
    }
  });
  return facts.build();
}

function callFacts(call: SyntaxNode, r: Resolver, facts: FactsBuilder): void {
  const fn = call.childForFieldName("function");
  if (!fn) return;
  const text = fn.text;
  if (!OP_CALL.test(text.slice(text.lastIndexOf(".") + 1).trim())) return;
  const q = dotted(fn);
  const method = fn.type === "attribute" ? `.${fn.childForFieldName("attribute")?.text ?? ""}` : undefined;
  const nameNode = fn.type === "attribute" ? fn.childForFieldName("attribute")! : fn;
  const name = nameNode.text;
  const where = at(nameNode);
  const { positional, keyword } = callArgs(call);
  const arg = (n: number) => (positional[n] ? r.resolve(positional[n]) : "");
  const receiver = () => r.resolve(fn.childForFieldName("object"));
  if (q === "open" || q === "io.open") {
    const mode = positional[1] ?? keyword("mode");
    const modeText = mode?.type === "string" ? pyString(mode) : "r";
    facts.op(/[wax+]/.test(modeText) ? "write" : "read", "open", arg(0), ...where);
  } else if (/^(os\.(remove|unlink))$/.test(q)) facts.op("delete", q, arg(0), ...where);
  else if (/^(os\.(replace|rename)|shutil\.move)$/.test(q)) facts.op("rename", q, arg(1), ...where, { source: arg(0) });
  else if (method === ".write_text" || method === ".write_bytes") facts.op("write", q || name, receiver(), ...where);
  else if (method === ".read_text" || method === ".read_bytes" || method === ".open") facts.op("read", q || name, receiver(), ...where);
  else if (method === ".unlink") facts.op("delete", q || name, receiver(), ...where);
  else if ((method === ".replace" || method === ".rename") && positional.length === 1) {
    const src = receiver();
    if (src.includes(".skip-summary-") || src.includes(TEMP_MARK)) facts.op("rename", q || name, arg(0), ...where, { source: src });
  } else if (HELPER_CALL.test(q)) {
    // The helper's first parameter is the skill id, positional or `skill=`: the same mistake as `--skill` in bash.
    facts.usesLibrary = true;
    const id = positional[0] ?? keyword("skill");
    const skill = id ? r.resolve(id) : "";
    facts.op("emit", q, "", ...where, skill !== "" && !skill.includes(UNKNOWN) ? { skill } : {});
  } else if (/^(subprocess\.)?(run|call|check_call|check_output|Popen)$/.test(q)) {
    const list = positional[0];
    const words = list?.type === "list" ? list.namedChildren.filter((x) => x.type === "string").map((x) => pyString(x)) : list?.type === "string" ? [pyString(list)] : [];
    const cmd = words.length === 1 ? words[0]!.split(/\s+/) : words;
    const at0 = cmd.findIndex((w) => w.endsWith("skip-summary"));
    if (at0 !== -1) {
      facts.usesLibrary = true;
      if (cmd[at0 + 1] === "emit") {
        const flag = cmd.indexOf("--skill");
        const skill = flag === -1 ? undefined : cmd[flag + 1];
        facts.op("emit", "skip-summary emit", "", ...where, skill ? { skill } : {});
      }
    }
  } else if (SEND_NAME.test(name)) facts.op("send", q || name, "", ...where);
}
