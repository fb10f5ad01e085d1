// Reads bash (and bats) with the tree-sitter grammar: commands, redirections and strings; comments and heredocs are not code.
import { FactsBuilder, SEND_NAME, type CodeFacts } from "./facts.js";
import { TEMP_MARK, UNKNOWN } from "./targets.js";
import { at, walk, type SyntaxNode } from "./tree-sitter.js";

const BATS_TEST = /^(\s*)@test\s+(["'])(.*?)\2\s*\{/gm;

/**
 * bats is bash plus `@test "name" {`: each such line becomes a function header of the same length, so the bash grammar
 * reads the body with unchanged positions; the names are returned as the tests' names.
 */
export function prepareBats(text: string): { text: string; names: { value: string; line: number; column: number }[] } {
  const names: { value: string; line: number; column: number }[] = [];
  const out = text.replace(BATS_TEST, (whole, indent: string, _q: string, name: string, offset: number) => {
    const line = text.slice(0, offset).split("\n").length;
    names.push({ value: name, line, column: indent.length + whole.slice(indent.length).indexOf(_q) + 1 });
    const header = `${indent}bats_t()`;
    return header + " ".repeat(Math.max(1, whole.length - header.length - 1)) + "{";
  });
  return { text: out, names };
}

/** A word's text as the shell would see it before expansion: quotes removed, `$x` and `$(...)` kept. */
export function wordValue(node: SyntaxNode): string {
  switch (node.type) {
    case "string":
      return node.text.slice(1, -1).replace(/\\(["\\$`])/g, "$1").replace(/\\\n/g, "");
    case "raw_string":
      return node.text.slice(1, -1);
    case "ansi_c_string":
      return node.text.slice(2, -1);
    case "concatenation":
      return node.children.map(wordValue).join("");
    default:
      return node.text.replace(/\\(.)/g, "$1");
  }
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

const SH_TYPES = new Set(["string", "raw_string", "heredoc_body", "variable_assignment", "for_statement", "file_redirect", "command"]);
const QUOTED = new Set(["string", "raw_string", "ansi_c_string"]);

export function analyseShellTree(root: SyntaxNode, options: { readonly testNames?: readonly { value: string; line: number; column: number }[] } = {}): CodeFacts {
  const facts = new FactsBuilder();
  facts.testNames.push(...(options.testNames ?? []));
  const vars = new Map<string, string>();
  walk(root, SH_TYPES, (node) => {
    switch (node.type) {
      case "string":
      case "raw_string":
        facts.string(wordValue(node), ...at(node));
        break;
      case "heredoc_body":
        node.text.split("\n").forEach((body, i) => {
          if (body !== "") facts.string(body, node.startPosition.row + 1 + i, 1);
        });
        return false;
      case "variable_assignment": {
        const name = node.childForFieldName("name")?.text;
        const value = node.childForFieldName("value");
        if (name) vars.set(name, value ? resolve(wordValue(value), vars) : "");
        break;
      }
      case "for_statement": {
        const name = node.childForFieldName("variable")?.text;
        const value = node.childrenForFieldName("value")[0];
        if (name && value) vars.set(name, resolve(wordValue(value), vars));
        break;
      }
      case "file_redirect": {
        const op = node.children.find((c) => !c.isNamed)?.text ?? "";
        const dest = node.childForFieldName("destination") ?? node.namedChildren.at(-1);
        if (dest && !(op.includes("&") && !op.startsWith("&")) && dest.type !== "file_descriptor") {
          facts.op(op === "<" ? "read" : "write", op, resolve(wordValue(dest), vars), ...at(dest));
        }
        break;
      }
      case "command":
        commandOps(node, vars, facts);
        break;
    }
    return true;
  });
  return facts.build();
}

/** Commands commandOps turns into ops (besides senders); any other command is passed over before its words are read. */
const OP_COMMANDS = new Set(["skip-summary", "npx", "pnpm", "yarn", "tee", "cp", "install", "dd", "mv", "rm", "unlink", "shred", "cat", "jq", "head", "tail", "less", "grep", "source", "."]);

function commandOps(command: SyntaxNode, vars: Map<string, string>, facts: FactsBuilder): void {
  const nameNode = command.childForFieldName("name");
  if (!nameNode) return;
  let name = wordValue(nameNode);
  const bare = name.slice(name.lastIndexOf("/") + 1);
  if (!OP_COMMANDS.has(bare) && !SEND_NAME.test(bare)) return;
  let args = command.childrenForFieldName("argument");
  if ((name === "npx" || name === "pnpm" || name === "yarn") && args.length > 0) {
    name = wordValue(args[0]!);
    args = args.slice(1);
  }
  const base = name.slice(name.lastIndexOf("/") + 1);
  const where = at(nameNode);
  const operands = args.filter((w) => !w.text.startsWith("-") || QUOTED.has(w.type));
  const targetOf = (w: SyntaxNode) => resolve(wordValue(w), vars);
  if (base === "skip-summary") {
    facts.usesLibrary = true;
    if (args[0] && wordValue(args[0]) === "emit") {
      const words = args.map(wordValue);
      const flag = words.findIndex((w) => w === "--skill" || w.startsWith("--skill="));
      const value = flag === -1 ? undefined : words[flag]!.startsWith("--skill=") ? words[flag]!.slice(8) : words[flag + 1];
      const skill = value === undefined ? undefined : resolve(value, vars);
      facts.op("emit", "skip-summary emit", "", ...where, skill !== undefined && !skill.includes(UNKNOWN) ? { skill } : {});
    }
    return;
  }
  switch (base) {
    case "tee":
      for (const w of operands) facts.op("write", base, targetOf(w), ...at(w));
      return;
    case "cp":
    case "install":
    case "dd": {
      const last = operands.at(-1);
      if (last) facts.op("write", base, targetOf(last).replace(/^of=/, ""), ...at(last));
      return;
    }
    case "mv": {
      const [src, dst] = operands.slice(-2);
      if (src && dst) facts.op("rename", base, targetOf(dst), ...at(dst), { source: targetOf(src) });
      return;
    }
    case "rm":
    case "unlink":
    case "shred":
      for (const w of operands) facts.op("delete", base, targetOf(w), ...at(w));
      return;
    case "cat":
    case "jq":
    case "head":
    case "tail":
    case "less":
    case "grep":
    case "source":
    case ".":
      for (const w of operands) facts.op("read", base, targetOf(w), ...at(w));
      return;
  }
  if (SEND_NAME.test(base)) facts.op("send", base, "", ...where);
}
