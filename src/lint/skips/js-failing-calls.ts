// A delivery whose failure is answered, not thrown, and dropped by its caller (JavaScript/TypeScript): a function of
// the file that hands a message or work to someone (its name says send, notify, post, publish, ...) and answers a
// failure with a value (`return { success: false }`, `resolve(false)`, `return null` in a failure branch), called as a
// bare statement (`await sendToDiscord(summary);`). The run then reports success and nobody hears that nothing was
// delivered. Followed by function name within the file; a delivery that throws, or whose answer is read, is not this.
import type { SkipMechanism } from "../source/facts.js";
import type { SyntaxNode } from "../source/tree-sitter.js";
import { DELIVER } from "./python-failing-calls.js";

type Add = (mechanism: SkipMechanism, node: SyntaxNode, snippet?: string) => void;

const FUNCTION_TYPES = ["function_declaration", "method_definition", "variable_declarator"];
/** An answer that says "not delivered": false, null, or an object whose success/ok/sent/delivered is false. */
const FAILED_ANSWER = /^(false|null|undefined|\{[\s\S]*\b(success|ok|sent|delivered|posted)\s*:\s*false\b[\s\S]*\})$/;

function nameOf(def: SyntaxNode): string | undefined {
  if (def.type === "variable_declarator") {
    const value = def.childForFieldName("value");
    if (!value || !/^(arrow_function|function_expression|function)$/.test(value.type)) return undefined;
  }
  return def.childForFieldName("name")?.text;
}

/** The function answers a failure with a value: a return or a `resolve(...)` of a failed answer, in a branch. */
function answersFailure(def: SyntaxNode): SyntaxNode | undefined {
  for (const ret of def.descendantsOfType("return_statement")) {
    const v = ret.namedChildren[0];
    if (v && FAILED_ANSWER.test(v.text) && inBranch(ret, def)) return ret;
  }
  for (const call of def.descendantsOfType("call_expression")) {
    if (call.childForFieldName("function")?.text !== "resolve") continue;
    const arg = call.childForFieldName("arguments")?.namedChildren[0];
    if (arg && FAILED_ANSWER.test(arg.text) && inBranch(call, def)) return call;
  }
  return undefined;
}

function inBranch(node: SyntaxNode, def: SyntaxNode): boolean {
  for (let p = node.parent; p && p.startIndex >= def.startIndex && p !== def; p = p.parent) {
    if (p.type === "catch_clause" || p.type === "if_statement" || p.type === "else_clause") return true;
    if (p.startIndex === def.startIndex && p.type === def.type) return false;
  }
  return false;
}

function calleeName(call: SyntaxNode): string {
  const fn = call.childForFieldName("function");
  if (fn?.type === "member_expression") return fn.childForFieldName("property")?.text ?? "";
  return fn?.text ?? "";
}

export function jsUnconfirmedSends(root: SyntaxNode, add: Add): void {
  if (!DELIVER.test(root.text)) return;
  const failing = new Map<string, SyntaxNode>();
  for (const def of root.descendantsOfType(FUNCTION_TYPES)) {
    const name = nameOf(def);
    if (!name || !DELIVER.test(name) || failing.has(name)) continue;
    const answer = answersFailure(def);
    if (answer) failing.set(name, answer);
  }
  if (failing.size === 0) return;
  const reported = new Set<number>();
  for (const stmt of root.descendantsOfType("expression_statement")) {
    const e = stmt.namedChildren[0];
    const call = e?.type === "await_expression" ? e.namedChildren[0] : e;
    if (call?.type !== "call_expression") continue;
    const answer = failing.get(calleeName(call));
    if (!answer) continue;
    add("unconfirmed-send", stmt, `${stmt.text.split("\n")[0]!.trim().slice(0, 120)}  (${calleeName(call)} answers a failure with ${answer.text.split("\n")[0]!.trim().slice(0, 60)}, line ${answer.startPosition.row + 1})`);
    if (!reported.has(answer.startIndex)) {
      reported.add(answer.startIndex);
      add("unconfirmed-send", answer, `${answer.text.split("\n")[0]!.trim().slice(0, 100)}  (a caller drops this answer, line ${stmt.startPosition.row + 1})`);
    }
  }
}

/** A state that says the work succeeded: what the rest of the program reads to go on as if it had. */
export const SUCCESS_STATE = /^_?(initialized|initialised|ready|ok|success|succeeded|done|completed|connected|authenticated|authorized|synced|sent|delivered|loggedIn|logged_in|is_?(initialized|ready|connected|authenticated|logged_?in))$/i;

/**
 * A catch that records success: `catch (e) { console.error(e); this.initialized = true; }`. The failure becomes the
 * state the rest of the program reads as "it worked" (a calendar that could not log in runs on in mock mode).
 */
export function jsSuccessOnFailure(root: SyntaxNode, add: Add): void {
  for (const clause of root.descendantsOfType("catch_clause")) {
    const block = clause.childForFieldName("body");
    const stmts = block?.namedChildren.filter((c) => c.type !== "comment") ?? [];
    if (/\bthrow\b|process\.exit\(\s*[1-9]|exitCode\s*=\s*[1-9]|reject\(/.test(block?.text ?? "")) continue;
    for (const s of stmts) {
      const a = s.type === "expression_statement" ? s.namedChildren[0] : undefined;
      if (a?.type !== "assignment_expression" || a.childForFieldName("right")?.text !== "true") continue;
      const left = a.childForFieldName("left");
      const key = left?.type === "member_expression" ? left.childForFieldName("property")?.text : left?.text;
      if (key && SUCCESS_STATE.test(key)) add("error-as-empty", s, `${s.text.split("\n")[0]!.trim().slice(0, 100)}  (set in the catch at line ${clause.startPosition.row + 1}: the failure reads as success)`);
    }
  }
}

const JS_LOG = /^(await\s+)?(console\.(error|warn|log|info|debug)|log|logger\.\w+|debug|info|warn)\(/;
const NOTHING = /^(null|undefined|false|\[\]|\{\})$/;
const LOOP_TYPES = new Set(["for_statement", "for_in_statement", "while_statement", "do_statement"]);

/** A failed answer from a request: `!res.ok`, `res.ok === false`, `res.status !== 200`, `status >= 400`. */
const FAILED_STATUS = /^\(?\s*(!\s*[\w.]+\.ok|[\w.]+\.ok\s*===?\s*false|[\w.]*status(Code)?\s*!==?\s*200|[\w.]*status(Code)?\s*>=?\s*[45]\d\d)\s*\)?$/;

/**
 * Where a function of the file answers nothing (null, undefined, [] or a bare return) after only logging: a catch, or
 * a branch on a failed response status. A declaration before the log (`const body = await res.text()...`) feeds it.
 */
function answersNothing(def: SyntaxNode, statusChecks: boolean): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const onlyLogsThenNothing = (stmts: SyntaxNode[]) => {
    const last = stmts.at(-1);
    if (last?.type !== "return_statement" || (last.namedChildren.length > 0 && !NOTHING.test(last.namedChildren[0]!.text))) return false;
    const before = stmts.slice(0, -1);
    return before.some((s) => s.type === "expression_statement") && before.every((s) => (s.type === "expression_statement" && JS_LOG.test(s.text)) || s.type === "lexical_declaration");
  };
  for (const clause of def.descendantsOfType("catch_clause")) {
    const stmts = clause.childForFieldName("body")?.namedChildren.filter((c) => c.type !== "comment") ?? [];
    const last = stmts.at(-1);
    if (last?.type !== "return_statement" || (last.namedChildren.length > 0 && !NOTHING.test(last.namedChildren[0]!.text))) continue;
    if (stmts.slice(0, -1).every((s) => s.type === "expression_statement" && JS_LOG.test(s.text))) out.push(clause);
  }
  for (const ifs of statusChecks ? def.descendantsOfType("if_statement") : []) {
    if (!FAILED_STATUS.test(ifs.childForFieldName("condition")?.text.trim() ?? "")) continue;
    const cons = ifs.childForFieldName("consequence");
    const stmts = cons?.type === "statement_block" ? cons.namedChildren.filter((c) => c.type !== "comment") : cons ? [cons] : [];
    if (onlyLogsThenNothing(stmts)) out.push(ifs);
  }
  return out.sort((a, b) => a.startIndex - b.startIndex);
}

/**
 * `const data = await fetchFeed(url)` then `if (!data) continue;` in an item loop, or `(await getItems()) ?? []`, where
 * the function (of this file) answers nothing when its request fails: the failure reads as "nothing there".
 */
export function jsFailureAsNothing(root: SyntaxNode, add: Add): void {
  const failing = new Map<string, SyntaxNode[]>();
  // Branches on a response status are looked for only in a file that reads one.
  const statusChecks = /\.ok\b|status/.test(root.text);
  for (const def of root.descendantsOfType(FUNCTION_TYPES)) {
    const name = nameOf(def);
    if (!name || failing.has(name)) continue;
    const branches = answersNothing(def, statusChecks);
    if (branches.length > 0) failing.set(name, branches);
  }
  if (failing.size === 0) return;
  const reported = new Set<number>();
  // The place is where the answer turns into "nothing": the `?? []` of a call written over several lines, not its first line.
  const report = (site: SyntaxNode, name: string, anchor: SyntaxNode = site) => {
    const branches = failing.get(name)!;
    add("error-as-empty", anchor, `${site.text.split("\n")[0]!.trim().slice(0, 120)}  (${name} answers nothing when it fails, line ${branches.map((b) => b.startPosition.row + 1).join(", ")})`);
    for (const branch of branches) {
      if (reported.has(branch.startIndex)) continue;
      reported.add(branch.startIndex);
      add("error-as-empty", branch, `${branch.text.split("\n")[0]!.trim().slice(0, 80)}  (its caller reads the failure as nothing, line ${site.startPosition.row + 1})`);
    }
  };
  const callOf = (n: SyntaxNode | null | undefined) => {
    const inner = n?.type === "await_expression" ? n.namedChildren[0] : n?.type === "parenthesized_expression" ? n.namedChildren[0] : n;
    const call = inner?.type === "await_expression" ? inner.namedChildren[0] : inner;
    return call?.type === "call_expression" && failing.has(calleeName(call)) ? calleeName(call) : undefined;
  };
  for (const bin of root.descendantsOfType("binary_expression")) {
    const op = bin.childForFieldName("operator")?.text;
    const name = callOf(bin.childForFieldName("left"));
    if ((op === "??" || op === "||") && name && /^(\[\]|\{\}|''|""|0)$/.test(bin.childForFieldName("right")?.text ?? "")) report(bin, name, bin.childForFieldName("operator") ?? bin);
  }
  for (const decl of root.descendantsOfType("variable_declarator")) {
    const id = decl.childForFieldName("name");
    const name = callOf(decl.childForFieldName("value"));
    if (id?.type !== "identifier" || !name) continue;
    let loop: SyntaxNode | null = decl.parent;
    while (loop && !LOOP_TYPES.has(loop.type) && !/^(function_declaration|method_definition|arrow_function|function_expression|program)$/.test(loop.type)) loop = loop.parent;
    if (!loop || !LOOP_TYPES.has(loop.type)) continue;
    const stmt = decl.parent;
    const next = (stmt?.parent?.namedChildren ?? []).filter((s) => stmt && s.startIndex > stmt.startIndex).slice(0, 3);
    const silent = next.some((s) => {
      if (s.type !== "if_statement") return false;
      const cond = s.childForFieldName("condition")?.text.replace(/^\(|\)$/g, "").trim() ?? "";
      if (!new RegExp(`^(!\\s*${id.text}\\b|${id.text}\\s*===?\\s*(null|undefined))`).test(cond)) return false;
      const cons = s.childForFieldName("consequence");
      const body = cons?.type === "statement_block" ? cons.namedChildren.filter((c) => c.type !== "comment") : cons ? [cons] : [];
      return body.some((b) => b.type === "continue_statement") && body.every((b) => b.type === "continue_statement" || (b.type === "expression_statement" && JS_LOG.test(b.text)));
    });
    if (silent) report(decl, name);
  }
}
