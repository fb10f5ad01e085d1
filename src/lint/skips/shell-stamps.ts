// The shell form of a progress mark written whatever the work before it answered (stamp-past-failure.ts is the Python
// and JS/TS form). A mark is a write the next run reads to decide what to skip: a `last_*` field set with jq, or a
// date, id or name written into a state, sent, seen or last-run file. The work before it failed quietly when:
//   - its failure only logs or puts a default in place (`curl … || echo '{"items":[]}'`, `git push || warn …`), in the
//     same function or in a function of the script called before the mark; or
//   - the check between them reads another command's status: `send … | tee -a "$LOG"` then `if [ $? -eq 0 ]` tests
//     tee, not the send (without pipefail).
// The failed window or items are then never tried again, and nobody is told.
import type { SkipEvidence } from "../source/facts.js";
import { at, nodesOf, type SyntaxNode } from "../source/tree-sitter.js";
import { commandName as name, isWork as commandIsWork, NOT_WORK } from "./shell-commands.js";

const TYPES = ["function_definition", "command", "redirected_statement", "list", "if_statement", "pipeline"];
/** A file the next run reads to know where to start or what is done. */
const MARK_FILE = /(^|[-_/.${"'])(state|last|seen|sent|stamp|cursor|processed|watermark|checkpoint|since|done|posted|notified)/i;
/** Files that record what went wrong or what was made, not where the next run starts. */
const NOT_MARK_FILE = /error|err\b|fail|log|report|manifest|\/dev\//i;
/** What a mark holds: a date or time, or an id. */
const MARK_VALUE = /\bdate\b|\$\{?(TODAY|NOW|now|today|ts|TS|timestamp|TIMESTAMP|\w*_?(id|ID|Id))\b/;
/** A jq filter that moves a mark: `.last_sync = $ts`, `.cursor |= …`, `.seen += [$id]`. */
const JQ_MARK = /\.(last\w*|since|cursor|watermark|checkpoint|seen\w*|processed\w*|sent\w*)\s*(=|\|=|\+=)/i;
const STOPS = /\bexit\s+(?:[1-9]|"?\$)|\breturn\s+(?:[1-9]|"?\$)/;

/** A list or an assignment is work when any command in it is; anything else as the shell readers judge a command. */
function isWork(node: SyntaxNode, pipefail: boolean): boolean {
  const inner = node.type === "redirected_statement" ? node.childForFieldName("body") ?? node : node;
  if (inner.type === "list" || inner.type === "variable_assignment" || inner.type === "declaration_command") return inner.descendantsOfType("command").some((c) => commandIsWork(c, pipefail));
  return commandIsWork(node, pipefail);
}

/**
 * The file is read back: some other statement of the script tests, reads or greps it (`[[ -f "$STATE_FILE" ]]`,
 * `grep -q "$id" "$SENT_FILE"`, `jq … "$STATE_FILE"`), so the next run decides from it what to skip.
 */
function readBack(dest: string, stmt: SyntaxNode, root: SyntaxNode): boolean {
  const v = /\$\{?(\w+)/.exec(dest)?.[1];
  if (!v) return false;
  const ref = new RegExp(String.raw`\$\{?${v}\b`);
  return root.descendantsOfType(["command", "test_command", "file_redirect"]).some((c) => {
    if (c.startIndex >= stmt.startIndex && c.endIndex <= stmt.endIndex) return false;
    if (c.type === "file_redirect") return /^</.test(c.text.trim()) && ref.test(c.text);
    if (c.type === "test_command") return ref.test(c.text);
    return /^(cat|grep|egrep|jq|head|tail|source|\.|read|awk|sed|wc|test|\[|\[\[|python3?|node)$/.test(name(c)) && c.childrenForFieldName("argument").some((a) => ref.test(a.text));
  });
}

/** The statement writes a mark: a jq filter that moves one, or a redirect or `mv` into a mark file the script reads back. */
function writesMark(stmt: SyntaxNode, root: SyntaxNode): boolean {
  const text = stmt.text;
  if (JQ_MARK.test(text) && /\bjq\b/.test(text)) return true;
  for (const r of stmt.descendantsOfType("file_redirect")) {
    if (/^\d?>&/.test(r.text.trim()) || !/^(>>?|>\|)/.test(r.text.trim().replace(/^1/, ""))) continue;
    const dest = r.childForFieldName("destination")?.text ?? r.text;
    if (MARK_FILE.test(dest) && !NOT_MARK_FILE.test(dest) && MARK_VALUE.test(text) && readBack(dest, stmt, root)) return true;
  }
  return false;
}

function owner(node: SyntaxNode): SyntaxNode | undefined {
  for (let p = node.parent; p; p = p.parent) if (p.type === "function_definition") return p;
  return undefined;
}

/** `work || log/echo/true …` with no exit or return non-zero on the right: the failure is only logged or defaulted. */
function quietList(list: SyntaxNode, pipefail: boolean): boolean {
  const op = list.children.find((c) => c.text === "||");
  if (!op) return false;
  const left = list.namedChildren.find((c) => c.endIndex <= op.startIndex);
  const right = list.namedChildren.find((c) => c.startIndex >= op.endIndex);
  // Work on the log itself (rotating, compressing it) is housekeeping, not the run's work.
  if (!left || !right || !isWork(left, pipefail) || left.type === "list" || /log/i.test(left.text)) return false;
  const cmds = right.type === "command" || right.type === "redirected_statement" ? [right] : right.descendantsOfType("command");
  return !STOPS.test(right.text) && cmds.length > 0 && !/^(variable_assignment|declaration_command)$/.test(right.type) && cmds.every((c) => NOT_WORK.has(name(c)) || /^(log|warn|error|info)\w*$/.test(name(c)));
}

export function shellStamps(root: SyntaxNode): SkipEvidence[] {
  const text = root.text;
  if (!MARK_FILE.test(text) && !JQ_MARK.test(text)) return [];
  const out: SkipEvidence[] = [];
  const of = (type: string) => nodesOf(root, type, TYPES);
  const pipefail = /\bpipefail\b/.test(text);
  const same = (a: SyntaxNode | undefined, b: SyntaxNode | undefined) => a?.startIndex === b?.startIndex;
  const statementOf = (n: SyntaxNode) => {
    let s = n;
    while (s.parent && !/^(program|compound_statement|function_definition|if_statement|elif_clause|else_clause|do_group|case_item|subshell)$/.test(s.parent.type)) s = s.parent;
    return s;
  };
  const marks = [...of("command"), ...of("redirected_statement")].filter((s) => (s.type === "redirected_statement" || s.parent?.type !== "redirected_statement") && writesMark(s, root));
  if (marks.length === 0) return out;
  // A failing read of a file the script writes itself (its own state) is a first run, not work that failed.
  const written = new Set<string>();
  for (const r of root.descendantsOfType("file_redirect")) {
    const v = /^(?:1?>>?|>\|)\s*"?\$\{?(\w+)/.exec(r.text.trim())?.[1];
    if (v) written.add(v);
  }
  const ownState = (l: SyntaxNode) => {
    // What the command reads: its text without the redirects it writes through.
    let text = l.text;
    for (const r of l.descendantsOfType("file_redirect")) if (/^(1?>>?|>\|)/.test(r.text.trim())) text = text.replace(r.text, "");
    return [...text.matchAll(/\$\{?(\w+)/g)].some((m) => written.has(m[1]!) && !/LOG/i.test(m[1]!));
  };
  const quiet = of("list").filter((l) => quietList(l, pipefail) && !ownState(l.namedChildren[0]!));
  const fns = new Map<string, SyntaxNode>();
  for (const def of of("function_definition")) fns.set(def.childForFieldName("name")?.text ?? "", def);
  const quietFns = new Set([...fns].filter(([, def]) => quiet.some((q) => same(owner(q), def))).map(([n]) => n));
  const reported = new Set<number>();
  const report = (mark: SyntaxNode, why: string) => {
    const [line, column] = at(mark);
    if (reported.has(line)) return;
    reported.add(line);
    out.push({ mechanism: "progress-past-failure", line, column, snippet: `${mark.text.split("\n")[0]!.trim().slice(0, 100)}  (${why})` });
  };
  // What runs before `pos` in `scope`, quietly failing: a quiet list, or a call of a function that has one.
  const quietBefore = (scope: SyntaxNode | undefined, pos: number): SyntaxNode | undefined =>
    quiet.find((q) => q.endIndex <= pos && same(owner(q), scope)) ?? of("command").find((c) => c.endIndex <= pos && same(owner(c), scope) && quietFns.has(name(c)));
  // A mark under a branch is written on some outcome the script tested; only a mark written on every path is this.
  const branched = (mark: SyntaxNode) => {
    for (let p = mark.parent; p && p.type !== "function_definition"; p = p.parent) if (/^(if_statement|case_statement|list)$/.test(p.type) && !(p.type === "list" && writesMark(p, root))) return true;
    return false;
  };
  for (const mark of marks) {
    if (branched(mark)) continue;
    const scope = owner(mark);
    const before = quietBefore(scope, mark.startIndex);
    if (before) report(mark, `written whatever ${before.text.split("\n")[0]!.trim().slice(0, 60)} at line ${at(before)[0]} did; its failure is only logged`);
  }
  // A function that writes a mark, called after quiet failures: the mark is reported where it is written.
  for (const [fnName, def] of fns) {
    const own = marks.filter((m) => same(owner(m), def) && !branched(m));
    if (own.length === 0) continue;
    for (const call of of("command")) {
      if (name(call) !== fnName) continue;
      const before = quietBefore(owner(call), call.startIndex);
      if (before) for (const m of own) report(m, `${fnName}, called at line ${at(call)[0]}, runs whatever ${before.text.split("\n")[0]!.trim().slice(0, 60)} at line ${at(before)[0]} did; its failure is only logged`);
    }
  }
  // `send … | tee -a "$LOG"` then `if [ $? -eq 0 ]; then <mark>`: the check reads tee's status, not the send's.
  if (!pipefail) {
    for (const ifs of of("if_statement")) {
      const cond = ifs.namedChildren[0];
      if (!cond || !/\$\?\s*(-eq|==?)\s*0\b/.test(cond.text)) continue;
      const stmt = statementOf(ifs);
      const prev = stmt.parent?.namedChildren.filter((c) => c.type !== "comment" && c.endIndex <= stmt.startIndex).at(-1);
      const pipe = prev?.type === "redirected_statement" ? prev.childForFieldName("body") : prev;
      if (pipe?.type !== "pipeline" || isWork(pipe, false) || !pipe.namedChildren.slice(0, -1).some((c) => isWork(c, false))) continue;
      const thenMarks = marks.filter((m) => m.startIndex > cond.endIndex && m.endIndex <= ifs.endIndex && !ifs.namedChildren.some((c) => (c.type === "else_clause" || c.type === "elif_clause") && c.startIndex <= m.startIndex));
      for (const m of thenMarks) report(m, `the check at line ${at(ifs)[0]} reads the status of ${name(pipe.namedChildren.at(-1)!) || "the last command"}, not of ${name(pipe.namedChildren[0]!) || "the work"}`);
    }
  }
  return out;
}
