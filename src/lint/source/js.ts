// Reads JavaScript and TypeScript with the TypeScript compiler's parser: calls, imports and literals, never comments.
import type * as TS from "typescript";
import { FactsBuilder, SEND_NAME, type CodeFacts } from "./facts.js";
import { TEMP_MARK, UNKNOWN } from "./targets.js";

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

let loaded: typeof TS | undefined;

/** The compiler is big: it is imported only when a tile has a JS/TS file to read. */
export async function loadTypeScript(): Promise<typeof TS> {
  loaded ??= ((await import("typescript")) as unknown as { default: typeof TS }).default;
  return loaded;
}

export function analyseJs(ts: typeof TS, fileName: string, text: string): CodeFacts {
  const facts = new FactsBuilder();
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kindOf(ts, fileName));
  const vars = new Map<string, string>();
  const pos = (node: TS.Node) => {
    const lc = source.getLineAndCharacterOfPosition(node.getStart(source));
    return [lc.line + 1, lc.character + 1] as const;
  };
  const nameOf = (expr: TS.Expression): string => {
    if (ts.isIdentifier(expr)) return expr.text;
    if (ts.isPropertyAccessExpression(expr)) return expr.name.text;
    return "";
  };
  const resolve = (expr: TS.Expression | undefined, depth = 0): string => {
    if (!expr || depth > 8) return UNKNOWN;
    if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return expr.text;
    if (ts.isTemplateExpression(expr)) return expr.head.text + expr.templateSpans.map((s) => resolve(s.expression, depth + 1) + s.literal.text).join("");
    if (ts.isIdentifier(expr)) return vars.get(expr.text) ?? UNKNOWN;
    if (ts.isParenthesizedExpression(expr) || ts.isAwaitExpression(expr) || ts.isAsExpression(expr) || ts.isNonNullExpression(expr)) return resolve(expr.expression, depth + 1);
    if (ts.isBinaryExpression(expr) && expr.operatorToken.kind === ts.SyntaxKind.PlusToken) return resolve(expr.left, depth + 1) + resolve(expr.right, depth + 1);
    if (ts.isCallExpression(expr)) {
      const name = nameOf(expr.expression);
      if (TEMP_FUNCS.test(name)) return TEMP_MARK;
      if (PATH_FUNCS.test(name)) return expr.arguments.map((a) => resolve(a, depth + 1)).join("/").replace(/\/+/g, "/");
    }
    return UNKNOWN;
  };
  const objectSkill = (arg: TS.Expression | undefined): string | undefined => {
    if (!arg || !ts.isObjectLiteralExpression(arg)) return undefined;
    for (const p of arg.properties) {
      if (ts.isPropertyAssignment(p) && p.name.getText(source) === "skill") {
        const value = resolve(p.initializer);
        return value.includes(UNKNOWN) ? undefined : value;
      }
    }
    return undefined;
  };
  const rootName = (expr: TS.Expression): string => {
    let e: TS.Expression = expr;
    for (;;) {
      if (ts.isCallExpression(e) || ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) e = e.expression;
      else if (ts.isTaggedTemplateExpression(e)) e = e.tag;
      else break;
    }
    return ts.isIdentifier(e) ? e.text : "";
  };
  const command = (node: TS.CallExpression, name: string): void => {
    let words: string[] = [];
    if (SPAWN.test(name)) {
      const [file, list] = node.arguments;
      words = [resolve(file), ...(list && ts.isArrayLiteralExpression(list) ? list.elements.map((e) => resolve(e)) : [])];
    } else if (EXEC.test(name)) words = resolve(node.arguments[0]).split(/\s+/);
    if (words[0] === "npx") words = words.slice(1);
    if (!words[0]?.endsWith("skip-summary")) return;
    facts.usesLibrary = true;
    if (words[1] !== "emit") return;
    const flag = words.indexOf("--skill");
    const skill = flag === -1 ? undefined : words[flag + 1];
    facts.op("emit", "skip-summary emit", "", ...pos(node), skill && !skill.includes(UNKNOWN) ? { skill } : {});
  };

  const visit = (node: TS.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && /^skip-summary(\/|$)/.test(node.moduleSpecifier.text)) facts.usesLibrary = true;
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) vars.set(node.name.text, resolve(node.initializer));
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) facts.string(node.text, ...pos(node));
    else if (ts.isTemplateExpression(node)) facts.string(resolve(node), ...pos(node));
    if ((ts.isIdentifier(node) || ts.isPrivateIdentifier(node)) && node.text === "schema_version") facts.mentionsSchemaVersion = true;
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const name = nameOf(node.expression);
      const args = node.arguments ?? ts.factory.createNodeArray();
      const callee = node.expression.getText(source);
      const at = pos(node);
      if (ts.isCallExpression(node) && TEST_CALLS.has(rootName(node.expression))) {
        const title = args[0];
        if (title && (ts.isStringLiteral(title) || ts.isNoSubstitutionTemplateLiteral(title) || ts.isTemplateExpression(title))) facts.testNames.push({ value: resolve(title), ...lc(title) });
      }
      if (name === "require" && args[0] && ts.isStringLiteral(args[0]) && /^skip-summary(\/|$)/.test(args[0].text)) facts.usesLibrary = true;
      if (VERSION_AWARE.test(name)) facts.usesLibrary = true;
      if (WRITE.test(name)) facts.op("write", callee, resolve(args[0]), ...at);
      else if (ATOMIC_WRITE.test(name) || (name === "sync" && callee.startsWith("writeFileAtomic"))) facts.op("atomic-write", callee, resolve(args[0]), ...at);
      else if (RENAME.test(name)) facts.op("rename", callee, resolve(args[1]), ...at, { source: resolve(args[0]) });
      else if (DELETE.test(name)) facts.op("delete", callee, resolve(args[0]), ...at);
      else if (READ.test(name)) facts.op("read", callee, resolve(args[0]), ...at);
      else if (EMIT.test(name)) {
        const skill = objectSkill(args[0]);
        facts.op("emit", callee, "", ...at, skill ? { skill } : {});
      } else if (ts.isCallExpression(node) && (SPAWN.test(name) || EXEC.test(name))) command(node, name);
      else if (SEND_NAME.test(name)) facts.op("send", callee, "", ...at);
    }
    ts.forEachChild(node, visit);
  };
  const lc = (node: TS.Node) => {
    const p = source.getLineAndCharacterOfPosition(node.getStart(source));
    return { line: p.line + 1, column: p.character + 1 };
  };
  visit(source);
  return facts.build();
}

function kindOf(ts: typeof TS, fileName: string): TS.ScriptKind {
  if (/\.tsx$/.test(fileName)) return ts.ScriptKind.TSX;
  if (/\.[cm]?ts$/.test(fileName)) return ts.ScriptKind.TS;
  if (/\.jsx$/.test(fileName)) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}
