// The silent-skip shapes in bash: a failure branch in an item loop that only logs (then continues or falls through),
// a budget or deadline stop, a count cap on what a loop works through, an error turned into an empty result or into
// exit 0, a step skipped when a tool is missing, and a trap that turns every error into exit 0. Read from the tree, so
// comments never count; a failure of a command that only reads or tests (`grep`, `jq`, `[ -f ]`) is not work left undone.
import type { SkipEvidence, SkipMechanism } from "../source/facts.js";
import { at, nodesOf, type SyntaxNode } from "../source/tree-sitter.js";
import { commandName as name, firstCommand, isWork as commandIsWork } from "./shell-commands.js";
import { shellStamps } from "./shell-stamps.js";

const LOOPS = new Set(["for_statement", "c_style_for_statement", "while_statement"]);
/** The node types shellSkips looks for in the whole tree: found in one search (nodesOf), not one search each. */
const SH_SKIP_TYPES = ["list", "command_substitution", "if_statement", "pipeline", "command"];
const sh = (root: SyntaxNode, type: string) => nodesOf(root, type, SH_SKIP_TYPES);
const BUDGET = /budget|deadline|\bSECONDS\b|date \+%s|elapsed|time_left|remaining/i;
const SURFACE = /skip-summary|send|notify|alert|\bexit [1-9]|\bexit "?\$|\breturn [1-9]|\+=\(|\bfalse\b/;
const TOOL_CHECK = /^(command|which|type|hash)$/;
/** `echo '[]'`, `echo '{"findings":[]}'`, `printf '{}'`: an answer with nothing in it. */
const EMPTY_JSON = /^(?:echo|printf)\s+(?:-n\s+)?'(?:\[\]|\{\}|\{\s*"\w+"\s*:\s*(?:\[\]|\{\}|0|null)\s*\})'/;
const CAP_NAME = /max|limit|cap\b|_cap|quota|batch|per_run|top|count/i;

/** The command's standard output is not sent to a file or discarded (`> f`, `>/dev/null`, `&>`): it is the answer. */
function writesStdout(node: SyntaxNode): boolean {
  if (node.type === "command") return true;
  if (node.type !== "redirected_statement") return false;
  return !node.descendantsOfType("file_redirect").some((r) => /^(1?>|>>|&>|&>>|>\|)/.test(r.text.trim()) && !/^\d?>&2/.test(r.text.trim()));
}

function inSubstitution(node: SyntaxNode): boolean {
  for (let p = node.parent; p; p = p.parent) if (p.type === "command_substitution" || p.type === "process_substitution") return true;
  return false;
}

/** Whether the script being read sets pipefail (set once per script by shellSkips, which reads one tree at a time). */
let pipefail = false;

function isWork(node: SyntaxNode): boolean {
  return commandIsWork(node, pipefail);
}

/** Code that writes a file it was handed: `open(p, "w")`, `json.dump`, `os.replace`, `writeFileSync`, `> "$F"`. */
const WRITES = /open\([^)]*,\s*['"][wax]|json\.dump\(|os\.replace\(|write_text\(|writeFileSync\(/;

/**
 * The failing read is of state this script keeps itself: `crontab -l` in a script that installs the crontab, or a
 * file (`"$STATE_FILE"`) that another statement of the script writes. Unreadable or absent, that state is a first run,
 * and an empty or default answer is its true starting value, not work left undone.
 */
function readsOwnState(left: SyntaxNode, root: SyntaxNode): boolean {
  if (/\bcrontab\s+-l\b/.test(left.text)) return /\|\s*crontab\s+-(?![\w-])|\bcrontab\s+"?\$\{?\w/.test(root.text);
  const vars = new Set([...left.text.matchAll(/"\$\{?(\w+)\}?"/g)].map((m) => m[1]!));
  if (vars.size === 0) return false;
  for (const v of vars) {
    if (new RegExp(String.raw`(?:>>?\s*|\btee\s+(?:-a\s+)?|\bmv\s+\S+\s+)"?\$\{?${v}\b`).test(root.text)) return true;
    const arg = new RegExp(String.raw`"\$\{?${v}\}?"`);
    if (sh(root, "command").some((c) => (c.endIndex <= left.startIndex || c.startIndex >= left.endIndex) && arg.test(c.text) && WRITES.test(c.text))) return true;
  }
  return false;
}

/** Stands for an echo whose redirect to stderr is on the enclosing statement. */
const LOG_MARK = { type: "log-mark", text: "", namedChildren: [] } as unknown as SyntaxNode;

function isLog(stmt: SyntaxNode): boolean {
  if (stmt === LOG_MARK) return true;
  if (stmt.type === "redirected_statement") return /^(echo|printf|logger)$/.test(name(stmt)) && />&2|2>/.test(stmt.text);
  return stmt.type === "command" && /^(logger|log|warn|_log|log_\w+|\w+_log|error|err|die_soft)$/.test(name(stmt));
}

function exitZero(stmt: SyntaxNode): boolean {
  const n = name(stmt);
  if (n !== "exit") return false;
  const arg = stmt.type === "command" ? stmt.childrenForFieldName("argument")[0]?.text : undefined;
  return arg === undefined || arg === "0";
}

function statementsOf(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((c) => c.type !== "comment");
}

function inLoop(node: SyntaxNode): SyntaxNode | undefined {
  for (let p = node.parent; p; p = p.parent) {
    if (LOOPS.has(p.type)) return p;
    if (p.type === "function_definition") return undefined;
  }
  return undefined;
}

/** Only log lines, then `continue` or nothing (the loop goes on to the next item). */
function logThenNext(body: SyntaxNode[]): boolean {
  if (body.length === 0) return false;
  const last = body.at(-1)!;
  const rest = name(last) === "continue" ? body.slice(0, -1) : body;
  return rest.every(isLog) && (name(last) === "continue" || rest.length > 0);
}

function branchBody(node: SyntaxNode): SyntaxNode[] {
  return node.type === "compound_statement" || node.type === "subshell" ? statementsOf(node) : [node];
}

export function shellSkips(root: SyntaxNode): SkipEvidence[] {
  const out: SkipEvidence[] = [];
  const add = (mechanism: SkipMechanism, node: SyntaxNode) => out.push({ mechanism, line: at(node)[0], column: at(node)[1], snippet: node.text.split("\n")[0]!.trim().slice(0, 160) });
  const fileTells = SURFACE.test(root.text);
  pipefail = /\bpipefail\b/.test(root.text);
  for (const list of sh(root, "list")) {
    const op = list.children.find((c) => c.text === "||" || c.text === "&&");
    if (op?.text !== "||") continue;
    const left = list.namedChildren[0]!;
    const right = list.namedChildren.at(-1)!;
    if (SURFACE.test(right.text)) continue;
    // `cmd || echo "..." >&2` parses as a redirect of the whole list: the echo is the log line.
    const loggedList = list.parent?.type === "redirected_statement" && />&2|2>/.test(list.parent.text.slice(list.endIndex - list.parent.startIndex));
    const body = branchBody(right).map((b) => (loggedList && /^(echo|printf)$/.test(name(b)) ? LOG_MARK : b));
    // `command -v jq >/dev/null || exit 0`: a tool that is not there skips the rest.
    if (TOOL_CHECK.test(name(firstCommand(left))) && body.some((b) => exitZero(b) || /^(continue|return)$/.test(name(b)))) {
      add("tool-missing", list);
      continue;
    }
    if (!isWork(left)) continue;
    if (body.some(exitZero) && body.every((b) => exitZero(b) || isLog(b))) add("exit-0-on-failure", list);
    else if (inLoop(list) && logThenNext(body)) add("log-only-skip", list);
    // `gog gmail search ... || echo "No unread messages found"`: the failure's stand-in goes to the stream the command's
    // own answer goes to, so whoever reads the output reads an answer, not a failure.
    else if (!loggedList && body.length === 1 && /^(echo|printf)$/.test(name(body[0])) && body[0]!.type === "command" && writesStdout(left) && !inSubstitution(list) && list.parent?.type !== "pipeline" && !readsOwnState(left, root)) add("error-as-empty", list);
    // `git push … && ok "pushed" || warn "push failed"` outside an item loop: the `if ! cmd; then log; fi` of
    // failureThenExitZero written as a list; the run goes on and, when nothing after it exits non-zero, ends 0.
    else if (!inLoop(list) && loggedOnly(list, body) && !tellsAfter(root, list)) add("exit-0-on-failure", list);
  }
  // `x=$(curl ... || echo '[]')`: the failure reads as an empty answer.
  for (const sub of sh(root, "command_substitution")) {
    for (const list of sub.descendantsOfType("list")) {
      const right = list.namedChildren.at(-1)!;
      if (!list.children.some((c) => c.text === "||") || !isWork(list.namedChildren[0]!)) continue;
      if (/^(echo|printf)$/.test(name(right)) && /^(echo|printf)\s+(-n\s+)?(['"]?(\[\]|\{\}|null|0|)['"]?)\s*$/.test(right.text) && !readsOwnState(list.namedChildren[0]!, root)) add("error-as-empty", list);
    }
  }
  for (const ifs of sh(root, "if_statement")) {
    const cond = ifs.childForFieldName("condition") ?? ifs.namedChildren[0];
    // Node objects are made anew on each access: compare positions, not identity.
    const condEnd = Math.max(...ifs.childrenForFieldName("condition").map((c) => c.endIndex), cond?.endIndex ?? 0);
    const body = statementsOf(ifs).filter((c) => c.startIndex >= condEnd && !/^(elif_clause|else_clause)$/.test(c.type));
    if (!cond || SURFACE.test(body.map((b) => b.text).join("\n"))) continue;
    const loop = inLoop(ifs);
    const stops = body.some((b) => /^(break|continue|return)$/.test(name(b)));
    const negated = /^!/.test(cond.text.trim());
    const statusCheck = /\$\?\s*-(ne|gt)\s*0|\$\?\s*!=\s*0/.test(cond.text);
    if (loop && BUDGET.test(cond.text) && stops) add("budget-stop", ifs);
    // A branch that only logs falls through to the work (or its fallback); only one that stops leaves the step undone.
    else if (negated && TOOL_CHECK.test(name(firstCommand(cond))) && body.some((b) => exitZero(b) || /^(continue|return)$/.test(name(b))) && body.every((b) => isLog(b) || exitZero(b) || /^(continue|return)$/.test(name(b)))) add("tool-missing", ifs);
    else if ((negated && isWork(cond)) || statusCheck) {
      if (body.some(exitZero) && body.every((b) => exitZero(b) || isLog(b))) add("exit-0-on-failure", ifs);
      else if (loop && logThenNext(body)) add("log-only-skip", ifs);
    } else if (loop && stops && body.some((b) => name(b) === "break") && /-(ge|gt|eq)\b/.test(cond.text) && CAP_NAME.test(cond.text) && !fileTells) add("cap-deferral", ifs);
  }
  // `... | head -n 20 | while read ...; do work; done`: the rest of the list is never reached.
  if (!fileTells) {
    for (const pipe of sh(root, "pipeline")) {
      const parts = pipe.namedChildren;
      const headAt = parts.findIndex((p) => name(p) === "head" && /\s-(n\s*\S+|\d+)/.test(p.text) && !/-c\b/.test(p.text));
      if (headAt === -1) continue;
      const loop = parts.slice(headAt + 1).find((p) => p.type === "while_statement");
      if (loop && loop.descendantsOfType("command").some((c) => isWork(c))) add("cap-deferral", pipe);
    }
  }
  // A failure branch that writes an empty answer (`echo '{"findings":[]}' > out.json`): the reader sees "nothing found".
  for (const ifs of sh(root, "if_statement")) {
    const cond = ifs.childForFieldName("condition") ?? ifs.namedChildren[0];
    if (!cond) continue;
    const negated = /^!/.test(cond.text.trim());
    const branches = negated && isWork(cond) ? statementsOf(ifs).filter((c) => c.startIndex >= cond.endIndex && !/^(elif_clause|else_clause)$/.test(c.type)) : !negated && isWork(cond) ? statementsOf(ifs.namedChildren.find((c) => c.type === "else_clause") ?? ifs).filter(() => ifs.namedChildren.some((c) => c.type === "else_clause")) : [];
    if (SURFACE.test(branches.map((b) => b.text).join("\n"))) continue;
    const empty = branches.find((b) => /^(echo|printf)$/.test(name(b)) && EMPTY_JSON.test(b.text));
    if (empty) add("error-as-empty", empty);
  }
  // A branch that logs a failure and writes an empty answer (`log "discovery failed"; echo '{"findings":[]}' > out`):
  // the log line goes to stderr, and the reader of the file sees "nothing found".
  if (/(echo|printf)\s+(-n\s+)?'[[{]/.test(root.text)) {
    for (const branch of root.descendantsOfType(["if_statement", "elif_clause", "else_clause"])) {
      const stmts = statementsOf(branch).filter((c) => !/^(elif_clause|else_clause)$/.test(c.type));
      if (!stmts.some(isLog) || SURFACE.test(stmts.map((b) => b.text).join("\n"))) continue;
      const empty = stmts.find((b) => b.type === "redirected_statement" && /^(echo|printf)$/.test(name(b)) && EMPTY_JSON.test(b.childForFieldName("body")?.text ?? "") && !/>&2/.test(b.text));
      if (empty && !out.some((o) => o.line === at(empty)[0])) add("error-as-empty", empty);
    }
  }
  failureThenExitZero(root, add, out);
  uncheckedThenDone(root, out);
  requiredPathMissing(root, add);
  for (const cmd of sh(root, "command")) {
    if (cmd.childForFieldName("name")?.text !== "trap") continue;
    const args = cmd.childrenForFieldName("argument").map((a) => a.text);
    if (args.some((a) => /^ERR$/.test(a)) && /\bexit( 0)?\b['"]?$/.test(args[0]?.replace(/['"]$/, "") ?? "") && !/exit [1-9]/.test(args[0] ?? "")) add("catch-all-exit-0", cmd);
  }
  out.push(...shellStamps(root));
  return out;
}

/** Where the last surfacing word of the script starts (-1 for none): "does anything after this point tell?" in one scan. */
const lastSurfaceCache = new WeakMap<SyntaxNode, number>();
function lastSurface(root: SyntaxNode): number {
  let at = lastSurfaceCache.get(root);
  if (at === undefined) {
    at = -1;
    for (const m of root.text.matchAll(new RegExp(SURFACE.source, "g"))) at = m.index!;
    lastSurfaceCache.set(root, at);
  }
  return at;
}

/**
 * Whether anything after this statement may still end the run non-zero or tell someone: the rest of its function when
 * it is in one (another function's `exit 1` on a usage error is another path, and a failure that was only logged
 * leaves the function nothing to return), else the rest of the script.
 */
function tellsAfter(root: SyntaxNode, stmt: SyntaxNode): boolean {
  let fn: SyntaxNode | undefined;
  for (let p = stmt.parent; p && !fn; p = p.parent) if (p.type === "function_definition") fn = p;
  if (asksPerson(fn ?? root)) return true;
  if (!fn) return lastSurface(root) >= stmt.endIndex;
  return SURFACE.test(fn.text.slice(stmt.endIndex - fn.startIndex));
}

/**
 * The function (or the script) asks a person at its terminal (`read -r answer`, `read -p "Continue? "`): a person runs
 * it and reads what it prints, so a logged failure is seen. A `while read` over a file or a pipe reads data, not a person.
 */
function asksPerson(scope: SyntaxNode): boolean {
  if (!/\bread\b/.test(scope.text)) return false;
  return scope.descendantsOfType("command").some((c) => {
    if (name(c) !== "read") return false;
    const p = c.parent;
    if (!p || p.type === "pipeline" || (p.type === "redirected_statement" && /<|<<</.test(p.text.slice(c.endIndex - p.startIndex)))) return false;
    return !(/^(while_statement|until_statement)$/.test(p.type) && p.childrenForFieldName("condition").some((x) => x.startIndex === c.startIndex));
  });
}

/** A `cmd || log …` list's failure side only logs (a log call, an echo to stderr), as a statement of its own. */
function loggedOnly(list: SyntaxNode, body: readonly SyntaxNode[]): boolean {
  // `cmd || echo "failed" >&2` is a redirect of the whole list: the statement is the redirect.
  const stmt = list.parent?.type === "redirected_statement" ? list.parent : list;
  const parent = stmt.parent;
  if (!parent || inSubstitution(list) || /^(list|pipeline|negated_command|test_command|redirected_statement)$/.test(parent.type)) return false;
  // The condition of an `if` or a `while` is a test, not a step of the run.
  if (/^(if_statement|elif_clause|while_statement|until_statement)$/.test(parent.type) && parent.childrenForFieldName("condition").some((c) => c.startIndex === stmt.startIndex)) return false;
  // A plain `echo` goes to the run's output, which a skill may tell the agent to relay: only a log line counts here.
  return body.length > 0 && body.every(isLog);
}

/** A captured exit status tested for success (`[ $exit_code -eq 0 ]`) or failure (`[ $? -ne 0 ]`, `(( rc != 0 ))`). */
const STATUS_VAR = String.raw`\$\{?(?:\?|\w*(?:exit|rc|status|code|ret)\w*)\}?"?`;
const STATUS_OK = new RegExp(`${STATUS_VAR}\\s*(?:-eq|==?)\\s*"?0\\b`, "i");
const STATUS_FAILED = new RegExp(`${STATUS_VAR}\\s*(?:-ne|-gt|!=)\\s*"?0\\b`, "i");
/** What a failure branch may do and still tell no one: log lines, lines appended to a log or status file, a variable set. */
function recordsOnly(stmt: SyntaxNode, inFunction: boolean): boolean {
  // A plain `echo` too: a scheduled script's output goes to a log file nobody reads (in a function it may be its answer).
  if (isLog(stmt) || stmt.type === "variable_assignment" || /^(true|:)$/.test(name(stmt)) || (!inFunction && /^(echo|printf)$/.test(name(stmt)))) return true;
  // `echo "FAIL" > "$STATUS_FILE"`, `echo "error" >> "$LOG_FILE"`: written where nobody is told.
  return stmt.type === "redirected_statement" && /^(echo|printf|date)$/.test(name(stmt)) && stmt.descendantsOfType("file_redirect").length > 0;
}

/**
 * The run's work fails, the failure branch only records it (a log line, a status file, a variable) and the script
 * goes on to end with exit 0: `if git push; then ...; else log_error "push failed"; fi`, `if [ $exit_code -eq 0 ];
 * then ...; else echo "FAIL" > status; fi; exit 0`. In an item loop that is log-only-skip; a branch that stops with
 * exit 0 is the older shape. Not when the script exits non-zero anywhere after the branch (the variable it set may be
 * what decides), nor when the branch sends, notifies or writes a skip summary.
 */
function failureThenExitZero(root: SyntaxNode, add: (mechanism: SkipMechanism, node: SyntaxNode) => void, out: readonly SkipEvidence[]): void {
  if (!/\bif\b/.test(root.text)) return;
  for (const ifs of sh(root, "if_statement")) {
    if (inLoop(ifs)) continue;
    const cond = ifs.childForFieldName("condition") ?? ifs.namedChildren[0];
    if (!cond) continue;
    const condEnd = Math.max(...ifs.childrenForFieldName("condition").map((c) => c.endIndex), cond.endIndex);
    const negated = /^!/.test(cond.text.trim());
    // A test or an arithmetic comparison (`[ -d venv ]`, `(( n > 5 ))`) is not work that failed.
    const work = isWork(cond) && !/^!?\s*(\(\(|\[)/.test(cond.text.trim());
    const inFunction = ifs.descendantsOfType("function_definition").length > 0 || (() => { for (let p = ifs.parent; p; p = p.parent) if (p.type === "function_definition") return true; return false; })();
    const clauses = ifs.namedChildren.filter((c) => c.type === "elif_clause" || c.type === "else_clause");
    let branches: SyntaxNode[][] = [];
    if ((negated && work) || STATUS_FAILED.test(cond.text)) branches = [statementsOf(ifs).filter((c) => c.startIndex >= condEnd && !/^(elif_clause|else_clause)$/.test(c.type))];
    else if ((!negated && work) || STATUS_OK.test(cond.text)) branches = clauses.map((c) => statementsOf(c).filter((x) => !/^(elif_clause|else_clause)$/.test(x.type) && (c.type === "else_clause" || x.startIndex >= (c.namedChildren[0]?.endIndex ?? 0))));
    branches = branches.filter((b) => b.length > 0);
    if (branches.length === 0 || !branches.every((b) => b.every((x) => recordsOnly(x, inFunction)) && b.some((x) => x.type !== "variable_assignment"))) continue;
    if (SURFACE.test(branches.flat().map((b) => b.text).join("\n"))) continue;
    // Whatever comes after may still end the run non-zero: then the failure is not hidden. A variable the branch sets
    // may be read anywhere later, so then the whole rest of the script counts.
    if (branches.flat().some((b) => b.type === "variable_assignment") ? lastSurface(root) >= ifs.endIndex : tellsAfter(root, ifs)) continue;
    const first = branches[0]![0]!;
    if (out.some((o) => o.line === at(first)[0])) continue;
    add("exit-0-on-failure", ifs);
    // An explicit `exit 0` right after it ends the run as a success.
    const next = statementsOf(ifs.parent!).find((c) => c.startIndex > ifs.endIndex);
    if (next && exitZero(next)) add("exit-0-on-failure", next);
  }
}

/** A line that only tells the log the run is done: an echo, a log call, or the end of the run (`exit 0`, `true`). */
function doneLine(stmt: SyntaxNode): boolean {
  const n = name(stmt);
  return isLog(stmt) || /^(echo|printf|true|:)$/.test(n) || exitZero(stmt);
}

/**
 * The main path's last piece of work runs as a plain statement, and only messages follow it to the end of the run:
 * `git push origin main` then `echo "synced successfully"`, or an export then `echo "Done."`. Nothing reads its
 * status (no `||`, no `if`, no `$?`, no `set -e`), so a failure ends in the same message and exit 0 as a success.
 * Read on the script's main path only (the last top-level statements, and each branch of a final `if`); a call to
 * one of the script's own functions, or a run whose last statement is the work itself, keeps its status. Only in a
 * script the scheduler starts itself (entryOnly): a tool the agent calls now and then hands its output to the agent.
 */
function uncheckedThenDone(root: SyntaxNode, out: SkipEvidence[]): void {
  if (/\bset\s+-[a-zA-Z]*e|\berrexit\b|\bERR\b/.test(root.text)) return;
  const own = new Set(root.descendantsOfType("function_definition").map((f) => f.childForFieldName("name")?.text ?? ""));
  const tail = (stmts: readonly SyntaxNode[]): void => {
    const after: SyntaxNode[] = [];
    for (let i = stmts.length - 1; i >= 0; i--) {
      const stmt = stmts[i]!;
      if (doneLine(stmt)) {
        after.unshift(stmt);
        continue;
      }
      if (stmt.type === "if_statement") {
        if (after.length > 0 && SURFACE.test(after.map((a) => a.text).join("\n"))) return;
        const cond = stmt.childForFieldName("condition") ?? stmt.namedChildren[0];
        const condEnd = Math.max(...stmt.childrenForFieldName("condition").map((c) => c.endIndex), cond?.endIndex ?? 0);
        tail(statementsOf(stmt).filter((c) => c.startIndex >= condEnd && !/^(elif_clause|else_clause)$/.test(c.type)));
        for (const clause of stmt.namedChildren.filter((c) => c.type === "elif_clause" || c.type === "else_clause")) {
          const start = clause.type === "elif_clause" ? (clause.namedChildren[0]?.endIndex ?? 0) : 0;
          tail(statementsOf(clause).filter((c) => c.startIndex >= start && !/^(elif_clause|else_clause)$/.test(c.type)));
        }
        return;
      }
      const said = after.find((a) => !exitZero(a) && !/^(true|:)$/.test(name(a)));
      const cmd = stmt.type === "redirected_statement" ? stmt.childForFieldName("body") : stmt;
      // `nohup worker &` runs on in the background: its status is not this run's to read.
      if (!said || cmd?.type !== "command" || !isWork(stmt) || /&\s*$/.test(stmts[i + 1] ? root.text.slice(stmt.endIndex, stmts[i + 1]!.startIndex) : root.text.slice(stmt.endIndex, stmt.endIndex + 3).split("\n")[0]!) || own.has(name(stmt)) || SURFACE.test(after.map((a) => a.text).join("\n"))) return;
      out.push({ mechanism: "exit-0-on-failure", line: at(said)[0], column: at(said)[1], snippet: `${said.text.split("\n")[0]!.trim().slice(0, 100)}  (the status of \`${stmt.text.split("\n")[0]!.trim().slice(0, 60)}\` at line ${at(stmt)[0]} is never read)`, entryOnly: true });
      return;
    }
  };
  tail(statementsOf(root));
}

/**
 * The run's environment is not there and the whole step is skipped with a line in a log: `if [ -d "$VENV" ]; then
 * source "$VENV/bin/activate"; python3 monitor.py; else echo "venv missing" >> "$LOG"; fi`, or `if [ ! -x "$BIN" ];
 * then echo ...; exit 0; fi`. Only a folder or an executable held in a variable of its own that the work then uses (a
 * file, or a folder under a path such as "$WORKSPACE/memory", may be input that is simply absent); only outside an item loop, and not when the script exits non-zero or tells someone afterwards.
 */
function requiredPathMissing(root: SyntaxNode, add: (mechanism: SkipMechanism, node: SyntaxNode) => void): void {
  if (!/\[\[?\s+!?\s*-[dx]\s/.test(root.text)) return;
  for (const ifs of sh(root, "if_statement")) {
    if (inLoop(ifs)) continue;
    const cond = ifs.childForFieldName("condition") ?? ifs.namedChildren[0];
    const m = cond ? /^\[\[?\s+(!\s+)?-[dx]\s+"?\$\{?(\w+)\}?"?\s*\]\]?$/.exec(cond.text.trim().replace(/;$/, "")) : null;
    if (!cond || !m) continue;
    const [, negated, variable] = m;
    const inFunction = (() => { for (let p = ifs.parent; p; p = p.parent) if (p.type === "function_definition") return true; return false; })();
    const condEnd = Math.max(...ifs.childrenForFieldName("condition").map((c) => c.endIndex), cond.endIndex);
    const thenBody = statementsOf(ifs).filter((c) => c.startIndex >= condEnd && !/^(elif_clause|else_clause)$/.test(c.type));
    const elseClause = ifs.namedChildren.find((c) => c.type === "else_clause");
    // The work needs it: the branch or the rest names the path and runs something (`source "$VENV/bin/activate"; python3 ...`).
    const uses = (nodes: readonly SyntaxNode[]) => new RegExp(`\\$\\{?${variable}\\b`).test(nodes.map((n) => n.text).join("\n")) && nodes.some((n) => [n, ...n.descendantsOfType("command")].some((c) => c.type === "command" && isWork(c)));
    let missing: SyntaxNode[];
    if (negated) {
      // `if [ ! -d "$VENV" ]; then log; exit 0; fi`, and the rest of the script works with it.
      if (!thenBody.some(exitZero) || !thenBody.every((b) => exitZero(b) || recordsOnly(b, inFunction))) continue;
      missing = thenBody;
      const rest = statementsOf(ifs.parent!).filter((c) => c.startIndex > ifs.endIndex);
      if (!uses(rest)) continue;
    } else {
      if (!elseClause || ifs.namedChildren.some((c) => c.type === "elif_clause") || !uses(thenBody)) continue;
      missing = statementsOf(elseClause);
      if (missing.length === 0 || !missing.every((b) => exitZero(b) || recordsOnly(b, inFunction))) continue;
    }
    if (SURFACE.test(missing.map((b) => b.text).join("\n")) || lastSurface(root) >= ifs.endIndex) continue;
    add("tool-missing", negated ? ifs : elseClause!);
  }
}
