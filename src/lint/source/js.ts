// Reads JavaScript and TypeScript with the tree-sitter grammars: calls, imports and literals, never comments.
import { FactsBuilder, SEND_NAME, type CodeFacts } from "./facts.js";
import { TEMP_MARK, UNKNOWN } from "./targets.js";
import { at, walk, type SyntaxNode } from "./tree-sitter.js";

const WRITE = /^(writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|outputFile|outputFileSync|outputJson|outputJsonSync|writeJson|writeJsonSync|writeJSON)$/;
const ATOMIC_WRITE = /^(writeFileAtomic|writeFileAtomically|writeFileAtomicSync)$/;
const RENAME = /^(rename|renameSync|move|moveSync)$/;
const DELETE = /^(rm|rmSync|unlink|unlinkSync|remove|removeSync)$/;
const READ = /^(readFile|readFileSync|createReadStream|readJson|readJsonSync|readJSON|readSummaryFile)$/;
const EMIT = /^(emitSkip|skipAndExit|createSkipCollector)$/;
const VERSION_AWARE = /^(readSummaryFile|classifySummary|classifySummaryText|classifySummaryBytes)$/;
const PATH_FUNCS = /^(join|resolve|normalize|fileURLToPath)$/;
const TEMP_FUNCS = /^(tmpdir|mkdtemp|mkdtempSync|tmpName|tmpNameSync|tempfile)$/;
const TEST_CALLS = new Set(["it", "test", "describe", "suite", "context", "specify"]);
const SPAWN = /^(execFile|execFileSync|spawn|spawnSync|execa|execaSync)$/;
const EXEC = /^(exec|execSync|execaCommand|execaCommandSync)$/;
const JS_TYPES = new Set(["import_statement", "variable_declarator", "string", "template_string", "identifier", "property_identifier", "shorthand_property_identifier", "call_expression", "new_expression"]);
/** The node types of a JS/TS function in the tree-sitter grammars: what the silent-skip readers mean by "its function". */
export const JS_FUNCTION_TYPES: ReadonlySet<string> = new Set(["function_declaration", "function_expression", "arrow_function", "method_definition", "function", "generator_function_declaration"]);
const WRAPPERS = new Set(["parenthesized_expression", "await_expression", "as_expression", "non_null_expression", "satisfies_expression"]);

/** A string literal's value, escapes decoded the simple way (enough for paths and test names). */
export function jsString(node: SyntaxNode): string {
  return node.namedChildren.map((c) => (c.type === "escape_sequence" ? (c.text === "\\n" ? "\n" : c.text.slice(1)) : c.text)).join("");
}

export function nameOf(expr: SyntaxNode | null): string {
  if (!expr) return "";
  if (expr.type === "identifier") return expr.text;
  if (expr.type === "member_expression") return expr.childForFieldName("property")?.text ?? "";
  return "";
}

function rootName(expr: SyntaxNode | null): string {
  let e = expr;
  while (e && (e.type === "call_expression" || e.type === "member_expression" || e.type === "subscript_expression")) {
    e = e.childForFieldName(e.type === "call_expression" ? "function" : "object");
  }
  return e?.type === "identifier" ? e.text : "";
}

export function analyseJsTree(root: SyntaxNode): CodeFacts {
  const facts = new FactsBuilder();
  const vars = new Map<string, string>();
  const resolve = (expr: SyntaxNode | null | undefined, depth = 0): string => {
    if (!expr || depth > 8) return UNKNOWN;
    if (expr.type === "string") return jsString(expr);
    if (expr.type === "template_string") return template(expr, depth);
    if (expr.type === "identifier") return vars.get(expr.text) ?? UNKNOWN;
    if (WRAPPERS.has(expr.type)) return resolve(expr.namedChildren[0], depth + 1);
    if (expr.type === "binary_expression" && expr.childForFieldName("operator")?.text === "+") return resolve(expr.childForFieldName("left"), depth + 1) + resolve(expr.childForFieldName("right"), depth + 1);
    if (expr.type === "call_expression") {
      const name = nameOf(expr.childForFieldName("function"));
      if (TEMP_FUNCS.test(name)) return TEMP_MARK;
      if (PATH_FUNCS.test(name)) return args(expr).map((a) => resolve(a, depth + 1)).join("/").replace(/\/+/g, "/");
    }
    return UNKNOWN;
  };
  const template = (node: SyntaxNode, depth: number): string => {
    let out = "";
    let from = node.startIndex + 1;
    for (const sub of node.namedChildren.filter((c) => c.type === "template_substitution")) {
      out += node.text.slice(from - node.startIndex, sub.startIndex - node.startIndex) + resolve(sub.namedChildren[0], depth + 1);
      from = sub.endIndex;
    }
    return out + node.text.slice(from - node.startIndex, -1);
  };
  const args = (call: SyntaxNode) => call.childForFieldName("arguments")?.namedChildren.filter((c) => c.type !== "comment") ?? [];
  const objectSkill = (arg: SyntaxNode | undefined): string | undefined => {
    if (arg?.type !== "object") return undefined;
    for (const p of arg.namedChildren) {
      if (p.type === "pair" && p.childForFieldName("key")?.text.replace(/["']/g, "") === "skill") {
        const value = resolve(p.childForFieldName("value"));
        return value.includes(UNKNOWN) ? undefined : value;
      }
    }
    return undefined;
  };
  const command = (node: SyntaxNode, name: string): void => {
    const list = args(node);
    let words: string[] = [];
    if (SPAWN.test(name)) words = [resolve(list[0]), ...(list[1]?.type === "array" ? list[1].namedChildren.map((e) => resolve(e)) : [])];
    else if (EXEC.test(name)) words = resolve(list[0]).split(/\s+/);
    if (words[0] === "npx") words = words.slice(1);
    if (!words[0]?.endsWith("skip-summary")) return;
    facts.usesLibrary = true;
    if (words[1] !== "emit") return;
    const flag = words.indexOf("--skill");
    const skill = flag === -1 ? undefined : words[flag + 1];
    facts.op("emit", "skip-summary emit", "", ...at(node), skill && !skill.includes(UNKNOWN) ? { skill } : {});
  };

  const visit = (node: SyntaxNode): boolean => {
    switch (node.type) {
      case "import_statement": {
        const source = node.childForFieldName("source");
        if (source && /^skip-summary(\/|$)/.test(jsString(source))) facts.usesLibrary = true;
        break;
      }
      case "variable_declarator": {
        const name = node.childForFieldName("name");
        const value = node.childForFieldName("value");
        if (name?.type === "identifier" && value) vars.set(name.text, resolve(value));
        break;
      }
      case "string":
        facts.string(jsString(node), ...at(node));
        return false;
      case "template_string":
        facts.string(template(node, 0), ...at(node));
        break;
      case "identifier":
      case "property_identifier":
      case "shorthand_property_identifier":
        if (node.text === "schema_version") facts.mentionsSchemaVersion = true;
        return false;
      case "call_expression":
      case "new_expression":
        call(node);
        break;
    }
    return true;
  };
  const call = (node: SyntaxNode): void => {
    const fn = node.childForFieldName(node.type === "call_expression" ? "function" : "constructor");
    const name = nameOf(fn);
    const list = args(node);
    const callee = fn?.text ?? "";
    const where = at(node);
    if (node.type === "call_expression" && TEST_CALLS.has(rootName(fn))) {
      const title = list[0];
      if (title && (title.type === "string" || title.type === "template_string")) facts.testNames.push({ value: resolve(title), line: at(title)[0], column: at(title)[1] });
    }
    if (name === "require" && list[0]?.type === "string" && /^skip-summary(\/|$)/.test(jsString(list[0]))) facts.usesLibrary = true;
    if (VERSION_AWARE.test(name)) facts.usesLibrary = true;
    if (WRITE.test(name)) facts.op("write", callee, resolve(list[0]), ...where);
    else if (ATOMIC_WRITE.test(name) || (name === "sync" && callee.startsWith("writeFileAtomic"))) facts.op("atomic-write", callee, resolve(list[0]), ...where);
    else if (RENAME.test(name)) facts.op("rename", callee, resolve(list[1]), ...where, { source: resolve(list[0]) });
    else if (DELETE.test(name)) facts.op("delete", callee, resolve(list[0]), ...where);
    else if (READ.test(name)) facts.op("read", callee, resolve(list[0]), ...where);
    else if (EMIT.test(name)) {
      const skill = objectSkill(list[0]);
      facts.op("emit", callee, "", ...where, skill ? { skill } : {});
    } else if (node.type === "call_expression" && (SPAWN.test(name) || EXEC.test(name))) command(node, name);
    else if (SEND_NAME.test(name)) facts.op("send", callee, "", ...where);
  };
  walk(root, JS_TYPES, visit);
  return facts.build();
}
