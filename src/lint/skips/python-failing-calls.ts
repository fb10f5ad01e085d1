// Errors turned into "nothing" across functions: a helper that answers None (or an empty value) when its request
// fails, and a caller that reads that answer as "no items" (`_get(...) or []`) or passes over the item without a word
// (`data = fetch(x)` then `if not data: continue` in an item loop). Each half alone is ordinary code; the silent skip
// is the data path from the failure to the caller's "nothing", so it is followed by function name within the file
// (through helpers that return another helper's answer), never by words.
import type { SkipMechanism } from "../source/facts.js";
import { dotted } from "../source/python.js";
import { nodesOf, type SyntaxNode } from "../source/tree-sitter.js";
import { PROGRESS_NAME } from "./python-more.js";
import { caughtNames, enclosingLoop, exitsNonZero, isLog, parseOnly, snippetOf, statements, surfaces } from "./python-skips.js";

/**
 * The node types these readers look for in the whole tree, with the other Python readers' (python-skips.ts): one search
 * of the tree finds them all (nodesOf), instead of one search per type, and per round.
 */
const PY_TYPES = ["except_clause", "if_statement", "for_statement", "try_statement", "assignment", "return_statement", "boolean_operator", "expression_statement"];
const py = (root: SyntaxNode, type: string) => nodesOf(root, type, PY_TYPES);

type Add = (mechanism: SkipMechanism, node: SyntaxNode, fields?: readonly string[], snippet?: string) => void;

/** Exceptions that say a remote or system operation failed, as opposed to a value that does not parse. */
export const OPERATIONAL_EXC = /^(Exception|BaseException|OSError|IOError|EnvironmentError|PermissionError|TimeoutError|ConnectionError|\w*(HTTP|Http|URL|Url|Connection|Timeout|Request|CalledProcess|API|Api|Auth|Socket|SSL|Client|Service|Transport|Network|Remote|Response|Gaxios|Boto|Botocore)\w*)$/;
/** A failure as a condition: a bad exit status or HTTP status, a response that is not ok. */
const FAILURE_COND = /returncode\s*!=\s*0|returncode\s*(>|!=)|status_code\s*(!=|>=\s*[45]|>\s*[23])|\b(code|status)\s*!=\s*20[04]\b|\bnot\s+[\w.]*\.(ok|success|succeeded)\b|\.ok\s*(is|==)\s*False|\.bozo\b/;
/** What a failed helper answers: nothing at all, or an empty value. */
const NOTHING = /^(None|False|\[\]|\{\}|""|''|0|set\(\)|\(\)|list\(\)|dict\(\))$/;
const EMPTY = /^(\[\]|\{\}|""|''|0|set\(\)|\(\)|list\(\)|dict\(\))$/;

function lastName(call: SyntaxNode): string {
  const fn = call.childForFieldName("function");
  const name = dotted(fn) || fn?.text || "";
  return name.slice(name.lastIndexOf(".") + 1);
}

/** A print to any stream, a log call: in a run nobody watches, a line nobody reads. */
function isLine(s: SyntaxNode): boolean {
  if (isLog(s)) return true;
  const e = s.type === "expression_statement" ? s.namedChildren[0] : undefined;
  return e?.type === "call" && dotted(e.childForFieldName("function")) === "print";
}

function returnsNothing(s: SyntaxNode): boolean {
  return s.type === "return_statement" && (s.namedChildren.length === 0 || NOTHING.test(s.namedChildren[0]!.text));
}

/** A statement that leaves no trace: a line, `pass`, a local kept, a retry's wait, `continue`, or an if/else of those. */
function quiet(s: SyntaxNode): boolean {
  if (isLine(s) || s.type === "pass_statement" || s.type === "continue_statement") return true;
  if (s.type === "expression_statement" && s.namedChildren[0]?.type === "assignment") return !/\.(append|extend|add)\(/.test(s.text);
  if (s.type === "expression_statement" && s.namedChildren[0]?.type === "augmented_assignment") return true;
  if (s.type === "expression_statement" && /^(time\.|asyncio\.)?sleep$/.test(dotted(s.namedChildren[0]?.childForFieldName("function") ?? null) ?? "")) return true;
  if (s.type === "if_statement") {
    const parts = [s.childForFieldName("consequence"), ...s.namedChildren.filter((c) => c.type === "elif_clause" || c.type === "else_clause").map((c) => c.childForFieldName(c.type === "else_clause" ? "body" : "consequence"))];
    return parts.every((b) => statements(b).every(quiet));
  }
  return false;
}

/** The branch only prints or logs (and keeps a local, or waits to retry), then returns nothing, or ends so the function does. */
function quietBranch(body: readonly SyntaxNode[], endsFunction: () => boolean): boolean {
  if (body.length === 0 || body.some(surfaces)) return false;
  const last = body.at(-1)!;
  const before = returnsNothing(last) ? body.slice(0, -1) : body;
  if (!before.every(quiet)) return false;
  return returnsNothing(last) || endsFunction();
}

/**
 * After `stmt`, the function only returns nothing (or simply ends). A try inside a retry loop (`for attempt in
 * range(n)`) ends with the loop: what counts is what the function does after its last attempt.
 */
function restReturnsNothing(stmt: SyntaxNode, fn: SyntaxNode): boolean {
  if (stmt.parent?.parent?.type === "for_statement" && stmt.parent.parent.parent?.parent?.startIndex === fn.startIndex && statements(stmt.parent).at(-1)?.startIndex === stmt.startIndex) return restReturnsNothing(stmt.parent.parent, fn);
  if (stmt.parent?.parent?.startIndex !== fn.startIndex) return false;
  const rest = statements(stmt.parent).filter((s) => s.startIndex > stmt.startIndex);
  return rest.length === 0 || (rest.length === 1 && returnsNothing(rest[0]!));
}

function enclosingFunction(node: SyntaxNode): SyntaxNode | undefined {
  for (let p = node.parent; p; p = p.parent) if (p.type === "function_definition") return p;
  return undefined;
}

/**
 * Functions of the file that answer nothing when their work fails, each with the branch that does it: an except on an
 * operational error around real work, or an `if` on a failed status, that only logs. A function that returns such a
 * function's answer (`return api_get(url)`) answers nothing on failure too.
 */
export function failingFunctions(root: SyntaxNode, branches: SyntaxNode[] = []): ReadonlyMap<string, SyntaxNode> {
  // Found once per tree: error-as-empty and unconfirmed-send both ask.
  let found = failingByTree.get(root);
  if (!found) failingByTree.set(root, (found = findFailingFunctions(root)));
  branches.push(...found.branches);
  return found.failing;
}

const failingByTree = new WeakMap<SyntaxNode, { failing: ReadonlyMap<string, SyntaxNode>; branches: readonly SyntaxNode[] }>();

function findFailingFunctions(root: SyntaxNode): { failing: ReadonlyMap<string, SyntaxNode>; branches: readonly SyntaxNode[] } {
  const branches: SyntaxNode[] = [];
  const failing = new Map<string, SyntaxNode>();
  const mark = (branch: SyntaxNode) => {
    branches.push(branch);
    const name = enclosingFunction(branch)?.childForFieldName("name")?.text;
    if (name && !failing.has(name)) failing.set(name, branch);
  };
  for (const clause of py(root, "except_clause")) {
    const names = caughtNames(clause).map((n) => (/\.error$/.test(n) ? "OSError" : n.replace(/^[\w.]+\./, "")));
    if (names.length > 0 && !names.some((n) => OPERATIONAL_EXC.test(n))) continue;
    const tryStmt = clause.parent;
    const tryBlock = tryStmt?.namedChildren.find((c) => c.type === "block");
    const fn = enclosingFunction(clause);
    if (!tryStmt || !tryBlock || !fn || parseOnly(tryBlock) || tryBlock.descendantsOfType("call").length === 0) continue;
    if (quietBranch(statements(clause.namedChildren.find((c) => c.type === "block")), () => restReturnsNothing(tryStmt, fn))) mark(clause);
  }
  for (const ifs of py(root, "if_statement")) {
    const fn = enclosingFunction(ifs);
    if (!fn || !FAILURE_COND.test(ifs.childForFieldName("condition")?.text ?? "")) continue;
    const body = statements(ifs.childForFieldName("consequence"));
    if (body.length > 0 && returnsNothing(body.at(-1)!) && quietBranch(body, () => false)) mark(ifs);
  }
  for (let round = 0; round < 3 && failing.size > 0; round++) {
    for (const ret of py(root, "return_statement")) {
      const value = ret.namedChildren[0];
      const call = value?.type === "await" ? value.namedChildren[0] : value;
      if (call?.type !== "call" || !failing.has(lastName(call))) continue;
      const fn = enclosingFunction(ret);
      const name = fn?.childForFieldName("name")?.text;
      if (name && !failing.has(name)) failing.set(name, failing.get(lastName(call))!);
    }
  }
  return { failing, branches };
}

/** `if not x: continue` (or `x is None`, `not x or ...`): the item whose answer was nothing is passed over without a word. */
function silentlyPassedOver(ifs: SyntaxNode, name: string): boolean {
  const cond = ifs.childForFieldName("condition")?.text ?? "";
  const n = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (!new RegExp(`^(not\\s+${n}\\b|${n}\\s+is\\s+None\\b|${n}\\s*==\\s*None\\b)`).test(cond)) return false;
  const body = statements(ifs.childForFieldName("consequence"));
  return body.some((s) => s.type === "continue_statement") && body.every((s) => s.type === "continue_statement" || s.type === "pass_statement" || isLine(s));
}

/** `if x is None: return []` (or `not x`): the failure read as an empty answer, with nothing said. */
function answeredEmpty(ifs: SyntaxNode, name: string): boolean {
  const cond = ifs.childForFieldName("condition")?.text ?? "";
  const n = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (!new RegExp(`^(not\\s+${n}|${n}\\s+is\\s+None|${n}\\s*==\\s*None)$`).test(cond)) return false;
  const body = statements(ifs.childForFieldName("consequence"));
  const last = body.at(-1);
  return last?.type === "return_statement" && EMPTY.test(last.namedChildren[0]?.text ?? "") && body.slice(0, -1).every(isLine) && !body.some(surfaces);
}

/**
 * Call sites of a failing function that turn its failure into "nothing": `f(...) or []`, and in an item loop
 * `x = f(...)` followed by a silent `if not x: continue`. Each is reported with the failing branch.
 */
export function failureAsNothing(root: SyntaxNode, add: Add): void {
  if (!/\bexcept\b|returncode|status_code|\.ok\b|\.bozo\b|\b(code|status)\s*!=/.test(root.text)) return;
  const branches: SyntaxNode[] = [];
  const failing = failingFunctions(root, branches);
  if (failing.size === 0) return;
  const reported = new Set<number>();
  // `if proc.returncode != 0: print(...); return []` answers "no items" itself, as `except: return []` does.
  for (const branch of branches) {
    const last = branch.type === "if_statement" ? statements(branch.childForFieldName("consequence")).at(-1) : undefined;
    if (last?.type === "return_statement" && EMPTY.test(last.namedChildren[0]?.text ?? "")) add("error-as-empty", branch, undefined, `${snippetOf(branch)} … ${last.text}`);
  }
  // The place is where the answer turns into "nothing": the `or []` of a call written over several lines, not its first line.
  const report = (site: SyntaxNode, call: SyntaxNode, anchor: SyntaxNode = site) => {
    const branch = failing.get(lastName(call))!;
    add("error-as-empty", anchor, undefined, `${snippetOf(site).slice(0, 120)}  (${lastName(call)} answers nothing when it fails, line ${branch.startPosition.row + 1})`);
    if (!reported.has(branch.startIndex)) {
      reported.add(branch.startIndex);
      add("error-as-empty", branch, undefined, `${snippetOf(branch)}  (its caller reads the failure as nothing, line ${site.startPosition.row + 1})`);
    }
  };
  for (const op of py(root, "boolean_operator")) {
    const [left, right] = [op.childForFieldName("left"), op.childForFieldName("right")];
    const call = left?.type === "await" ? left.namedChildren[0] : left;
    if (op.children.find((c) => !c.isNamed)?.text !== "or" || call?.type !== "call" || !right || !EMPTY.test(right.text)) continue;
    if (failing.has(lastName(call))) report(op, call, op.children.find((c) => !c.isNamed && c.text === "or"));
  }
  for (const assign of py(root, "assignment")) {
    const left = assign.childForFieldName("left");
    const right = assign.childForFieldName("right");
    const call = right?.type === "await" ? right.namedChildren[0] : right;
    if (left?.type !== "identifier" || call?.type !== "call" || !failing.has(lastName(call)) || !enclosingLoop(assign)) continue;
    const stmt = assign.parent?.type === "expression_statement" ? assign.parent : assign;
    const next = statements(stmt.parent).filter((s) => s.startIndex > stmt.startIndex).slice(0, 3);
    if (next.some((s) => s.type === "if_statement" && silentlyPassedOver(s, left.text))) report(assign, call);
  }
  // Outside a loop, `x = f(...)` then `if x is None: return []`: the caller answers "no items" for the failure in turn.
  for (const assign of py(root, "assignment")) {
    const left = assign.childForFieldName("left");
    const right = assign.childForFieldName("right");
    const call = right?.type === "await" ? right.namedChildren[0] : right;
    if (left?.type !== "identifier" || call?.type !== "call" || !failing.has(lastName(call))) continue;
    const stmt = assign.parent?.type === "expression_statement" ? assign.parent : assign;
    const next = statements(stmt.parent).filter((s) => s.startIndex > stmt.startIndex).slice(0, 2);
    if (next.some((s) => s.type === "if_statement" && answeredEmpty(s, left.text))) report(assign, call);
  }
}

/** A call that hands work or a message to someone else: its failure is a delivery that did not happen. */
export const DELIVER = /send|notify|notif|deliver|publish|alert|wake|webhook|^post$|^post_|_post$|upload|announce|dispatch|tweet|reply|forward/i;

/**
 * A delivery helper that swallows its own failure (an except or a failed-status branch that only prints, answering
 * nothing) called as a bare statement: the caller goes on as if it was delivered, and nobody hears that it was not.
 */
export function unconfirmedSends(root: SyntaxNode, add: Add): void {
  if (!DELIVER.test(root.text)) return;
  const failing = failingFunctions(root);
  const reported = new Set<number>();
  for (const stmt of py(root, "expression_statement")) {
    const e = stmt.namedChildren[0];
    const call = e?.type === "await" ? e.namedChildren[0] : e;
    if (call?.type !== "call") continue;
    const name = lastName(call);
    const branch = failing.get(name);
    // A bare `except: pass` around a fire-and-forget message (a protocol notification) is a choice, not a lost delivery.
    if (!branch || !(DELIVER.test(name) || deliversInside(branch)) || !statements(branch.type === "except_clause" ? branch.namedChildren.find((c) => c.type === "block") : branch.childForFieldName("consequence")).some(isLine)) continue;
    add("unconfirmed-send", stmt, undefined, `${snippetOf(stmt).slice(0, 120)}  (${name} only prints when it fails, line ${branch.startPosition.row + 1})`);
    // A progress mark in the same function is moved whether or not the hand-off worked: those items are never sent again.
    for (const mark of progressMarks(stmt).slice(0, 2)) add("unconfirmed-send", mark, undefined, `${snippetOf(mark).slice(0, 120)}  (marked done whether or not ${name} at line ${stmt.startPosition.row + 1} delivered)`);
    if (!reported.has(branch.startIndex)) {
      reported.add(branch.startIndex);
      add("unconfirmed-send", branch, undefined, `${snippetOf(branch)}  (the caller goes on as if it was delivered, line ${stmt.startPosition.row + 1})`);
    }
  }
}

/**
 * The function hands something to someone though its name does not say so (`def tg(m)`): inside it, a call named for a
 * delivery (`bot.send_message(...)`), or a POST to an address that says so (`requests.post(f".../sendMessage", ...)`).
 * A POST to anything else (an RPC, a search API) is a read.
 */
function deliversInside(branch: SyntaxNode): boolean {
  const fn = enclosingFunction(branch);
  return (fn?.descendantsOfType("call") ?? []).some((c) => {
    const n = lastName(c);
    return n === "post" ? DELIVER.test(c.childForFieldName("arguments")?.text ?? "") : DELIVER.test(n);
  });
}

/** `{"wake_agent": False, ...}`: a precheck's answer that nobody needs to wake (the scheduler then runs nothing). */
const WAKE_OFF = /^["'](wake_?agent|wakeAgent)["']$/;

function wakeOff(node: SyntaxNode): boolean {
  return node.descendantsOfType("pair").some((p) => WAKE_OFF.test(p.childForFieldName("key")?.text ?? "") && p.childForFieldName("value")?.text === "False");
}

/**
 * A failure answered "nothing to do": an except on an operational error whose answer is `wake_agent: False` (returned,
 * printed or emitted). The scheduler then wakes nobody, so the error in its `data` reaches no one, and a nightly job
 * that cannot read its state never runs again. Absence (`FileNotFoundError`) and values that do not parse are not this.
 */
export function wakeOffOnFailure(root: SyntaxNode, add: Add): void {
  for (const clause of py(root, "except_clause")) {
    const names = caughtNames(clause).map((n) => (/\.error$/.test(n) ? "OSError" : n.replace(/^[\w.]+\./, "")));
    if (names.length > 0 && !names.some((n) => OPERATIONAL_EXC.test(n))) continue;
    const body = statements(clause.namedChildren.find((c) => c.type === "block"));
    const answer = body.find(wakeOff);
    if (!answer || body.some((s) => (s === answer || s.startIndex === answer.startIndex ? exitsNonZero(s) : surfaces(s)))) continue;
    add("error-as-empty", clause, undefined, `${snippetOf(clause)} … ${snippetOf(answer).slice(0, 100)}  (answers wake_agent: False, so nobody hears of the failure)`);
  }
}

/** Progress marks (`state["last_seen"][k] = newest`, `self.cursor = ...`) written in the function around a statement. */
function progressMarks(stmt: SyntaxNode): SyntaxNode[] {
  const fn = enclosingFunction(stmt);
  if (!fn) return [];
  return fn.descendantsOfType("assignment").filter((a) => {
    const left = a.childForFieldName("left");
    if (!left || left.type === "identifier") return false;
    const keys = [...left.descendantsOfType("string").map((k) => k.text.replace(/^["']|["']$/g, "")), ...left.descendantsOfType("identifier").filter((i) => i.parent?.type === "attribute" && i.parent.childForFieldName("attribute")?.startIndex === i.startIndex).map((i) => i.text)];
    return keys.some((k) => PROGRESS_NAME.test(k));
  });
}

/**
 * An except on an operational error that records success (`self.ready = True`, `state["synced"] = True`): the failure
 * becomes the state the rest of the run reads as "it worked".
 */
export function successOnFailure(root: SyntaxNode, add: Add, success: RegExp): void {
  for (const clause of py(root, "except_clause")) {
    const names = caughtNames(clause).map((n) => (/\.error$/.test(n) ? "OSError" : n.replace(/^[\w.]+\./, "")));
    if (names.length > 0 && !names.some((n) => OPERATIONAL_EXC.test(n))) continue;
    const body = statements(clause.namedChildren.find((c) => c.type === "block"));
    if (body.some(exitsNonZero)) continue;
    for (const s of body) {
      const a = s.type === "expression_statement" ? s.namedChildren[0] : undefined;
      if (a?.type !== "assignment" || a.childForFieldName("right")?.text !== "True") continue;
      const left = a.childForFieldName("left");
      const key = left?.type === "attribute" ? left.childForFieldName("attribute")?.text : left?.type === "subscript" ? left.childForFieldName("subscript")?.text.replace(/^["']|["']$/g, "") : left?.text;
      if (key && success.test(key)) add("error-as-empty", s, undefined, `${snippetOf(s).slice(0, 100)}  (set in the except at line ${clause.startPosition.row + 1}: the failure reads as success)`);
    }
  }
}

/** `print("[]")`, `print(json.dumps({}))` to standard output: the script's answer, empty. */
function printsEmptyAnswer(s: SyntaxNode): boolean {
  const e = s.type === "expression_statement" ? s.namedChildren[0] : undefined;
  if (e?.type !== "call" || dotted(e.childForFieldName("function")) !== "print") return false;
  const args = e.childForFieldName("arguments")?.namedChildren ?? [];
  if (args.length !== 1) return false;
  const a = args[0]!;
  const inner = a.type === "call" && /^json\.dumps$/.test(dotted(a.childForFieldName("function"))) ? a.childForFieldName("arguments")?.namedChildren[0]?.text ?? "" : a.text.replace(/^["']|["']$/g, "");
  return /^(\[\]|\{\}|list\(\)|dict\(\))$/.test(inner);
}

/**
 * `result[key] = []`, or `out["hf"] = {"error": str(e), "items": []}` whose error key the file never reads: the item's
 * slot holds an empty answer where its failure was.
 */
function storesEmptySlot(s: SyntaxNode, fileText: string): boolean {
  const a = s.type === "expression_statement" ? s.namedChildren[0] : undefined;
  const left = a?.type === "assignment" ? a.childForFieldName("left") : undefined;
  const right = a?.childForFieldName("right");
  if (!left || !right || left.type !== "subscript") return false;
  if (EMPTY.test(right.text)) return true;
  if (right.type !== "dictionary") return false;
  const pairs = right.namedChildren.filter((p) => p.type === "pair");
  if (pairs.length === 0) return false;
  let emptyItems = false;
  for (const p of pairs) {
    const key = p.childForFieldName("key")?.text.replace(/^["']|["']$/g, "") ?? "";
    const value = p.childForFieldName("value")?.text ?? "";
    if (EMPTY.test(value)) emptyItems ||= value === "[]";
    else if (/^(error|err|message|reason|exception)$/i.test(key)) {
      // Follow the data: an error field some code reads (`x["error"]`, `.get("error")`) is handed on.
      if (new RegExp(`\\[\\s*["']${key}["']\\s*\\]|\\.get\\(\\s*["']${key}["']`).test(fileText)) return false;
    } else return false;
  }
  return emptyItems;
}

/**
 * An except on a failed operation that only logs and puts an empty answer where the result goes: prints `[]` as the
 * script's output, or stores an empty list in the item's slot of the result. Whoever reads the output sees "nothing".
 */
export function emptyStandIns(root: SyntaxNode, add: Add): void {
  const text = root.text;
  for (const clause of py(root, "except_clause")) {
    const names = caughtNames(clause).map((n) => (/\.error$/.test(n) ? "OSError" : n.replace(/^[\w.]+\./, "")));
    if (names.length > 0 && !names.some((n) => OPERATIONAL_EXC.test(n))) continue;
    const tryBlock = clause.parent?.type === "try_statement" ? clause.parent.namedChildren.find((c) => c.type === "block") : undefined;
    if (!tryBlock || parseOnly(tryBlock) || tryBlock.descendantsOfType("call").length === 0) continue;
    const body = statements(clause.namedChildren.find((c) => c.type === "block"));
    if (body.some(surfaces)) continue;
    const standIn = body.find((s) => printsEmptyAnswer(s) || storesEmptySlot(s, text));
    if (!standIn || !body.every((s) => s === standIn || isLine(s) || s.type === "pass_statement" || s.type === "continue_statement")) continue;
    add("error-as-empty", clause, undefined, `${snippetOf(clause)} … ${snippetOf(standIn).slice(0, 100)}  (an empty answer where the result goes)`);
  }
}
