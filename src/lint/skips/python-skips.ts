// Finds, in a Python syntax tree, the code shapes that leave work undone without telling anyone: an item loop whose
// failure branch only logs, a budget or deadline stop, a catch-all that exits 0, and a skipped/failed list that only
// reaches stderr or a count. Behaviour, never words: comments are not in the tree and docstrings are never read.
import type { SkipEvidence, SkipMechanism } from "../source/facts.js";
import { callArgs, dotted } from "../source/python.js";
import { at, nodesOf, type SyntaxNode } from "../source/tree-sitter.js";
import { pythonStamps } from "./python-stamps.js";
import { onlyFillsLookupTables } from "./python-lookup-tables.js";
import { PYTHON_STAMPS } from "./stamp-grammars.js";
import { stampPastFailure } from "./stamp-past-failure.js";
import { pythonMoreSkips } from "./python-more.js";

const PY_TYPES = ["except_clause", "if_statement", "for_statement", "try_statement", "assignment"];
const py = (root: SyntaxNode, type: string) => nodesOf(root, type, PY_TYPES);

export const LOG_CALL = /^(?:[\w.]*\.)?(logging|logger|log|LOG|_log|LOGGER|_logger)\.\w+$|^warnings\.warn\w*$|^(sys\.stderr\.write|_?e?print_?err\w*|_?(log|debug|info|warn|warning)\w*)$/;
export const SURFACE_CALL = /send|notify|notif|alert|emit_skip|skip_and_exit|skip_summary|emit|report|surface|page|escalate/i;
// A budget by name, or a deadline compared with a clock: `deadline` alone is often data (a CFP's deadline).
const BUDGET = /budget|elapsed|time_left|remaining_(s|sec|secs|seconds|time)|out_of_time|monotonic\(|perf_counter\(|time\.time\(/i;
/**
 * Calls that only read or parse a value: a loop that passes over what cannot be read or parsed, without a word, is
 * filtering its input (best effort), unless it says so; one that writes, sends or collects is doing the work.
 */
export const PARSE = /^(int|float|str|bool|bytes|Decimal|dict|tuple|list|set|min|max|abs|round|sum|len|sorted|any|all|isinstance|getattr|\w*\.?fromisoformat|\w*\.?strptime|\w*\.?fromtimestamp|json\.loads?|\w*parse\w*|_\w*parse\w*|\w*\.?(?:urlsafe_)?b64decode|\w*\.?unquote|\w*\.?literal_eval|\w*\.?fromstring|os\.kill|\w+\.(kill|terminate|close|unlink|rmdir|cleanup|replace|strip|lstrip|rstrip|split|lower|upper|get|group|match|search|read|read_text|read_bytes|exists|is_file|is_dir|stat|getAttribute|getElementsByTagName|decode|encode|items|keys|values|startswith|endswith|format)|open)$/;
export const HARMLESS_EXC = /^(FileNotFoundError|StopIteration|KeyboardInterrupt|GeneratorExit|ImportError|ModuleNotFoundError|NotADirectoryError|ProcessLookupError|ChildProcessError)$/;
export const NARROW_EXC = /^(ValueError|KeyError|IndexError|TypeError|AttributeError|UnicodeDecodeError|UnicodeEncodeError)$/;
const COLLECTION = /(^|_)(skip(ped|s)?|fail(ed|ures?|s)?|defer(red)?|drop(ped)?|errors?|invalid|malformed|unprocessed|rejected|leftover|not_done)(_|$)/i;
export const LOOPS = new Set(["for_statement", "while_statement"]);
export const SCOPES = new Set(["function_definition", "class_definition", "module", "lambda"]);

export function snippetOf(node: SyntaxNode): string {
  return node.text.split("\n")[0]!.trim().slice(0, 160);
}

export function enclosingLoop(node: SyntaxNode): SyntaxNode | undefined {
  for (let p = node.parent; p; p = p.parent) {
    if (LOOPS.has(p.type)) return p;
    if (SCOPES.has(p.type)) return undefined;
  }
  return undefined;
}

export function statements(block: SyntaxNode | null | undefined): SyntaxNode[] {
  return (block?.namedChildren ?? []).filter((c) => c.type !== "comment");
}

export function calleeOf(stmt: SyntaxNode): { name: string; call: SyntaxNode } | undefined {
  const e = stmt.type === "expression_statement" ? stmt.namedChildren[0] : stmt;
  if (e?.type !== "call") return undefined;
  const fn = e.childForFieldName("function");
  return { name: dotted(fn) || (fn?.type === "attribute" ? fn.childForFieldName("attribute")!.text : fn?.text ?? ""), call: e };
}

export function isLog(stmt: SyntaxNode): boolean {
  const c = calleeOf(stmt);
  if (!c) return false;
  if (c.name === "print") return /file\s*=\s*sys\.stderr/.test(c.call.text);
  if (LOG_CALL.test(c.name)) return true;
  // A helper of the file that only prints or logs (`timestamped_log(msg, error=True)`) is a log line too.
  const short = c.name.replace(/^self\./, "");
  return currentRoot !== null && /^\w+$/.test(short) && logHelpers().has(short);
}

/** A call of a function of the file whose body only prints or logs (`emit_record(lock, payload)`), whatever its name. */
function printHelperCall(stmt: SyntaxNode): boolean {
  const short = calleeOf(stmt)?.name.replace(/^self\./, "") ?? "";
  return currentRoot !== null && /^\w+$/.test(short) && logHelpers().has(short);
}

/** Calls a log helper may make besides printing: formatting a time or a message, writing to its log file. */
const FORMAT_CALL = /^(?:str|repr|len|open|format|ZoneInfo|[\w.]*\.(?:now|utcnow|strftime|isoformat|write|flush|replace|strip|join|format|dumps|get|astimezone|encode|decode)|time\.\w+|datetime\.\w+)$/;

/** The file being read by pythonSkips, and its log helpers once asked for: isLog is hot, so no walk to the root per call. */
let currentRoot: SyntaxNode | null = null;
let currentHelpers: ReadonlySet<string> | null = null;

/** Names of the functions of the file being read whose body only prints or logs. */
function logHelpers(): ReadonlySet<string> {
  if (!currentRoot) return new Set();
  if (currentHelpers) return currentHelpers;
  const names = new Set<string>();
  for (const fn of currentRoot.descendantsOfType("function_definition")) {
    const body = fn.childForFieldName("body");
    const calls = body?.descendantsOfType("call") ?? [];
    // `datetime.now().strftime(...)` has no dotted name: its method name is what it does.
    const callee = (c: SyntaxNode) => {
      const f = c.childForFieldName("function");
      return dotted(f) || (f?.type === "attribute" ? `x.${f.childForFieldName("attribute")?.text ?? ""}` : f?.text ?? "");
    };
    const prints = calls.filter((c) => callee(c) === "print" || LOG_CALL.test(callee(c)));
    if (prints.length === 0 || !calls.every((c) => prints.includes(c) || FORMAT_CALL.test(callee(c)))) continue;
    if (body!.descendantsOfType(["raise_statement", "return_statement", "yield"]).some((r) => r.type !== "return_statement" || r.namedChildren.length > 0)) continue;
    const name = fn.childForFieldName("name")?.text;
    if (name) names.add(name);
  }
  return (currentHelpers = names);
}

/** `sys.exit(2)`, `exit(1)`, `raise`: the run does not end clean. */
export function exitsNonZero(node: SyntaxNode): boolean {
  if (node.descendantsOfType("raise_statement").length > 0 || node.type === "raise_statement") return true;
  for (const call of [node, ...node.descendantsOfType("call")]) {
    if (call.type !== "call") continue;
    const name = dotted(call.childForFieldName("function"));
    if (!/^(sys\.exit|exit|os\._exit|quit)$/.test(name)) continue;
    const arg = callArgs(call).positional[0];
    if (arg && !/^(0|None|False)$/.test(arg.text)) return true;
  }
  return false;
}

export function surfaces(node: SyntaxNode): boolean {
  if (exitsNonZero(node)) return true;
  return [node, ...node.descendantsOfType("call")].some((c) => c.type === "call" && SURFACE_CALL.test(dotted(c.childForFieldName("function")) || c.childForFieldName("function")?.text || ""));
}

/** The failure branch does nothing a person would see: log lines, counters, `pass`, then continue/return. */
export function onlyLogs(body: SyntaxNode[]): boolean {
  let leaves = false;
  for (const s of body) {
    if (s.type === "continue_statement" || s.type === "pass_statement") leaves = true;
    else if (s.type === "return_statement") {
      const v = s.namedChildren[0];
      if (v && !/^(None|False|\[\]|\{\}|0|""|'')$/.test(v.text)) return false;
      leaves = true;
    } else if (s.type === "expression_statement" && s.namedChildren[0]?.type === "augmented_assignment") continue;
    else if (!isLog(s)) return false;
  }
  return leaves || body.length > 0;
}

export function caughtNames(clause: SyntaxNode): string[] {
  const first = clause.namedChildren.find((c) => c.type !== "block" && c.type !== "comment");
  if (!first) return [];
  const target = first.type === "as_pattern" ? first.namedChildren[0] : first;
  if (!target) return [];
  return target.type === "tuple" ? target.namedChildren.map((n) => n.text) : [target.text];
}

export function pythonSkips(root: SyntaxNode): SkipEvidence[] {
  currentRoot = root;
  currentHelpers = null;
  try {
    return readPython(root);
  } finally {
    currentRoot = null;
    currentHelpers = null;
  }
}

function readPython(root: SyntaxNode): SkipEvidence[] {
  const out: SkipEvidence[] = [];
  const add = (mechanism: SkipMechanism, node: SyntaxNode, fields?: readonly string[], snippet?: string) =>
    out.push({ mechanism, line: at(node)[0], column: at(node)[1], snippet: (snippet ?? snippetOf(node)).slice(0, 200), ...(fields ? { fields } : {}) });
  const taken = pythonMoreSkips(root, add);
  for (const clause of py(root, "except_clause")) {
    if (taken.has(clause.startIndex)) continue;
    const body = statements(clause.namedChildren.find((c) => c.type === "block"));
    const names = caughtNames(clause);
    const broad = names.length === 0 || names.some((n) => /^(Exception|BaseException)$/.test(n));
    if (broad && catchAllExitsZero(clause, body)) add("catch-all-exit-0", clause);
    if (names.length > 0 && names.every((n) => HARMLESS_EXC.test(n.replace(/^\w+\./, "")))) continue;
    if (!enclosingLoop(clause) || body.length === 0) continue;
    // A helper of the file that only prints (`emit_record(lock, {"type": "error", ...})` is `print(json.dumps(...))`)
    // is a log line whatever its name says: what it writes reaches the owner only if someone reads the output.
    if (body.some((s) => (surfaces(s) && !printHelperCall(s)) || /\.(append|extend|add)\(/.test(s.text))) continue;
    const tryBlock = clause.parent?.type === "try_statement" ? clause.parent.namedChildren.find((c) => c.type === "block") : undefined;
    // One line of a JSON Lines file is one record: a line that does not decode, passed over with `continue` and no
    // count, is a record lost, not a malformed value filtered out (readers: a writer that breaks its lines loses them all).
    if (tryBlock && jsonlRecord(tryBlock, enclosingLoop(clause)!) && body.some((s) => s.type === "continue_statement") && body.every((s) => s.type === "continue_statement" || s.type === "pass_statement" || isLog(s))) {
      add("log-only-skip", clause);
      continue;
    }
    if (!body.some(isLog) && tryBlock && parseOnly(tryBlock)) continue;
    // A bare `except ValueError: pass` says nothing and catches only a bad value: the loop filters its input.
    if (!body.some(isLog) && names.length > 0 && names.every((n) => NARROW_EXC.test(n) || /^(JSONDecodeError|XMLSyntaxError|ParseError|DecodeError)$/.test(n.replace(/^[\w.]+\./, "")))) continue;
    // A record that does not decode (JSON, XML, text) is a malformed input passed over, not work that failed.
    if (names.length > 0 && names.every((n) => /^(JSONDecodeError|XMLSyntaxError|UnicodeDecodeError|ParseError|DecodeError|BrokenPipeError|ConnectionResetError|PermissionError)$/.test(n.replace(/^[\w.]+\./, "")))) continue;
    // A peer that went away (a closed pipe or socket, with the OSError family it belongs to) is not work that failed.
    const short = names.map((n) => n.replace(/^[\w.]+\./, ""));
    if (short.some((n) => /^(BrokenPipeError|ConnectionResetError|ConnectionAbortedError)$/.test(n)) && short.every((n) => /^(BrokenPipeError|ConnectionResetError|ConnectionAbortedError|OSError|IOError|error)$/.test(n))) continue;
    // Failing to delete an old file or backup is cleanup left for next time, not work left undone.
    if (tryBlock && !body.some(isLog) && deletesOnly(tryBlock)) continue;
    // A loop that stops at the first alternative that works (a selector, a strategy, a mirror) tries the next one on a failure.
    const loop = enclosingLoop(clause);
    if (tryBlock && loop && firstSuccessLoop(loop, tryBlock, clause)) continue;
    // A timeout on a wait (`asyncio.wait_for(stop.wait(), timeout=interval)`, `queue.get(timeout=5)`) is the loop's
    // interval running out, not work that failed.
    if (tryBlock && waitTimesOut(tryBlock, short)) continue;
    // `pass` leaves the item only when nothing after the try statement works on it; `continue` or `return` always do.
    if (onlyLogs(body) && (body.some((s) => s.type === "continue_statement" || s.type === "return_statement") || fallsThroughToNextItem(clause))) add("log-only-skip", clause);
  }
  for (const ifs of py(root, "if_statement")) {
    const cond = ifs.childForFieldName("condition");
    const loop = enclosingLoop(ifs);
    // The loop item's own fields (`if item.budget <= 0: continue`) filter that item; a budget is what the run spends.
    const target = loop?.type === "for_statement" ? loop.childForFieldName("left") : undefined;
    const itemVars = !target ? [] : target.type === "identifier" ? [target.text] : target.descendantsOfType("identifier").map((i) => i.text);
    const own = itemVars.reduce((t, n) => (n ? t.replace(new RegExp(`\\b${n}(\\.\\w+|\\[[^\\]]*\\])+`, "g"), "") : t), cond?.text ?? "");
    if (!cond || !BUDGET.test(own) || !loop) continue;
    const body = statements(ifs.childForFieldName("consequence"));
    const stops = body.some((s) => /^(break|continue|return)_statement$/.test(s.type));
    if (stops && !body.some(surfaces)) add("budget-stop", ifs, appended(body));
  }
  out.push(...collections(root));
  out.push(...pythonStamps(root));
  stampPastFailure(root, PYTHON_STAMPS, (node, snippet) => out.push({ mechanism: "progress-past-failure", line: at(node)[0], column: at(node)[1], snippet }));
  return out;
}

/**
 * An except branch with no `continue` still drops the item when nothing after its try statement in the loop body does
 * anything more with it: the loop simply goes on to the next one.
 */
function fallsThroughToNextItem(clause: SyntaxNode): boolean {
  const tryStmt = clause.parent;
  const block = tryStmt?.parent;
  if (tryStmt?.type !== "try_statement" || block?.type !== "block" || !LOOPS.has(block.parent?.type ?? "")) return false;
  // A wait before the next round (`time.sleep(...)`) does nothing with the item either.
  return statements(block).filter((s) => s.startIndex > tryStmt.startIndex).every((s) => isLog(s) || (s.type === "expression_statement" && s.namedChildren[0]?.type === "augmented_assignment") || /^(time\.|asyncio\.)?sleep$/.test(calleeOf(s)?.name ?? "") || /^await\s+asyncio\.sleep\(/.test(s.text));
}

/**
 * The try block only waits (an event, a queue, a sleep, `asyncio.wait_for` around one of them) and the except catches
 * the wait's timeout or an empty queue: the interval ran out, which is how a timed loop wakes up.
 */
function waitTimesOut(block: SyntaxNode, caught: readonly string[]): boolean {
  if (caught.length === 0 || !caught.every((n) => /^(TimeoutError|Timeout|Empty|CancelledError)$/.test(n))) return false;
  const calls = block.descendantsOfType("call");
  return calls.length > 0 && calls.every((c) => /(^|\.)(wait_for|wait|sleep|get|join|acquire)$/.test(dotted(c.childForFieldName("function")) || c.childForFieldName("function")?.text || ""));
}

/** Every call in the block deletes a file or folder (`os.remove`, `shutil.rmtree`, `path.unlink()`). */
function deletesOnly(block: SyntaxNode): boolean {
  const calls = block.descendantsOfType("call");
  return calls.length > 0 && calls.every((c) => /(^|\.)(remove|unlink|rmtree|rmdir|removedirs)$/.test(dotted(c.childForFieldName("function")) || c.childForFieldName("function")?.text || ""));
}

/**
 * The loop ends at its first success: an unconditional `break` of this loop in the try block, or one in an `if` on a
 * value the try block sets (`if price: break`). Such a loop walks alternatives, and a failure moves on to the next alternative.
 */
export function firstSuccessLoop(loop: SyntaxNode, tryBlock: SyntaxNode, clause: SyntaxNode): boolean {
  const set = new Set(tryBlock.descendantsOfType("assignment").map((a) => a.childForFieldName("left")).filter((l) => l?.type === "identifier").map((l) => l!.text));
  const body = loop.childForFieldName("body");
  // `return True` / `return result` from the try block: the function answers with the first alternative that worked,
  // also from a loop inside the try (`for line in path.read_text().splitlines(): ... return value`).
  const fnOf = (n: SyntaxNode) => {
    for (let p = n.parent; p; p = p.parent) if (p.type === "function_definition" || p.type === "lambda") return p.startIndex;
    return -1;
  };
  for (const ret of tryBlock.descendantsOfType("return_statement")) {
    const v = ret.namedChildren[0];
    if (v && !/^(None|False|\[\]|\{\}|0|""|'')$/.test(v.text) && (enclosingLoop(ret)?.startIndex === loop.startIndex || fnOf(ret) === fnOf(loop))) return true;
  }
  for (const brk of body?.descendantsOfType("break_statement") ?? []) {
    if (enclosingLoop(brk)?.startIndex !== loop.startIndex || (brk.startIndex >= clause.startIndex && brk.endIndex <= clause.endIndex)) continue;
    if (brk.parent?.startIndex === tryBlock.startIndex) return true;
    for (let p = brk.parent; p && p.startIndex !== loop.startIndex; p = p.parent) {
      const cond = p.type === "if_statement" ? p.childForFieldName("condition") : undefined;
      if (cond && cond.descendantsOfType("identifier").some((id) => set.has(id.text)) || (cond?.type === "identifier" && set.has(cond.text))) return true;
    }
  }
  return false;
}

/** Every call in the block only parses or converts a value (no write, no fetch, no append). */
export function parseOnly(block: SyntaxNode): boolean {
  return block.descendantsOfType("call").every((c) => {
    const fn = c.childForFieldName("function");
    return PARSE.test(dotted(fn) || (fn?.type === "attribute" ? `x.${fn.childForFieldName("attribute")?.text}` : fn?.text ?? ""));
  });
}

/** Names appended to in a branch: the deferred items may be reported through them. */
function appended(body: SyntaxNode[]): string[] | undefined {
  const names = body.flatMap((s) => [...s.text.matchAll(/\b(\w+)\.(append|extend|add)\(/g)].map((m) => m[1]!));
  return names.length > 0 ? names : undefined;
}

function catchAllExitsZero(clause: SyntaxNode, body: SyntaxNode[]): boolean {
  if (body.some(surfaces)) return false;
  const exitZero = body.some((s) => {
    const c = calleeOf(s);
    return c !== undefined && /^(sys\.exit|exit|os\._exit)$/.test(c.name) && /^\(\s*(0)?\s*\)$/.test(c.call.childForFieldName("arguments")?.text ?? "");
  });
  if (exitZero) return true;
  // `try: main() except Exception: pass` at the top of the script.
  let scope = clause.parent;
  while (scope && !SCOPES.has(scope.type) && scope.type !== "if_statement") scope = scope.parent;
  const top = scope?.type === "module" || (scope?.type === "if_statement" && /__name__/.test(scope.childForFieldName("condition")?.text ?? ""));
  return top && body.every((s) => s.type === "pass_statement" || isLog(s)) && !onlyFillsLookupTables(clause);
}

/**
 * A list named for skipped or failed items (`skipped = []`, then `.append`) that reaches nothing but stderr, a log
 * or `len(...)`. A list put into a result field is reported with the field, and it is fine when SKILL.md tells the
 * agent to relay that field; a list passed anywhere else (returned, sent, in an exit code) is taken as surfaced.
 */
function collections(root: SyntaxNode): SkipEvidence[] {
  const out: SkipEvidence[] = [];
  // Lists a failure branch records items in: where they go decides whether the owner hears of the failures.
  const failureLists = new Set<string>();
  for (const clause of py(root, "except_clause")) {
    if (!enclosingLoop(clause)) continue;
    for (const m of clause.text.matchAll(/\b(\w+)\.(append|extend|add)\(/g)) failureLists.add(m[1]!);
  }
  for (const assign of py(root, "assignment")) {
    const left = assign.childForFieldName("left");
    const right = assign.childForFieldName("right");
    if (left?.type !== "identifier" || !right || !/^(\[\]|list\(\)|set\(\)|\{\})$/.test(right.text) || !(COLLECTION.test(left.text) || failureLists.has(left.text))) continue;
    const name = left.text;
    let scope = assign.parent;
    while (scope && !SCOPES.has(scope.type)) scope = scope.parent;
    if (!scope) continue;
    const uses = scope.descendantsOfType("identifier").filter((id) => id.text === name && id.startIndex !== left.startIndex);
    let added = false;
    let escapes = false;
    const fields: string[] = [];
    for (const id of uses) {
      const parent = id.parent;
      if (parent?.type === "attribute" && parent.childForFieldName("object") === null) continue;
      if (parent?.type === "attribute" && /^(append|extend|add|insert)$/.test(parent.childForFieldName("attribute")?.text ?? "")) {
        added = true;
        continue;
      }
      const field = fieldOf(id);
      if (field !== undefined) {
        fields.push(field);
        continue;
      }
      if (countedIntoResult(id)) {
        escapes = true;
        continue;
      }
      if (stderrOnly(id)) continue;
      escapes = true;
    }
    if (added && !escapes) out.push({ mechanism: "unrelayed-collection", line: at(assign)[0], column: at(assign)[1], snippet: snippetOf(assign), ...(fields.length > 0 ? { fields } : {}) });
  }
  return out;
}

/** `{"failed": failed}` or `result["failed"] = failed`: the field the list is published under. */
export function fieldOf(id: SyntaxNode): string | undefined {
  let n: SyntaxNode = id;
  while (n.parent && /^(list_comprehension|call|argument_list|parenthesized_expression|list|sorted)$/.test(n.parent.type) && !/^(len)$/.test(dotted(n.parent.childForFieldName("function")))) n = n.parent;
  const p = n.parent;
  if (p?.type === "pair") return p.childForFieldName("key")?.text.replace(/^["']|["']$/g, "");
  if (p?.type === "keyword_argument") return p.childForFieldName("name")?.text;
  if (p?.type === "assignment" && p.childForFieldName("right")?.startIndex === n.startIndex) {
    const left = p.childForFieldName("left");
    if (left?.type === "subscript") return left.childForFieldName("subscript")?.text.replace(/^["']|["']$/g, "");
    if (left?.type === "attribute") return left.childForFieldName("attribute")?.text;
  }
  return undefined;
}

/**
 * `{"ok": len(errors) == 0, ...}` or `state.update({"last_errors": len(failed)})`: the list's count or emptiness is a
 * field of a result or state record, so whoever reads that record sees that items failed (a count in a log call's
 * arguments is still only a log).
 */
function countedIntoResult(id: SyntaxNode): boolean {
  let counted = false;
  for (let p = id.parent; p && !/(_statement|_definition|block)$/.test(p.type); p = p.parent) {
    if (p.type === "call") {
      const name = dotted(p.childForFieldName("function"));
      if (name === "len" || name === "bool") counted = true;
      else if (LOG_CALL.test(name) || name === "print") return false;
    }
    if (p.type === "not_operator" || p.type === "comparison_operator") counted = true;
    if (p.type === "pair") {
      if (!counted) return false;
      for (let q = p.parent; q && !/(_statement|_definition|block)$/.test(q.type); q = q.parent) {
        const name = q.type === "call" ? dotted(q.childForFieldName("function")) : "";
        if (LOG_CALL.test(name) || (name === "print" && /file\s*=\s*sys\.stderr/.test(q.text))) return false;
      }
      return true;
    }
  }
  return false;
}

/** The use only logs the list or counts it. */
export function stderrOnly(id: SyntaxNode): boolean {
  for (let p = id.parent; p && !/(_statement|_definition|block)$/.test(p.type); p = p.parent) {
    if (p.type === "call") {
      const name = dotted(p.childForFieldName("function"));
      if (name === "len" || name === "bool") return true;
      if (name === "print") return /file\s*=\s*sys\.stderr/.test(p.text);
      if (LOG_CALL.test(name)) return true;
    }
    if (p.type === "if_statement" || p.type === "conditional_expression" || p.type === "boolean_operator" || p.type === "not_operator") {
      const stmt = p.type === "if_statement" ? p : undefined;
      if (stmt && !surfaces(stmt) && !returnsFailure(stmt)) return true;
    }
  }
  // `for x in failed:` that only logs each one.
  const loop = id.parent;
  if (loop?.type === "for_statement" && loop.childForFieldName("right")?.startIndex === id.startIndex) return statements(loop.childForFieldName("body")).every(isLog);
  if (id.parent?.type === "if_statement" || id.parent?.type === "not_operator") {
    const stmt = id.parent.type === "if_statement" ? id.parent : id.parent.parent ?? id.parent;
    return !surfaces(stmt) && !returnsFailure(stmt);
  }
  return false;
}

/**
 * `if errors: ...; return False` (or `return 1`): the function answers failure to its caller, which is how a
 * validator or a step tells the run it failed; what the caller does with it is the caller's question.
 */
function returnsFailure(ifs: SyntaxNode): boolean {
  const body = statements(ifs.childForFieldName("consequence"));
  return body.some((s) => s.type === "return_statement" && /^(False|[1-9]\d*|-1)$/.test(s.namedChildren[0]?.text ?? ""));
}

/**
 * The try block only decodes the loop's line as JSON (`for line in f: ... rec = json.loads(line)`, or over
 * `path.read_text().splitlines()`): each line is a record of a JSON Lines file.
 */
function jsonlRecord(block: SyntaxNode, loop: SyntaxNode): boolean {
  if (loop.type !== "for_statement") return false;
  const v = loop.childForFieldName("left")?.text;
  const calls = block.descendantsOfType("call");
  return calls.length === 1 && /^json\.loads$/.test(dotted(calls[0]!.childForFieldName("function"))) && callArgs(calls[0]!).positional[0]?.text === v;
}
