// The silent-skip shapes in JavaScript and TypeScript: a catch inside an item loop (or a forEach/map callback) that
// only logs, a budget or deadline stop, a count cap on what a loop works through, an error turned into an empty
// result or into exit 0, a progress mark moved past a failed item, and a catch-all that exits 0. Read from the tree,
// so comments never count.
import type { SkipEvidence, SkipMechanism } from "../source/facts.js";
import { JS_FUNCTION_TYPES } from "../source/js.js";
import { at, nodesOf, type SyntaxNode } from "../source/tree-sitter.js";
import { capBoundsAnswer } from "./js-answer-loops.js";
import { jsFailureAsNothing, jsSuccessOnFailure, jsUnconfirmedSends } from "./js-failing-calls.js";
import { JS_STAMPS } from "./stamp-grammars.js";
import { stampPastFailure } from "./stamp-past-failure.js";

const LOOPS = new Set(["for_statement", "for_in_statement", "while_statement", "do_statement"]);
/** The node types jsSkips looks for in the whole tree: found in one search (nodesOf), not one search each. */
const JS_SKIP_TYPES = ["catch_clause", "call_expression", "if_statement", "for_in_statement", "variable_declarator"];
const js = (root: SyntaxNode, type: string) => nodesOf(root, type, JS_SKIP_TYPES);
const FUNCTIONS = JS_FUNCTION_TYPES;
const BUDGET = /budget|deadline|elapsed|timeLeft|remainingMs|overBudget|performance\.now\(\)|Date\.now\(\)/;
const SURFACE = /send|notify|alert|emitSkip|skipAndExit|skip-summary|throw\b|exit\(\s*[1-9]|exitCode\s*=\s*[1-9]|\.push\(|reject\(/;
const LOG = /^(console\.(error|warn|log|info|debug)|log|logger\.\w+|debug|warn)\(/;
/** Empty answers a caller reads as "nothing there" (`null`/`false` are checked as failures by callers, so left out). */
const EMPTY = /^(\[\]|\{\}|''|""|``|0|new (Map|Set)\(\))$/;
const CAP_NAME = /max|limit|cap\b|Cap|quota|batch|perRun|PER_RUN|top|chunk/i;
const PROGRESS = /^(last\w*(Id|Ids|Seen|Run|Sync|Synced|Processed|Checked|Fetched|Update|Updated|Timestamp|Ts|Time|Date|Cursor|Offset|Page|Token)|last_\w+|watermark|highWater(Mark)?|cursor|since|checkpoint|offset)$/;
const PROGRESS_CALL = /^(mark(As)?(Done|Processed|Seen|Handled|Complete|Completed|Read|Synced)|save(Cursor|Watermark|Checkpoint|Progress|State)|set(Cursor|Watermark|Checkpoint|Last\w+)|advance\w+)$/;

/** The item loop a node runs in: a loop statement, or the callback of `items.forEach/map/flatMap(...)`. */
function itemLoop(node: SyntaxNode): SyntaxNode | undefined {
  for (let p = node.parent; p; p = p.parent) {
    if (LOOPS.has(p.type)) return p;
    if (FUNCTIONS.has(p.type)) {
      const call = p.parent?.type === "arguments" ? p.parent.parent : undefined;
      const callee = call?.childForFieldName("function");
      if (callee?.type === "member_expression" && /^(forEach|map|flatMap)$/.test(callee.childForFieldName("property")?.text ?? "")) return p;
      return undefined;
    }
  }
  return undefined;
}

function body(block: SyntaxNode | null | undefined): SyntaxNode[] {
  if (!block) return [];
  return block.type === "statement_block" ? block.namedChildren.filter((c) => c.type !== "comment") : [block];
}

const isLog = (s: SyntaxNode) => s.type === "expression_statement" && LOG.test(s.text.replace(/^await\s+/, ""));
/** A log line, or an `if` whose every branch only logs (`if (err.code === 401) console.error(...) else console.error(...)`). */
const logsOnlyDeep = (s: SyntaxNode): boolean => {
  if (isLog(s)) return true;
  if (s.type === "statement_block") return s.namedChildren.filter((c) => c.type !== "comment").every(logsOnlyDeep);
  if (s.type === "else_clause") return s.namedChildren.filter((c) => c.type !== "comment").every(logsOnlyDeep);
  if (s.type !== "if_statement") return false;
  const parts = [s.childForFieldName("consequence"), s.childForFieldName("alternative")].filter((x): x is SyntaxNode => x !== null);
  return parts.every(logsOnlyDeep);
};
const exitsZero = (text: string) => /process\.exit\(\s*(0)?\s*\)/.test(text);

/**
 * The `return x` right after a try statement, when x is a collection declared empty (`const x = []`) in the same
 * function before the try: what the function answers when the try failed part-way or at once.
 */
function returnsUnfilled(tryStmt: SyntaxNode): string | undefined {
  const block = tryStmt.parent;
  if (block?.type !== "statement_block" || !block.parent || !FUNCTIONS.has(block.parent.type)) return undefined;
  const next = block.namedChildren.find((c) => c.startIndex > tryStmt.endIndex && c.type !== "comment");
  const v = next?.type === "return_statement" ? next.namedChildren[0] : undefined;
  if (v?.type !== "identifier") return undefined;
  const declared = block.namedChildren.some((c) => c.endIndex <= tryStmt.startIndex && /^(lexical_declaration|variable_declaration)$/.test(c.type) && c.namedChildren.some((d) => d.childForFieldName("name")?.text === v.text && EMPTY.test(d.childForFieldName("value")?.text ?? "-")));
  return declared ? next!.text : undefined;
}

/** The catch is at the top: around the script's main call, not inside a function that does one piece of work. */
function atTop(clause: SyntaxNode): boolean {
  for (let p = clause.parent; p; p = p.parent) if (FUNCTIONS.has(p.type)) return /main|run|cli/i.test(p.parent?.type === "variable_declarator" ? p.parent.childForFieldName("name")?.text ?? "" : p.childForFieldName("name")?.text ?? "");
  return true;
}

/** After the try statement, the loop body does nothing more with the item: a failure falls through to the next one. */
function fallsThrough(tryStmt: SyntaxNode, loop: SyntaxNode): boolean {
  const block = tryStmt.parent;
  if (block?.type !== "statement_block") return false;
  const same = (a: SyntaxNode | null | undefined) => a?.startIndex === loop.startIndex && a.type === loop.type;
  if (!same(block.parent) && !same(block.parent?.parent)) return false;
  return block.namedChildren.filter((s) => s.startIndex > tryStmt.startIndex && s.type !== "comment").every(isLog);
}

/**
 * The try block leaves the loop once an alternative worked: a `break` of this loop, or a `return` with a value, inside
 * the try (`for (const mirror of MIRRORS) { try { … if (items.length > 0) break; } catch (e) { log(e) } }`).
 */
function firstSuccess(loop: SyntaxNode, tryBody: SyntaxNode): boolean {
  if (!LOOPS.has(loop.type)) return false;
  const fnOf = (n: SyntaxNode) => {
    for (let p = n.parent; p; p = p.parent) if (FUNCTIONS.has(p.type)) return p.startIndex;
    return -1;
  };
  const loopOf = (n: SyntaxNode) => {
    for (let p = n.parent; p; p = p.parent) if (LOOPS.has(p.type) || FUNCTIONS.has(p.type) || p.type === "switch_statement") return p;
    return undefined;
  };
  if (tryBody.descendantsOfType("break_statement").some((b) => !b.namedChildren.length && loopOf(b)?.startIndex === loop.startIndex)) return true;
  return tryBody.descendantsOfType("return_statement").some((r) => {
    const v = r.namedChildren[0];
    return v !== undefined && !/^(null|undefined|false|\[\]|\{\}|0|''|""|``)$/.test(v.text) && fnOf(r) === fnOf(loop);
  });
}

function isProgress(stmt: SyntaxNode): boolean {
  for (const a of stmt.descendantsOfType(["assignment_expression", "augmented_assignment_expression"])) {
    const left = a.childForFieldName("left");
    const key = left?.type === "member_expression" ? left.childForFieldName("property")?.text : left?.type === "subscript_expression" ? left.childForFieldName("index")?.text.replace(/^["'`]|["'`]$/g, "") : left?.text;
    if (key && PROGRESS.test(key)) return true;
  }
  return stmt.descendantsOfType("call_expression").some((c) => {
    const fn = c.childForFieldName("function");
    const n = fn?.type === "member_expression" ? fn.childForFieldName("property")?.text ?? "" : fn?.text ?? "";
    if (PROGRESS_CALL.test(n)) return true;
    return fn?.type === "member_expression" && n === "add" && /processed|seen|done|handled/i.test(fn.childForFieldName("object")?.text ?? "");
  });
}

/** Whether a collection's size or rest reaches a surfacing call, a return or a result field. */
function remainderTold(scope: SyntaxNode, coll: string, except: SyntaxNode): boolean {
  for (const m of scope.descendantsOfType("member_expression")) {
    if (m.childForFieldName("object")?.text !== coll || m.startIndex >= except.startIndex && m.endIndex <= except.endIndex) continue;
    if (!/^(length|slice|size)$/.test(m.childForFieldName("property")?.text ?? "")) continue;
    for (let p: SyntaxNode | null = m.parent; p && !FUNCTIONS.has(p.type); p = p.parent) {
      if (p.type === "return_statement" || p.type === "pair") return true;
      if (p.type === "if_statement" && SURFACE.test(p.childForFieldName("consequence")?.text ?? "")) return true;
      if (p.type === "call_expression" && SURFACE.test(p.childForFieldName("function")?.text ?? "")) return true;
    }
  }
  return false;
}

function scopeOf(node: SyntaxNode): SyntaxNode {
  let p = node.parent;
  while (p && !FUNCTIONS.has(p.type) && p.type !== "program") p = p.parent;
  return p ?? node;
}

/**
 * The condition without the loop item's own fields: `a.on_budget`, `c.budgeted` of the item being looked at is a
 * filter on that item, not a budget the run spends.
 */
function withoutItemFields(text: string, loop: SyntaxNode | undefined): string {
  const left = loop?.type === "for_in_statement" ? loop.childForFieldName("left") : undefined;
  const names = left ? (left.type === "identifier" ? [left] : left.descendantsOfType(["identifier", "shorthand_property_identifier_pattern"])).map((n) => n.text) : [];
  return names.reduce((t, n) => t.replace(new RegExp(`\\b${n}(\\??\\.\\w+|\\[[^\\]]*\\])+`, "g"), ""), text);
}

/** `X.slice(0, N)` with a count cap N: the collection X. */
function capSlice(expr: SyntaxNode | null | undefined): string | undefined {
  if (expr?.type !== "call_expression") return undefined;
  const fn = expr.childForFieldName("function");
  if (fn?.type !== "member_expression" || fn.childForFieldName("property")?.text !== "slice") return undefined;
  const args = expr.childForFieldName("arguments")?.namedChildren ?? [];
  if (args.length !== 2 || args[0]!.text !== "0") return undefined;
  const cap = args[1]!;
  if (cap.type === "number" ? Number(cap.text) < 10 : !CAP_NAME.test(cap.text)) return undefined;
  const obj = fn.childForFieldName("object");
  return obj && (obj.type === "identifier" || obj.type === "member_expression") ? obj.text : undefined;
}

/** `sortFindings(valid).slice(0, MAX)`, `valid.filter(f).slice(0, MAX)`: the collection a sort or filter passes on. */
function cappedThrough(expr: SyntaxNode): string | undefined {
  const fn = expr.childForFieldName("function");
  const obj = fn?.type === "member_expression" ? fn.childForFieldName("object") : undefined;
  if (obj?.type !== "call_expression" || fn?.childForFieldName("property")?.text !== "slice") return undefined;
  const args = expr.childForFieldName("arguments")?.namedChildren ?? [];
  if (args.length !== 2 || args[0]!.text !== "0" || (args[1]!.type === "number" ? Number(args[1]!.text) < 10 : !CAP_NAME.test(args[1]!.text))) return undefined;
  const innerFn = obj.childForFieldName("function");
  const through = innerFn?.type === "member_expression" && /^(sort|filter|toSorted|reverse)$/.test(innerFn.childForFieldName("property")?.text ?? "") ? innerFn.childForFieldName("object") : obj.childForFieldName("arguments")?.namedChildren[0];
  return through?.type === "identifier" ? through.text : undefined;
}

/** Every call only reads or parses a local value: a file read, JSON.parse, a path join, a stat. */
function readsOnly(node: SyntaxNode): boolean {
  const calls = node.descendantsOfType("call_expression");
  return calls.length > 0 && calls.every((c) => /(^|\.)(readFileSync|readFile|parse|parseInt|parseFloat|join|resolve|basename|dirname|extname|statSync|stat|lstatSync|existsSync|readdirSync|readdir|Number|String|Boolean|trim|split|toString|toLowerCase|decode)$/.test(c.childForFieldName("function")?.text ?? ""));
}

function doesWork(node: SyntaxNode | null | undefined): boolean {
  if (!node) return false;
  return node.descendantsOfType("call_expression").some((c) => {
    const t = c.childForFieldName("function")?.text ?? "";
    return !LOG.test(`${t}(`) && !/(^|\.)(push|join|map|filter|toString|toFixed|padStart|padEnd|trim|slice|format|stringify|parse|log|includes|keys|values|entries|String|Number|Boolean)$|\.(set|get|has)$/.test(t);
  });
}

/**
 * `const body = await res.text().catch(() => "")` whose value goes only into a message (a log line, an error thrown,
 * a `die(...)`): the empty stand-in is a detail of a failure being told, not an answer read as "nothing".
 */
function onlyInMessages(call: SyntaxNode): boolean {
  let n = call.parent;
  while (n && (n.type === "await_expression" || n.type === "parenthesized_expression")) n = n.parent;
  const id = n?.type === "variable_declarator" ? n.childForFieldName("name") : undefined;
  const block = n?.parent?.parent;
  if (id?.type !== "identifier" || !block) return false;
  const uses = block.descendantsOfType("identifier").filter((u) => u.text === id.text && u.startIndex > id.endIndex);
  return uses.length > 0 && uses.every((u) => {
    let inText = false;
    for (let p = u.parent; p && p.startIndex !== block.startIndex; p = p.parent) {
      if (p.type === "template_string" || (p.type === "binary_expression" && /["'`]/.test(p.text))) inText = true;
      if (p.type === "throw_statement") return true;
      if (p.type === "expression_statement") return inText && p.namedChildren[0]?.type === "call_expression";
      if (/^(return_statement|variable_declarator|assignment_expression|if_statement)$/.test(p.type)) return false;
    }
    return false;
  });
}

/**
 * The try only reads a file this program writes itself (`readFile(LOG_PATH)` beside `appendFile(LOG_PATH, ...)`,
 * `readFileSync(CONFIG_PATH)` beside `writeFileSync(CONFIG_PATH, ...)`): absent or unreadable, that state is a first
 * run, and the empty answer is its true starting value, not work left undone. Any other work in the try keeps it a failure.
 */
function readsOwnState(tryBody: SyntaxNode, root: SyntaxNode): boolean {
  const calls = tryBody.descendantsOfType("call_expression");
  const reads = calls.filter((c) => /(^|\.)(readFileSync|readFile)$/.test(c.childForFieldName("function")?.text ?? ""));
  if (reads.length === 0) return false;
  const fn = (c: SyntaxNode) => c.childForFieldName("function")?.text ?? "";
  // Everything else only computes on what was read (JSON.parse, split, slice) or asks whether the file is there.
  if (calls.some((c) => !reads.some((r) => r.startIndex === c.startIndex) && !LOG.test(`${fn(c)}(`) && !/(^|\.)(existsSync|statSync|stat|access|accessSync|push|join|map|filter|toString|trim|slice|split|parse|includes|keys|values|entries|String|Number|Boolean|reverse|sort)$/.test(fn(c)))) return false;
  return reads.every((r) => {
    const path = r.childForFieldName("arguments")?.namedChildren[0]?.text ?? "";
    if (!/^[\w$.]+$/.test(path)) return false;
    const esc = path.replace(/[.$]/g, (c) => `\\${c}`);
    return new RegExp(String.raw`(?:^|\.|\b)(?:writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|renameSync|rename)\(\s*(?:[\w$.]+,\s*)?${esc}\b`).test(root.text);
  });
}

/** A read of a local file parsed as data: `JSON.parse(readFileSync(p, "utf8"))`, `JSON.parse(await fs.readFile(p))`. */
const FILE_PARSE = /\breadFile(Sync)?\(/;
/** Calls that do something beyond reading, testing and parsing a file: the try is then not only a read. */
const BEYOND_READ = /^(fetch|request|exec\w*|spawn\w*|write\w*|append\w*|send\w*|post|axios|query|connect|unlink\w*|rm\w*|mkdir\w*|rename\w*|copy\w*)$|http/i;
/** The file's presence tested: `existsSync(p)`, `fs.existsSync(p)`. */
const EXISTS = /^(fs\.)?existsSync\(/;

/** What a statement answers when it returns: the text of `return x;` (whitespace-normalized), or undefined. */
function answerOf(stmt: SyntaxNode | undefined): string | undefined {
  if (stmt?.type !== "return_statement") return undefined;
  return (stmt.namedChildren[0]?.text ?? "undefined").replace(/\s+/g, " ").replace(/,\s*}/g, " }");
}

/** `if (!existsSync(p)) return X;` (as a statement or a one-statement block): X, the function's answer for no file. */
function absentAnswer(ifs: SyntaxNode): string | undefined {
  const cond = ifs.childForFieldName("condition")?.text.replace(/^\(\s*|\s*\)$/g, "") ?? "";
  if (!/^!\s*/.test(cond) || !EXISTS.test(cond.replace(/^!\s*/, ""))) return undefined;
  const cons = body(ifs.childForFieldName("consequence"));
  return cons.length === 1 ? answerOf(cons[0]) : undefined;
}

/**
 * `if (!existsSync(p)) return []; try { return JSON.parse(readFileSync(p, "utf8")); } catch { return []; }`: the
 * function has already answered "no file yet"; the catch is reached when the file IS there but cannot be read or
 * parsed (a corrupt history, state or config), and it answers exactly what it answers for no file, so the caller
 * starts over from nothing (a reply history, cursor or ledger dropped) and nobody hears the file was lost. Left
 * out: `try { if (existsSync(p)) return JSON.parse(...); } catch {} return {};`, where the test sits inside the try
 * and the no-file answer is a fall-through (on the tuning data as often a reset that rescans as a loss).
 * Outside an item loop (there, passing over one unreadable item is log-only-skip's question).
 */
function corruptReadAsAbsent(clause: SyntaxNode, tryStmt: SyntaxNode, stmts: SyntaxNode[]): string | undefined {
  const tryBody = tryStmt.childForFieldName("body");
  if (!tryBody || !FILE_PARSE.test(tryBody.text) || !/\bJSON\.parse\(/.test(tryBody.text) || itemLoop(clause)) return undefined;
  if (tryBody.descendantsOfType("call_expression").some((c) => BEYOND_READ.test((c.childForFieldName("function")?.text ?? "").split(".").pop()!))) return undefined;
  const block = tryStmt.parent;
  if (block?.type !== "statement_block" || !block.parent || !FUNCTIONS.has(block.parent.type)) return undefined;
  const after = answerOf(block.namedChildren.find((c) => c.startIndex > tryStmt.endIndex && c.type !== "comment"));
  // The catch's answer: its own return after only log lines, or (only log lines or nothing) the return after the try.
  const last = stmts.at(-1);
  // A line to stderr (`process.stderr.write(...)`) is a log line too: a scheduled run's stderr goes to a file nobody reads.
  const quiet = (s: SyntaxNode) => logsOnlyDeep(s) || (s.type === "expression_statement" && /^process\.stderr\.write\(/.test(s.text));
  const caught = last?.type === "return_statement" ? (stmts.slice(0, -1).every(quiet) ? answerOf(last) : undefined) : stmts.every(quiet) ? after : undefined;
  if (caught === undefined) return undefined;
  // The answer for no file: a `if (!existsSync(p)) return X` before the catch, in the function or in the try.
  const before = [...block.namedChildren.filter((c) => c.endIndex <= tryStmt.startIndex), ...tryBody.namedChildren];
  const absent = before.filter((c) => c.type === "if_statement").map(absentAnswer).find((a) => a !== undefined);
  return absent !== undefined && absent === caught ? `return ${caught}` : undefined;
}

export function jsSkips(root: SyntaxNode): SkipEvidence[] {
  const out: SkipEvidence[] = [];
  const add = (mechanism: SkipMechanism, node: SyntaxNode, snippet?: string) => out.push({ mechanism, line: at(node)[0], column: at(node)[1], snippet: (snippet ?? node.text.split("\n")[0]!.trim()).slice(0, 160) });
  for (const clause of js(root, "catch_clause")) {
    const stmts = body(clause.childForFieldName("body"));
    const text = stmts.map((s) => s.text).join("\n");
    const tryStmt = clause.parent;
    const loop = itemLoop(clause);
    const fin = tryStmt?.namedChildren.find((c) => c.type === "finally_clause");
    if (!SURFACE.test(text) && stmts.every((s) => isLog(s) || s.type === "continue_statement" || s.type === "return_statement" || s.type === "empty_statement") && loop && tryStmt) {
      const marks = [...stmts.filter(isProgress), ...(fin ? body(fin.namedChildren.find((c) => c.type === "statement_block")).filter(isProgress) : [])];
      const parent = tryStmt.parent;
      if (parent?.type === "statement_block" && !stmts.some((s) => s.type === "continue_statement" || s.type === "return_statement")) marks.push(...parent.namedChildren.filter((s) => s.startIndex > tryStmt.startIndex && isProgress(s)));
      for (const m of marks) add("progress-past-failure", m);
    }
    if (SURFACE.test(text)) continue;
    if (exitsZero(text)) {
      add(atTop(clause) ? "catch-all-exit-0" : "exit-0-on-failure", clause);
      continue;
    }
    const corrupt = tryStmt ? corruptReadAsAbsent(clause, tryStmt, stmts) : undefined;
    if (corrupt) {
      // Anchored at the answer (the catch's return), the line readers point at, not a comment-long catch's first line.
      add("error-as-empty", stmts.at(-1)?.type === "return_statement" ? stmts.at(-1)! : clause, `${clause.text.split("\n")[0]!.trim()} … ${corrupt}  (a file that is there but cannot be read or parsed answers the same as none)`);
      continue;
    }
    const last = stmts.at(-1);
    const returnsEmpty = last?.type === "return_statement" && EMPTY.test(last.namedChildren[0]?.text ?? "") && stmts.slice(0, -1).every(logsOnlyDeep);
    const tryBody = tryStmt?.childForFieldName("body");
    if (returnsEmpty && last.namedChildren.length > 0 && tryBody && doesWork(tryBody) && !(loop && LOOPS.has(loop.type)) && !readsOwnState(tryBody, root)) {
      add("error-as-empty", clause, `${clause.text.split("\n")[0]!.trim()} … ${last.text}`);
      continue;
    }
    // `try { … findings.push(…) } catch { /* git diff failed, skip */ } return findings;`: a failure that only logs falls
    // through to returning the collection the try was filling, still empty, and the caller reads "nothing found".
    const unfilled = !loop && tryStmt && tryBody && stmts.every(logsOnlyDeep) && doesWork(tryBody) ? returnsUnfilled(tryStmt) : undefined;
    if (unfilled) {
      add("error-as-empty", clause, `${clause.text.split("\n")[0]!.trim()} … (falls through to ${unfilled})`);
      continue;
    }
    if (!loop || !tryStmt) continue;
    const logsOnly = stmts.every((s) => s.type === "continue_statement" || s.type === "return_statement" || s.type === "empty_statement" || isLog(s));
    if (!logsOnly || !tryBody || !doesWork(tryBody)) continue;
    // A file that cannot be read or parsed, passed over without a word, is a malformed input filtered out (a cache entry).
    if (!stmts.some(isLog) && readsOnly(tryBody)) continue;
    // A loop that stops at the first alternative that works (a mirror, a source) tries the next one on a failure.
    if (firstSuccess(loop, tryBody)) continue;
    if (stmts.some((s) => s.type === "continue_statement") || (stmts.length > 0 && fallsThrough(tryStmt, loop)) || (FUNCTIONS.has(loop.type) && stmts.some((s) => s.type === "return_statement"))) add("log-only-skip", clause);
  }
  // `.catch(() => [])`, `.catch((e) => { console.error(e); return null; })`.
  for (const call of js(root, "call_expression")) {
    const fn = call.childForFieldName("function");
    if (fn?.type !== "member_expression" || fn.childForFieldName("property")?.text !== "catch") continue;
    const handler = call.childForFieldName("arguments")?.namedChildren[0];
    if (!handler || !FUNCTIONS.has(handler.type)) continue;
    const b = handler.childForFieldName("body");
    if (!b || SURFACE.test(b.text)) continue;
    if (exitsZero(b.text)) add("exit-0-on-failure", call, `.catch(${handler.text.split("\n")[0]!.slice(0, 80)})`);
    else if (onlyInMessages(call)) continue;
    else if (b.type !== "statement_block" ? EMPTY.test(b.text) : (() => {
      const s = body(b);
      const last = s.at(-1);
      return last?.type === "return_statement" && EMPTY.test(last.namedChildren[0]?.text ?? "") && s.slice(0, -1).every(isLog);
    })()) add("error-as-empty", call, `.catch(${handler.text.split("\n")[0]!.slice(0, 80)})`);
  }
  for (const ifs of js(root, "if_statement")) {
    const cond = ifs.childForFieldName("condition");
    if (!cond) continue;
    const stmts = body(ifs.childForFieldName("consequence"));
    const text = stmts.map((s) => s.text).join("\n");
    if (SURFACE.test(text)) continue;
    const loop = itemLoop(ifs);
    if (BUDGET.test(withoutItemFields(cond.text, loop)) && loop && stmts.some((s) => /^(break|continue|return)_statement$/.test(s.type))) {
      add("budget-stop", ifs);
      continue;
    }
    if (exitsZero(text) && /!\s*\w+\.ok\b|\.ok\s*===?\s*false|\b(err|error)\b|status(Code)?\s*!==?\s*200|status(Code)?\s*>=\s*[45]00|code\s*!==?\s*0/.test(cond.text)) {
      add("exit-0-on-failure", ifs);
      continue;
    }
    // `if (done >= MAX) break;` on a counter the loop raises.
    if (loop && LOOPS.has(loop.type) && stmts.some((s) => s.type === "break_statement") && /(>=|>|===?)\s*[\w.]+\s*\)?$/.test(cond.text) && CAP_NAME.test(cond.text) && !/time|ms|sec|deadline|budget/i.test(cond.text)) {
      if (doesWork(loop.childForFieldName("body")) && !capBoundsAnswer(cond, loop, root)) add("cap-deferral", ifs);
    }
  }
  for (const loop of js(root, "for_in_statement")) {
    const coll = capSlice(loop.childForFieldName("right"));
    if (coll && doesWork(loop.childForFieldName("body")) && !remainderTold(scopeOf(loop), coll, loop.childForFieldName("right")!)) add("cap-deferral", loop);
  }
  for (const call of js(root, "call_expression")) {
    const fn = call.childForFieldName("function");
    if (fn?.type !== "member_expression" || !/^(forEach|map)$/.test(fn.childForFieldName("property")?.text ?? "")) continue;
    const coll = capSlice(fn.childForFieldName("object"));
    if (coll && doesWork(call.childForFieldName("arguments")) && !remainderTold(scopeOf(call), coll, fn.childForFieldName("object")!)) add("cap-deferral", call);
  }
  // `const kept = sortFindings(valid).slice(0, MAX_FINDINGS)` then work on `kept`: the rest of `valid` is dropped.
  for (const decl of /\.slice\(\s*0\s*,/.test(root.text) ? js(root, "variable_declarator") : []) {
    const value = decl.childForFieldName("value");
    const id = decl.childForFieldName("name");
    if (value?.type !== "call_expression" || id?.type !== "identifier") continue;
    const coll = capSlice(value) ?? cappedThrough(value);
    if (!coll) continue;
    const scope = scopeOf(decl);
    const uses = scope.descendantsOfType("identifier").filter((u) => u.text === id.text && u.startIndex > decl.endIndex);
    const worked = uses.some((u) => {
      const call = u.parent?.type === "arguments" ? u.parent.parent : undefined;
      const loop = u.parent?.type === "for_in_statement" ? u.parent : undefined;
      return (call?.type === "call_expression" && doesWork(call)) || (loop !== undefined && doesWork(loop.childForFieldName("body")));
    });
    if (worked && !remainderTold(scope, coll, value)) add("cap-deferral", decl.parent ?? decl);
  }
  jsUnconfirmedSends(root, add);
  jsSuccessOnFailure(root, add);
  jsFailureAsNothing(root, add);
  stampPastFailure(root, JS_STAMPS, (node, snippet) => add("progress-past-failure", node, snippet));
  return out;
}
