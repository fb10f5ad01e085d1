// The Python shapes of the later kinds of silent skip (issue 25): a cap by count whose remainder reaches nobody, an
// error turned into an empty result or into exit 0, a step skipped when a tool is missing, and a progress mark moved
// past failed items. Each asks the same question of the data, not of words: does the skipped item, or its count,
// reach a message, a skip summary, a non-zero exit or a result field; if not, it is silent.
import type { SkipEvidence, SkipMechanism } from "../source/facts.js";
import { callArgs, dotted } from "../source/python.js";
import { at, nodesOf, nodesWithin, type SyntaxNode } from "../source/tree-sitter.js";
import { emptyStandIns, failureAsNothing, OPERATIONAL_EXC, successOnFailure, unconfirmedSends, wakeOffOnFailure } from "./python-failing-calls.js";
import { SUCCESS_STATE } from "./js-failing-calls.js";
import { calleeOf, caughtNames, enclosingLoop, exitsNonZero, fieldOf, firstSuccessLoop, isLog, LOG_CALL, parseOnly, SCOPES, snippetOf, statements, surfaces } from "./python-skips.js";

const PY_TYPES = ["except_clause", "if_statement", "for_statement", "try_statement", "assignment"];
const py = (root: SyntaxNode, type: string) => nodesOf(root, type, PY_TYPES);

const CAP_NAME = /max|limit|cap\b|_cap|quota|batch|per_run|per_day|top_?n|chunk|^n$|^k$|count$/i;
/** A failure as a condition: a bad exit status, a response that is not ok, an error value. */
const FAILURE_COND = /returncode\s*!=\s*0|returncode\s*(>|!=)|status_code\s*(!=|>=\s*[45]|>\s*[23])|\bnot\s+[\w.]*\b(ok|success|succeeded)\b|\.ok\s*(is|==)\s*False|\b(err|error|errors|exc|failed|failure)\b(?!\s*(is None|==\s*None|=))/;
/** Empty answers a caller reads as "nothing there". `None` and `False` are left out: callers check them as failures. */
const EMPTY_VALUE = /^(\[\]|\{\}|""|''|0|set\(\)|\(\)|list\(\)|dict\(\))$/;
export const PROGRESS_NAME = /^_?(last_?(id|ids|seen|run|run_at|sync|synced|synced_at|processed|processed_at|checked|fetch|fetched|fetched_at|update|updated|updated_at|timestamp|ts|time|date|modified|message_id|uid|cursor|offset|page|token|index|position|pos)|watermark|high_?water(_?mark)?|cursor|since|checkpoint|processed(_ids|_urls|_keys)?|seen(_ids|_urls|_keys)?|done(_ids)?|handled(_ids)?|synced(_ids)?|completed(_ids)?)$/i;
const PROGRESS_CALL = /^(mark_(as_)?(done|processed|seen|handled|complete|completed|read|synced)|save_(cursor|watermark|checkpoint|progress|last_\w+)|set_(cursor|watermark|checkpoint|last_\w+)|advance_\w+|update_(cursor|watermark|checkpoint|last_\w+)|record_(progress|last_\w+))$/;

/** Exceptions about a value that does not parse or is not there, not about work that failed. */
export const DATA_EXC = /^(ValueError|KeyError|IndexError|TypeError|AttributeError|UnicodeDecodeError|UnicodeEncodeError|JSONDecodeError|XMLSyntaxError|ParseError|ParserError|DecodeError|PermissionError|FileNotFoundError|IsADirectoryError|NotADirectoryError|BrokenPipeError|ConnectionResetError|StopIteration)$/;

type Add = (mechanism: SkipMechanism, node: SyntaxNode, fields?: readonly string[], snippet?: string) => void;

function exitZeroCall(node: SyntaxNode): boolean {
  if (node.type !== "call") return false;
  if (!/^(sys\.exit|exit|os\._exit|quit)$/.test(dotted(node.childForFieldName("function")))) return false;
  const arg = callArgs(node).positional[0];
  return !arg || /^(0|None|False)$/.test(arg.text);
}

function lastName(call: SyntaxNode): string {
  const fn = call.childForFieldName("function");
  const name = dotted(fn) || fn?.text || "";
  return name.slice(name.lastIndexOf(".") + 1);
}

/** The statement's block: the except clause, if branch or loop body it belongs to. */
function branchOf(node: SyntaxNode): SyntaxNode | undefined {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === "block") {
      const owner = p.parent;
      if (owner && /^(except_clause|if_statement|elif_clause|else_clause|for_statement|while_statement|function_definition|try_statement|with_statement|finally_clause)$/.test(owner.type)) return owner;
    }
    if (p.type === "module") return p;
  }
  return undefined;
}

/** `sys.exit(0)` inside a failure branch: an except clause, or an `if` whose condition is a failure. */
function exitZeroOnFailure(root: SyntaxNode, add: Add): void {
  for (const call of root.descendantsOfType("call")) {
    if (!exitZeroCall(call)) continue;
    const branch = branchOf(call);
    if (!branch) continue;
    const body = statements(branch.type === "except_clause" ? branch.namedChildren.find((c) => c.type === "block") : branch.childForFieldName("consequence") ?? branch.childForFieldName("body"));
    const others = body.filter((s) => !s.descendantsOfType("call").some((c) => c.startIndex === call.startIndex) && s.startIndex !== call.startIndex);
    if (others.some(surfaces)) continue;
    if (branch.type === "except_clause") {
      const names = caughtNames(branch).map((n) => n.replace(/^\w+\./, ""));
      if (names.some((n) => /^(KeyboardInterrupt|BrokenPipeError|SystemExit|GeneratorExit)$/.test(n))) continue;
      const broad = names.length === 0 || names.some((n) => /^(Exception|BaseException)$/.test(n));
      // The catch-all around main() is catch-all-exit-0's.
      if (broad && atTop(branch)) continue;
      add("exit-0-on-failure", branch, undefined, `${snippetOf(branch)} … ${call.text}`);
    } else if (branch.type === "if_statement" || branch.type === "elif_clause") {
      const cond = branch.childForFieldName("condition");
      if (cond && FAILURE_COND.test(cond.text)) add("exit-0-on-failure", branch, undefined, `${snippetOf(branch)} … ${call.text}`);
    }
  }
}

/** Commands whose failure is a test or a read, not work left undone (after `cd ... &&`). */
const READ_COMMAND = /^(?:git\s+(?:status|diff|rev-parse|log|show|ls-files|ls-remote|remote|config|branch|describe|check-ignore)|which|command|type|test|\[|ls|cat|grep|pgrep|ps|pip\s+show|systemctl\s+(?:is-active|status)|launchctl\s+list|crontab\s+-l|open|xdg-open|osascript|say|notify-send|afplay)\b/;
const STATUS_CALL = /^(os\.system|subprocess\.(?:call|run)|sp\.(?:call|run)|call|run)$/;

/** The command a status came from, as written (`os.system(f"cd {d} && git push ...")`), without its leading `cd ... &&`. */
function commandOf(call: SyntaxNode): string {
  const arg = callArgs(call).positional[0];
  if (!arg) return "";
  const text = arg.type === "list" ? arg.namedChildren.map((c) => c.text.replace(/^[fbr]?["']|["']$/g, "")).join(" ") : arg.text.replace(/^[fbr]*["']{1,3}|["']{1,3}$/g, "");
  return text.replace(/^(?:cd\s+\S+\s*&&\s*)+/, "").trim();
}

/**
 * A command of the run that failed (its exit status not 0) and whose failure branch only logs, outside an item loop,
 * when nothing after it in the function raises, exits non-zero or tells anyone: `push = os.system("git push ...")`,
 * `if push == 0: ... else: print("push failed", file=sys.stderr)`, then the run goes on to "READY" and exit 0. The
 * shell `if ! git push; then log; fi`, in Python. A fallback value set in the branch (`url = "file://..."`) is not a
 * report; a read (`git status`, `which`) is not work left undone.
 */
function failedCommandOnlyLogged(root: SyntaxNode, add: Add): void {
  const status = new Map<string, string>();
  for (const assign of py(root, "assignment")) {
    const left = assign.childForFieldName("left");
    const right = assign.childForFieldName("right");
    const call = right?.type === "attribute" && right.childForFieldName("attribute")?.text === "returncode" ? right.childForFieldName("object") : right;
    if (left?.type !== "identifier" || call?.type !== "call" || !STATUS_CALL.test(dotted(call.childForFieldName("function")))) continue;
    if (/check\s*=\s*True/.test(call.text)) continue;
    const cmd = commandOf(call);
    if (cmd !== "" && !READ_COMMAND.test(cmd)) status.set(left.text, cmd);
  }
  if (status.size === 0) return;
  for (const ifs of py(root, "if_statement")) {
    const cond = ifs.childForFieldName("condition")?.text ?? "";
    const m = /^(\w+)(\.returncode)?\s*(==|!=)\s*0$/.exec(cond.trim());
    if (!m || !status.has(m[1]!) || enclosingLoop(ifs)) continue;
    const elseClause = ifs.namedChildren.find((c) => c.type === "else_clause");
    if (m[3] === "==" && (!elseClause || ifs.namedChildren.some((c) => c.type === "elif_clause"))) continue;
    const branch = m[3] === "!=" ? ifs.childForFieldName("consequence") : elseClause?.childForFieldName("body") ?? elseClause?.namedChildren.find((c) => c.type === "block");
    const body = statements(branch ?? undefined);
    if (body.length === 0 || !body.some(isLog) || !body.every((b) => isLog(b) || b.type === "pass_statement" || (b.type === "expression_statement" && b.namedChildren[0]?.type === "assignment" && !surfaces(b)))) continue;
    if (body.some(surfaces)) continue;
    // Whatever comes after it in the function (or the module) may still fail the run or answer failure.
    let scope: SyntaxNode | null = ifs.parent;
    while (scope && !SCOPES.has(scope.type)) scope = scope.parent;
    const rest = scope ? scope.text.slice(ifs.endIndex - scope.startIndex) : "";
    if (/\braise\b|\bsys\.exit\(\s*[^)0N]|\bexit\(\s*[1-9]|\breturn\s+(?:False|None|1)\b/.test(rest) || /\b(?:send|notify|alert)\w*\(/.test(rest)) continue;
    add("exit-0-on-failure", m[3] === "!=" ? ifs : elseClause!, undefined, `${snippetOf(m[3] === "!=" ? ifs : elseClause!)}  (\`${status.get(m[1]!)!.slice(0, 60)}\` failed: only logged, and the run goes on)`);
  }
}

function atTop(clause: SyntaxNode): boolean {
  let scope = clause.parent;
  while (scope && !SCOPES.has(scope.type) && scope.type !== "if_statement") scope = scope.parent;
  return scope?.type === "module" || (scope?.type === "if_statement" && /__name__/.test(scope.childForFieldName("condition")?.text ?? ""));
}

/** `except ...: return []` around work that can fail: the caller cannot tell "nothing" from "could not look". */
function errorAsEmpty(root: SyntaxNode, add: Add, taken: Set<number>): void {
  for (const clause of py(root, "except_clause")) {
    const corrupt = corruptReadAsEmpty(clause);
    if (corrupt) {
      taken.add(clause.startIndex);
      add("error-as-empty", clause, undefined, `${snippetOf(clause)} … ${corrupt}  (a file that is there but cannot be read or parsed answers the same as none)`);
      continue;
    }
    // `imaplib.IMAP4.error`, `socket.error`: a module's own error class is an operation that failed.
    const names = caughtNames(clause).map((n) => (/\.error$/.test(n) ? "OSError" : n.replace(/^[\w.]+\./, "")));
    if (names.length > 0 && !names.some((n) => OPERATIONAL_EXC.test(n))) continue;
    const body = statements(clause.namedChildren.find((c) => c.type === "block"));
    const last = body.at(-1);
    if (last && last.type !== "return_statement" && clause.parent?.type === "try_statement") {
      // `try: … results.append(…) except requests.RequestException as e: log(e)` then `return results`: the failure
      // falls through to returning the collection the try was filling, still empty.
      const after = returnsUnfilled(clause.parent);
      const tryBlock = clause.parent.namedChildren.find((c) => c.type === "block");
      if (after && body.every((s) => isLog(s) || s.type === "pass_statement") && !body.some(surfaces) && tryBlock && !parseOnly(tryBlock) && tryBlock.descendantsOfType("call").length > 0 && !enclosingLoop(clause)) {
        taken.add(clause.startIndex);
        add("error-as-empty", clause, undefined, `${snippetOf(clause)} … (falls through to ${after})`);
      }
      continue;
    }
    if (!last || last.type !== "return_statement") continue;
    const value = last.namedChildren[0];
    const empty = value === undefined || EMPTY_VALUE.test(value.text) || (value.type === "tuple" && value.namedChildren.every((v) => EMPTY_VALUE.test(v.text)));
    if (!empty) continue;
    if (!body.slice(0, -1).every((s) => isLog(s) || s.type === "pass_statement" || (s.type === "expression_statement" && /assignment/.test(s.namedChildren[0]?.type ?? "")))) continue;
    // A branch that records the failure (`warnings.append(...)`) hands it on: where that list goes is unrelayed-collection's question.
    if (body.some(surfaces) || /\.(append|extend|add|insert)\(/.test(clause.text)) continue;
    const tryBlock = clause.parent?.type === "try_statement" ? clause.parent.namedChildren.find((c) => c.type === "block") : undefined;
    if (!tryBlock || parseOnly(tryBlock) || tryBlock.descendantsOfType("call").length === 0) continue;
    // Closing, logging out of or removing something that is done with (`client.logout()`, `os.unlink(tmp)`) answers
    // nothing anyone waits for: there is no result to read as empty.
    if (tryBlock.descendantsOfType("call").every((c) => /(^|\.)(logout|close|quit|disconnect|shutdown|terminate|kill|release|remove|unlink|rmtree|rmdir)$/.test(dotted(c.childForFieldName("function")) || c.childForFieldName("function")?.text || ""))) continue;
    const fn = enclosingFunction(clause);
    if (!fn) continue;
    taken.add(clause.startIndex);
    add("error-as-empty", clause, undefined, `${snippetOf(clause)} … ${last.text}`);
  }
}

/** The `return x` right after a try statement, when x was set to an empty collection before it in the same function body. */
function returnsUnfilled(tryStmt: SyntaxNode): string | undefined {
  const block = tryStmt.parent;
  if (block?.type !== "block" || block.parent?.type !== "function_definition") return undefined;
  const next = block.namedChildren.find((c) => c.startIndex > tryStmt.endIndex && c.type !== "comment");
  const v = next?.type === "return_statement" ? next.namedChildren[0] : undefined;
  if (v?.type !== "identifier") return undefined;
  const set = block.namedChildren.some((c) => c.endIndex <= tryStmt.startIndex && c.type === "expression_statement" && c.namedChildren[0]?.type === "assignment" && c.namedChildren[0].childForFieldName("left")?.text === v.text && /^(\[\]|\{\}|set\(\)|dict\(\)|list\(\))$/.test(c.namedChildren[0].childForFieldName("right")?.text ?? ""));
  return set ? next!.text : undefined;
}

/** A read of a local file: `open(p)`, `p.read_text()`, `json.load(f)`. */
const FILE_READ = /\bopen\(|\.(read_text|read_bytes)\(|\bjson\.load\(|\bcsv\.(DictReader|reader)\(/;
/** The function tells "not there" apart before or beside the read: an existence test, or its own `except FileNotFoundError`. */
const ABSENCE_TEST = /\.exists\(\)|\bos\.path\.(exists|isfile)\(|\.is_file\(\)/;
/** A default the caller hands in (`def load_json(path, default)`): what the function answers for "nothing there". */
const DEFAULT_NAME = /^(default|fallback|empty)(_\w+)?$/i;

/**
 * `if not path.exists(): return []` then `try: return json.loads(path.read_text()) except Exception: return []`: the
 * function has already answered "no file yet"; the except is reached when the file IS there but cannot be read or
 * parsed (a corrupt state, watchlist or index), and it answers the same empty value, so the caller starts over from
 * nothing (a cursor reset, a backlog or dedup index dropped) and nobody hears that the file was lost. Outside an
 * item loop (there, passing over one unreadable item is log-only-skip's question).
 */
function corruptReadAsEmpty(clause: SyntaxNode): string | undefined {
  const tryStmt = clause.parent;
  if (tryStmt?.type !== "try_statement") return undefined;
  const tryBlock = tryStmt.namedChildren.find((c) => c.type === "block");
  if (!tryBlock || !FILE_READ.test(tryBlock.text) || !parseOnly(tryBlock) || enclosingLoop(clause)) return undefined;
  const names = caughtNames(clause).map((n) => n.replace(/^[\w.]+\./, ""));
  if (names.length > 0 && names.every((n) => n === "FileNotFoundError")) return undefined;
  const fn = enclosingFunction(clause);
  if (!fn) return undefined;
  const params = fn.childForFieldName("parameters")?.text ?? "";
  const emptyAnswer = (v: SyntaxNode | undefined) => v !== undefined && (EMPTY_VALUE.test(v.text) || (v.type === "identifier" && DEFAULT_NAME.test(v.text) && new RegExp(`\\b${v.text}\\b`).test(params)));
  const absence = ABSENCE_TEST.test(fn.text.slice(0, tryStmt.endIndex - fn.startIndex)) || tryStmt.namedChildren.some((c) => c.type === "except_clause" && c.startIndex !== clause.startIndex && caughtNames(c).some((n) => /FileNotFoundError$/.test(n)));
  if (!absence) return undefined;
  const body = statements(clause.namedChildren.find((c) => c.type === "block"));
  const last = body.at(-1);
  const quiet = (b: SyntaxNode[]) => b.every((s) => isLog(s) || s.type === "pass_statement" || /^print\(/.test(s.text));
  if (body.some(surfaces)) return undefined;
  if (last?.type === "return_statement") return quiet(body.slice(0, -1)) && emptyAnswer(last.namedChildren[0]) ? last.text : undefined;
  // `except Exception as exc: print(..., file=sys.stderr)` then `return default` after the try.
  const block = tryStmt.parent;
  const next = block?.namedChildren.find((c) => c.startIndex > tryStmt.endIndex && c.type !== "comment");
  return quiet(body) && next?.type === "return_statement" && emptyAnswer(next.namedChildren[0]) ? next.text : undefined;
}

function enclosingFunction(node: SyntaxNode): SyntaxNode | undefined {
  for (let p = node.parent; p; p = p.parent) if (p.type === "function_definition") return p;
  return undefined;
}

/** The cap of a slice `X[:N]` / `X[0:N]` / `X[-N:]`: N when it reads as a count cap, and the sliced collection X. */
function capSlice(node: SyntaxNode | null): { coll: string; cap: SyntaxNode } | undefined {
  if (node?.type !== "subscript") return undefined;
  const slice = node.childForFieldName("subscript");
  if (slice?.type !== "slice") return undefined;
  const parts = slice.children.map((c) => c.text);
  // `[:N]` or `[0:N]`, no step.
  const colon = parts.indexOf(":");
  if (colon === -1 || parts.filter((p) => p === ":").length > 1) return undefined;
  const start = parts.slice(0, colon).join("");
  // `[-N:]` keeps the newest N (the last of a list in arrival order), and leaves the older rest the same way.
  const newest = slice.namedChildren.length === 1 && slice.namedChildren[0]!.type === "unary_operator" && slice.namedChildren[0]!.startIndex < slice.children[colon]!.startIndex && parts.at(-1) === ":";
  const stop = newest ? slice.namedChildren[0]!.namedChildren[0] : slice.namedChildren.find((c) => c.startIndex > slice.children[colon]!.startIndex);
  if ((!newest && start !== "" && start !== "0") || !stop) return undefined;
  // A small literal (`[:5]`) picks the top few to show; a cap on work is a named limit or a larger count.
  if (stop.type === "integer" ? Number(stop.text) < 10 : !(stop.type === "identifier" || stop.type === "attribute") || !CAP_NAME.test(stop.text)) return undefined;
  const value = node.childForFieldName("value");
  if (!value || !(value.type === "identifier" || value.type === "attribute")) return undefined;
  return { coll: value.text, cap: stop };
}

/**
 * The loop body does work on each item: a call that is not a log, a print, a format or a list append, nor a function
 * of this file that itself only computes (`resolve_link(link, base)`, `parse_date(s)`): a loop that only turns items
 * into values (a parse, a normalisation) and stops at a count bounds its answer, it leaves no work for later.
 */
function doesWork(body: SyntaxNode | null, defs?: ReadonlyMap<string, SyntaxNode>, seen: Set<string> = new Set()): boolean {
  if (!body) return false;
  return body.descendantsOfType("call").some((c) => {
    const name = dotted(c.childForFieldName("function")) || lastName(c);
    const short = name.slice(name.lastIndexOf(".") + 1);
    if (LOG_CALL.test(name) || /^(print|len|str|int|float|repr|format|join|append|extend|add|get|items|keys|values|strip|lstrip|rstrip|lower|upper|split|replace|startswith|endswith|isinstance|hasattr|sorted|min|max|round|enumerate|range|zip|dict|list|set|tuple|bool|f|sum|any|all|getattr|setdefault|update|pop|strftime|strptime|isoformat|fromisoformat|now|utcnow|time|monotonic|datetime|timedelta|group|encode|decode|casefold|copy|urljoin|urlparse|urlsplit|urlunparse|urlencode|quote|unquote|fromtimestamp|utcfromtimestamp|astimezone|unescape|loads|timestamp|find|rfind|index|rindex|count|partition|rpartition|splitlines|title|capitalize|zfill|ljust|rjust|center|isdigit|isalpha|isalnum|isspace)$/.test(short) || (/^_?parse|parse$/i.test(short) && !(name === short && defs?.has(short))) || /^re\.\w+$|^[A-Z][A-Z0-9_]*\.(sub|search|match|fullmatch|findall|finditer|split)$/.test(name)) return false;
    // A function of this file (called by its bare name) does work only if its own body does.
    const def = name === short ? defs?.get(short) : undefined;
    if (def && !seen.has(short)) {
      seen.add(short);
      return doesWork(def.childForFieldName("body"), defs, seen);
    }
    return !def;
  });
}

/**
 * Whether the collection's size or remainder is put where the owner hears of it: a surfacing call, an `if` on it that
 * surfaces, or a result field (returned so SKILL.md can relay it).
 */
function remainderFate(scope: SyntaxNode, coll: string, except: SyntaxNode): { told: boolean; fields: string[] } {
  const fields: string[] = [];
  const base = coll.split(".").at(-1)!;
  for (const n of scope.descendantsOfType(["identifier", "attribute"])) {
    if (n.text !== coll && !(n.type === "identifier" && n.text === base && coll === base)) continue;
    if (n.startIndex >= except.startIndex && n.endIndex <= except.endIndex) continue;
    if (n.parent?.type === "attribute" && n.parent.childForFieldName("object")?.startIndex === n.startIndex && n.type === "identifier" && coll !== n.text) continue;
    // len(X) or X[N:]: the remainder or the total.
    const user = n.parent?.type === "argument_list" && n.parent.parent && lastName(n.parent.parent) === "len" ? n.parent.parent : n.parent?.type === "subscript" ? n.parent : undefined;
    if (!user) continue;
    const field = fieldOf(user);
    if (field !== undefined) fields.push(field);
    for (let p: SyntaxNode | null = user; p && !SCOPES.has(p.type); p = p.parent) {
      if (p.type === "call" && surfaces(p)) return { told: true, fields };
      if ((p.type === "if_statement" || p.type === "return_statement") && (p.type === "return_statement" || surfaces(p))) return { told: true, fields };
    }
  }
  return { told: false, fields };
}

function scopeOf(node: SyntaxNode): SyntaxNode {
  let s: SyntaxNode | null = node.parent;
  while (s && !SCOPES.has(s.type)) s = s.parent;
  return s ?? node;
}

/** A cap by count on the items a loop works through, whose remainder reaches nobody. */
function capDeferral(root: SyntaxNode, add: Add): void {
  const defs = new Map(root.descendantsOfType("function_definition").map((f) => [f.childForFieldName("name")?.text ?? "", f]));
  const report = (loop: SyntaxNode, coll: string, at: SyntaxNode) => {
    if (!doesWork(loop.childForFieldName("body"), defs)) return;
    const fate = remainderFate(scopeOf(loop), coll, at);
    if (fate.told) return;
    add("cap-deferral", at, fate.fields.length > 0 ? fate.fields : undefined, `${snippetOf(at)}  (the rest of ${coll} is left)`);
  };
  for (const loop of py(root, "for_statement")) {
    const right = loop.childForFieldName("right");
    const slice = capSlice(right);
    if (slice) {
      report(loop, slice.coll, loop);
      continue;
    }
    // `batch = pending[:MAX]` then `for x in batch:`.
    if (right?.type === "identifier") {
      const scope = scopeOf(loop);
      const assign = nodesWithin(root, scope, "assignment", PY_TYPES).find((a) => a.childForFieldName("left")?.text === right.text && a.endIndex <= loop.startIndex && capSlice(a.childForFieldName("right")));
      if (assign) report(loop, capSlice(assign.childForFieldName("right"))!.coll, assign);
    }
  }
  // `entries = entries[:MAX]` then `verify(entries, ...)`, where verify() of this file works through its parameter.
  for (const assign of py(root, "assignment")) {
    const left = assign.childForFieldName("left");
    const slice = capSlice(assign.childForFieldName("right"));
    if (left?.type !== "identifier" || !slice) continue;
    const scope = scopeOf(assign);
    const call = nodesWithin(root, scope, "call", PY_TYPES).find((c) => c.startIndex > assign.endIndex && defs.has(lastName(c)) && callArgs(c).positional.some((p) => p.text === left.text));
    if (!call) continue;
    const def = defs.get(lastName(call))!;
    const param = def.childForFieldName("parameters")?.namedChildren.filter((p) => p.type === "identifier" || p.type === "typed_parameter" || p.type === "default_parameter" || p.type === "typed_default_parameter")[callArgs(call).positional.findIndex((p) => p.text === left.text)];
    const pname = param?.type === "identifier" ? param.text : param?.namedChildren[0]?.text;
    const loop = def.descendantsOfType("for_statement").find((l) => l.childForFieldName("right")?.text === pname);
    if (!pname || !loop || !doesWork(loop.childForFieldName("body"), defs)) continue;
    const fate = remainderFate(scope, slice.coll, assign);
    if (!fate.told) add("cap-deferral", assign, fate.fields.length > 0 ? fate.fields : undefined, `${snippetOf(assign)}  (the rest of ${slice.coll} is left; ${lastName(call)}() works through the capped list)`);
  }
  // `if done >= MAX: break` inside the loop, on a counter the loop raises or a list it fills.
  for (const ifs of py(root, "if_statement")) {
    const loop = enclosingLoop(ifs);
    const cond = ifs.childForFieldName("condition");
    if (!loop || loop.type !== "for_statement" || cond?.type !== "comparison_operator") continue;
    const body = statements(ifs.childForFieldName("consequence"));
    if (!body.some((s) => s.type === "break_statement") || body.some(surfaces)) continue;
    const [left, right] = cond.namedChildren;
    const op = cond.children.find((c) => !c.isNamed)?.text ?? "";
    if (!left || !right || !/^(>=|>|==)$/.test(op)) continue;
    const capOk = right.type === "integer" ? Number(right.text) >= 10 : (right.type === "identifier" || right.type === "attribute") && CAP_NAME.test(right.text) && !/time|sec|deadline|budget/i.test(right.text);
    if (!capOk || /time|elapsed|sec|deadline|budget|monotonic/i.test(left.text)) continue;
    const loopBody = loop.childForFieldName("body");
    const counter = left.type === "identifier" ? left.text : left.type === "call" && lastName(left) === "len" ? callArgs(left).positional[0]?.text : undefined;
    const loopVars = loop.childForFieldName("left")?.descendantsOfType("identifier").map((i) => i.text) ?? [];
    const counted = counter !== undefined && (loopVars.includes(counter) || new RegExp(`\\b${counter}\\s*\\+=|\\b${counter}\\.(append|add|extend)\\(`).test(loopBody?.text ?? ""));
    if (!counted) continue;
    const coll = loop.childForFieldName("right");
    if (!coll || !(coll.type === "identifier" || coll.type === "attribute" || (coll.type === "call" && lastName(coll) === "enumerate"))) continue;
    const target = coll.type === "call" ? callArgs(coll).positional[0]?.text ?? "" : coll.text;
    if (target === "") continue;
    report(loop, target, ifs);
  }
}

/** A step skipped when a tool is not installed: `if shutil.which("x") is None: return`, `except FileNotFoundError` around running it. */
function toolMissing(root: SyntaxNode, add: Add): void {
  // `return 2` from main() is an exit code, and any other value is an answer the caller sees: only a bare or empty return is quiet.
  const quietReturn = (s: SyntaxNode) => s.type === "return_statement" && (s.namedChildren.length === 0 || /^(None|False|0|\[\]|\{\}|""|'')$/.test(s.namedChildren[0]!.text));
  const stop = (s: SyntaxNode) => quietReturn(s) || /^(continue_statement|break_statement)$/.test(s.type) || (s.type === "expression_statement" && s.namedChildren[0]?.type === "call" && exitZeroCall(s.namedChildren[0]));
  // A branch that only logs or passes falls through to what follows: the next way of doing it (a fallback chain) or the
  // rest of the work without an optional extra. Only a branch that stops leaves the step undone.
  const quietStop = (body: SyntaxNode[]) => body.some(stop) && !body.some(surfaces) && body.every((s) => isLog(s) || stop(s) || s.type === "pass_statement");
  for (const ifs of py(root, "if_statement")) {
    const cond = ifs.childForFieldName("condition")?.text ?? "";
    if (!/\bwhich\(|find_spec\(/.test(cond) || !/\bnot\b|is None|== None/.test(cond)) continue;
    const body = statements(ifs.childForFieldName("consequence"));
    if (quietStop(body) && !answerTested(root, ifs, body)) add("tool-missing", ifs);
  }
  for (const ifs of py(root, "if_statement")) {
    if (!credentialAbsent(ifs.childForFieldName("condition"))) continue;
    const body = statements(ifs.childForFieldName("consequence"));
    if ((quietStop(body) && !answerTested(root, ifs, body)) || fallsBack(body)) add("tool-missing", ifs);
  }
  for (const clause of py(root, "except_clause")) {
    const names = caughtNames(clause).map((n) => n.replace(/^\w+\./, ""));
    const tryBlock = clause.parent?.namedChildren.find((c) => c.type === "block");
    const runsTool = tryBlock !== undefined && /\bsubprocess\.|\b(run|check_output|check_call|Popen)\(/.test(tryBlock.text);
    const missing = names.some((n) => /^(ImportError|ModuleNotFoundError)$/.test(n)) || (runsTool && names.some((n) => n === "FileNotFoundError"));
    if (!missing) continue;
    const body = statements(clause.namedChildren.find((c) => c.type === "block"));
    // A tool missing from a list of alternatives (`for cmd in ["sendmail", "/usr/sbin/sendmail"]`) means: try the next.
    const loop = enclosingLoop(clause);
    if (loop && tryBlock && firstSuccessLoop(loop, tryBlock, clause)) continue;
    // `except ImportError: x = None` is an optional dependency; a stop or a return in its place skips the step.
    if (quietStop(body) && !answerTested(root, clause, body)) add("tool-missing", clause);
  }
}

/**
 * Without the login the run takes a worse path and says so only in its output: the branch prints or logs, builds the
 * answer it falls back to (`github_url = f"file://{base}/{name}"`) and returns it, so the caller goes on as if the step
 * (a sync, an upload) had been done.
 */
function fallsBack(body: SyntaxNode[]): boolean {
  const ret = body.at(-1);
  const value = ret?.type === "return_statement" ? ret.namedChildren[0] : undefined;
  if (!value || value.type !== "identifier" || body.some(surfaces)) return false;
  const assigns = (s: SyntaxNode) => s.type === "expression_statement" && s.namedChildren[0]?.type === "assignment";
  if (!body.some((s) => assigns(s) && s.namedChildren[0]!.childForFieldName("left")?.text === value.text)) return false;
  return body.slice(0, -1).every((s) => isLog(s) || assigns(s) || calleeOf(s)?.name === "print");
}

/** A name that holds a login: a token, key, secret, password, cookie or session. */
export const CREDENTIAL = /(?:^|[^a-z])(?<!page_|next_|sync_|continuation_|pagination_|page)(?:token|api_?key|apikey|secret|password|passwd|cookies?|session_?id|credentials?|bearer|auth)(?:$|[^a-z])/i;

/**
 * `if not token:`, `if not user or not token:`, `if token is None:`, `if not os.environ.get("X_API_KEY"):`: a login
 * that is not there is a tool that is not there; the step that needs it cannot run.
 */
function credentialAbsent(cond: SyntaxNode | null): boolean {
  const held = cond ? absentTerms(cond) : undefined;
  return held !== undefined && held.some((t) => CREDENTIAL.test(t.replace(/["']/g, " ")));
}

/** The values an `or` of absence tests tests (`not user or not repo or not token`); undefined if any term is not one. */
function absentTerms(cond: SyntaxNode): string[] | undefined {
  if (cond.type === "boolean_operator") {
    if (cond.children.find((c) => !c.isNamed)?.text !== "or") return undefined;
    const parts = cond.namedChildren.map(absentTerms);
    return parts.every((p) => p !== undefined) ? parts.flat() as string[] : undefined;
  }
  const one = absenceTest(cond);
  return one === undefined ? undefined : [one];
}

/** What an absence test tests: `not x`, `x is None`, `x == ""`; undefined for any other condition. */
function absenceTest(cond: SyntaxNode): string | undefined {
  if (cond.type === "parenthesized_expression" && cond.namedChildren[0]) return absenceTest(cond.namedChildren[0]);
  if (cond.type === "not_operator") {
    const arg = cond.namedChildren[0];
    return arg && /^(identifier|attribute|subscript|call)$/.test(arg.type) ? arg.text : undefined;
  }
  if (cond.type === "comparison_operator" && /^\S+\s+(is|==)\s+(None|""|'')$/.test(cond.text)) return cond.namedChildren[0]?.text;
  return undefined;
}

/**
 * The branch answers False or None and every caller of its function in this file tests that answer (`if send(...):`,
 * `if not send(...):`, `ok = send(...) or other(...)`): the caller hears that the tool was missing and decides.
 */
function answerTested(root: SyntaxNode, branch: SyntaxNode, body: SyntaxNode[]): boolean {
  const ret = body.find((s) => s.type === "return_statement");
  if (!ret || !/^(False|None)$/.test(ret.namedChildren[0]?.text ?? "")) return false;
  let fn: SyntaxNode | null = branch.parent;
  while (fn && fn.type !== "function_definition") fn = fn.parent;
  const name = fn?.childForFieldName("name")?.text;
  if (!name) return false;
  const calls = root.descendantsOfType("call").filter((c) => lastName(c) === name && c.childForFieldName("function")?.type === "identifier");
  return calls.length > 0 && calls.every((c) => {
    const p = c.parent?.type === "await" ? c.parent.parent : c.parent;
    return p?.type === "if_statement" || p?.type === "elif_clause" || p?.type === "not_operator" || p?.type === "boolean_operator" || p?.type === "while_statement";
  });
}

function isProgressWrite(stmt: SyntaxNode): boolean {
  for (const a of stmt.type === "assignment" ? [stmt] : stmt.descendantsOfType(["assignment", "augmented_assignment"])) {
    const left = a.childForFieldName("left");
    const key = left?.type === "subscript" ? left.childForFieldName("subscript")?.text.replace(/^["']|["']$/g, "") : left?.type === "attribute" ? left.childForFieldName("attribute")?.text : left?.text;
    if (key && PROGRESS_NAME.test(key)) return true;
  }
  return stmt.descendantsOfType("call").some((c) => {
    const fn = c.childForFieldName("function");
    if (PROGRESS_CALL.test(lastName(c))) return true;
    return fn?.type === "attribute" && /^(add|append|update)$/.test(lastName(c)) && PROGRESS_NAME.test(dotted(fn.childForFieldName("object")).split(".").at(-1) ?? "");
  });
}

/** The except branch leaves the item behind without a word: it only logs, passes or counts (no raise, no exit, no record). */
function silentFailure(clause: SyntaxNode): boolean {
  // A value that does not parse is not work that failed: the mark may move past it.
  const names = caughtNames(clause).map((n) => n.replace(/^[\w.]+\./, ""));
  if (names.length > 0 && names.every((n) => DATA_EXC.test(n))) return false;
  const body = statements(clause.namedChildren.find((c) => c.type === "block"));
  return body.length > 0 && !body.some(surfaces) && !/\.(append|extend|add|insert)\(/.test(clause.text.replace(/\b\w*(seen|processed|done)\w*\.add\(/g, ""));
}

/** A progress mark written for a failed item, or advanced after a loop that passed over failures silently. */
function progressPastFailure(root: SyntaxNode, add: Add): void {
  for (const tryStmt of py(root, "try_statement")) {
    const loop = enclosingLoop(tryStmt);
    if (!loop) continue;
    const clauses = tryStmt.namedChildren.filter((c) => c.type === "except_clause");
    const silent = clauses.filter(silentFailure);
    if (silent.length === 0) continue;
    const fallsThrough = silent.some((c) => !statements(c.namedChildren.find((b) => b.type === "block")).some((s) => /^(continue_statement|return_statement|break_statement|raise_statement)$/.test(s.type)));
    const marks: SyntaxNode[] = [];
    // In the except branch itself, or in its finally.
    for (const c of silent) marks.push(...statements(c.namedChildren.find((b) => b.type === "block")).filter(isProgressWrite));
    const fin = tryStmt.namedChildren.find((c) => c.type === "finally_clause");
    if (fin) marks.push(...statements(fin.namedChildren.find((b) => b.type === "block")).filter(isProgressWrite));
    // After the try, in the same loop body, when the failure falls through to it.
    if (fallsThrough && tryStmt.parent?.type === "block") marks.push(...tryStmt.parent.namedChildren.filter((s) => s.startIndex > tryStmt.endIndex - 1 && isProgressWrite(s)));
    // After the loop: a watermark moved once the loop is done, past the items it dropped.
    const loopBlock = loop.parent;
    if (loopBlock && (loopBlock.type === "block" || loopBlock.type === "module")) {
      marks.push(...loopBlock.namedChildren.filter((s) => s.startIndex > loop.endIndex - 1 && s.type === "expression_statement" && isScalarMark(s)).slice(0, 1));
    }
    for (const m of marks) add("progress-past-failure", m, undefined, `${snippetOf(m)}  (also for items whose ${snippetOf(silent[0]!)} branch dropped them)`);
  }
}

/** `state["last_run"] = now` / `cursor = max(...)` / `save_cursor(...)`: a scalar mark that says "done up to here". */
function isScalarMark(stmt: SyntaxNode): boolean {
  const e = stmt.namedChildren[0];
  if (e?.type === "call") return PROGRESS_CALL.test(lastName(e));
  if (e?.type !== "assignment") return false;
  const left = e.childForFieldName("left");
  const key = left?.type === "subscript" ? left.childForFieldName("subscript")?.text.replace(/^["']|["']$/g, "") : left?.type === "attribute" ? left.childForFieldName("attribute")?.text : left?.text;
  return key !== undefined && PROGRESS_NAME.test(key) && !/^(processed|seen|done|handled|synced|completed)/i.test(key);
}

/** Each shape needs some text to be there at all; looking first keeps the tree walks (each node crosses into WebAssembly) off files without it. */
export function pythonMoreSkips(root: SyntaxNode, add: Add): Set<number> {
  const taken = new Set<number>();
  const text = root.text;
  const excepts = /\bexcept\b/.test(text);
  if (excepts && /\breturn\b/.test(text)) errorAsEmpty(root, add, taken);
  if (/\bexcept\b|returncode|status_code|\.ok\b|\.bozo\b|\b(?:code|status)\s*!=/.test(text) && (/\bor\s+(\[\]|\{\}|""|''|0)/.test(text) || /\bcontinue\b|return\s+(\[\]|\{\})/.test(text))) failureAsNothing(root, add);
  if (/\bexcept\b|returncode|status_code|\.ok\b/.test(text)) unconfirmedSends(root, add);
  if (excepts && /wake_?agent|wakeAgent/.test(text)) wakeOffOnFailure(root, add);
  if (excepts && /print\(\s*(?:["'](?:\[\]|\{\})["']|json\.dumps\(\s*(?:\[\]|\{\}))|\]\s*=\s*(?:\[\]|\{)/.test(text)) emptyStandIns(root, add);
  if (excepts && /=\s*True\b/.test(text)) successOnFailure(root, add, SUCCESS_STATE);
  if (/\b(exit|_exit|quit)\(\s*(0|None|False)?\s*\)/.test(text)) exitZeroOnFailure(root, add);
  if (/\bos\.system\(|\b(?:call|run)\(/.test(text) && /[!=]=\s*0\b/.test(text)) failedCommandOnlyLogged(root, add);
  if (/\[0?:\s*[\w.]+\s*\]|\[-\s*[\w.]+\s*:\]/.test(text) || (/\bbreak\b/.test(text) && CAP_TEXT.test(text))) capDeferral(root, add);
  if (/which\(|find_spec\(|ImportError|ModuleNotFoundError|FileNotFoundError/.test(text) || CREDENTIAL.test(text)) toolMissing(root, add);
  if (excepts && PROGRESS_TEXT.test(text)) progressPastFailure(root, add);
  return taken;
}

const CAP_TEXT = /max|limit|cap|quota|batch|per_run|per_day|top_?n|chunk/i;
const PROGRESS_TEXT = /last_?\w|watermark|high_?water|cursor|since|checkpoint|processed|seen|done|handled|synced|completed|mark_|save_|set_|advance_|update_|record_/;

export { exitsNonZero, at };
