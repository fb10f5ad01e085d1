// A progress mark written whatever the work before it answered (Python and JavaScript/TypeScript; one notion, two
// grammars). The mark is what the next run reads to decide what to skip: a `last_*` time, a watermark, a cursor, a
// seen or processed set. The work is a call to a function of the same file that answers its failure with a value
// instead of raising (`return {"error": ...}`, `return None`, `return { error: text }`, `return null` in an except,
// a catch, or a branch on a failed status), or that passes such an answer on untested. When no condition or raise
// reads that answer between the call and the mark, a failed call still moves the mark: the window or items it covered
// are never tried again and nobody is told. A mark written only after the answer is tested is not this.
import type { SyntaxNode } from "../source/tree-sitter.js";
import { nodesOf } from "../source/tree-sitter.js";

/** The grammar-specific half of the notion: node types and how a failure answer and a mark are written. */
export interface StampGrammar {
  readonly types: readonly string[];
  readonly functions: ReadonlySet<string>;
  readonly call: string;
  readonly assignment: string;
  readonly conditions: ReadonlySet<string>;
  readonly raises: ReadonlySet<string>;
  nameOf(def: SyntaxNode): string | undefined;
  calleeName(call: SyntaxNode): string;
  /** `return` value that says "it failed": an error object, None/null, False/false. */
  failureValue(value: SyntaxNode): boolean;
  /** The failure value carries the error itself (`{"error": ...}`, `{ ok: false }`): a caller can hand it on. */
  errorValue(value: SyntaxNode): boolean;
  /** The branch a return sits in answers a failure: an except/catch, or an `if` on a failed status or an error. */
  failureBranch(node: SyntaxNode, def: SyntaxNode): boolean;
  /** Keys an assignment writes: the field of its left side, and the keys of an object or dict written whole. */
  markKeys(assign: SyntaxNode): string[];
  /** The names a call's answer is kept in (`r = f()`, `const { a } = await f()`); empty when it is used in place. */
  resultNames(call: SyntaxNode): string[];
  /** The object a mark is written on (`state` of `state["last_run"] = now`, `self.state`). */
  markHolder(assign: SyntaxNode): string | undefined;
  /** A call of the file's own function: `update_state(x)`, `self.save()`, not a method of some other object. */
  ownCall(call: SyntaxNode): boolean;
  /** The object a call's answer is stored into (`out` of `out["users"] = f()`). */
  storedIn(call: SyntaxNode): string[];
}

/** A key the next run reads to know where to start: a `last_*` time or id, a watermark, cursor, seen/processed set. */
const MARK = /^_?(last(_?[A-Za-z0-9]+)*|watermark|high_?water(_?mark)?|highWater(Mark)?|cursor|since|checkpoint|processed(_?(ids|urls|keys|Ids|Urls|Keys))?|seen(_?(ids|urls|keys|Ids|Urls|Keys))?)$/;
/** A call that keeps an object for the next run. */
const SAVE = /save|write|dump|persist|store|flush|commit/i;
/** `last_error`, `lastStatus`, `last_exit_code`: a record of what happened, not a mark of where to start. */
const NOT_MARK = /error|err$|status|result|exit|code|message|msg|output|response|exception|fail|attempt|reason|warn|name|value|price|level|state$|file|path|dir$/i;
/** A branch on an outcome (`if backup_completed_ok:`, `if (sent)`): the mark is written only when the work went well. */
const OUTCOME = /\bok\b|_ok\b|Ok\b|success|succeed|complete|done|sent|delivered|error|fail|valid/i;

export function isMarkKey(key: string): boolean {
  return MARK.test(key) && !NOT_MARK.test(key);
}

type Add = (node: SyntaxNode, snippet: string) => void;

function first(node: SyntaxNode): string {
  return node.text.split("\n")[0]!.trim().slice(0, 100);
}

/** Text a file needs for the notion to apply at all: a mark's name, and a failure answered with a value. */
const MARK_TEXT = /last|cursor|watermark|since|checkpoint|seen|processed|high_?water/i;
const ANSWER_TEXT = /\b(None|False|null|false|undefined)\b|error/;

export function stampPastFailure(root: SyntaxNode, g: StampGrammar, add: Add): void {
  if (!MARK_TEXT.test(root.text) || !ANSWER_TEXT.test(root.text)) return;
  const of = (type: string) => nodesOf(root, type, g.types);
  const owner = (node: SyntaxNode): SyntaxNode | undefined => {
    for (let p = node.parent; p; p = p.parent) if (g.functions.has(p.type)) return p;
    return undefined;
  };
  const same = (a: SyntaxNode | undefined, b: SyntaxNode | undefined) => a?.startIndex === b?.startIndex && a?.type === b?.type;
  const defs = new Map<string, SyntaxNode>();
  for (const type of g.functions) {
    for (const def of of(type)) {
      const name = g.nameOf(def);
      if (name && !defs.has(name)) defs.set(name, def);
    }
  }
  if (defs.size === 0) return;
  // Functions that answer a failure with a value.
  const failing = new Map<string, SyntaxNode>();
  const errorAnswers = new Set<string>();
  for (const ret of of("return_statement")) {
    const value = ret.namedChildren[0];
    const def = owner(ret);
    const name = def ? g.nameOf(def) : undefined;
    if (!value || !def || !name || failing.has(name) || !same(defs.get(name), def)) continue;
    if (g.failureValue(value) && g.failureBranch(ret, def)) {
      failing.set(name, ret);
      if (g.errorValue(value)) errorAnswers.add(name);
    }
  }
  if (failing.size === 0) return;
  const calls = of(g.call);
  const tested = (call: SyntaxNode, upTo: number, def: SyntaxNode | undefined): boolean => {
    // `if fetch(x):`, `if (!(await send()))`: the answer is the condition.
    for (let p = call.parent; p && !same(p, def); p = p.parent) {
      if (g.conditions.has(p.type) && !p.namedChildren.some((c) => c.startIndex <= call.startIndex && c.endIndex >= call.endIndex && /block|body|suite|consequence/.test(c.type))) return true;
      if (/statement$|^(block|statement_block)$/.test(p.type)) break;
    }
    const names = g.resultNames(call);
    if (names.length === 0) return false;
    const scope = def ?? root;
    const re = new RegExp(`\\b(${names.map((n) => n.replace(/[$]/g, "\\$")).join("|")})\\b`);
    for (const type of [...g.conditions, ...g.raises]) {
      for (const n of of(type)) {
        if (n.startIndex < call.endIndex || n.startIndex > upTo || n.startIndex < scope.startIndex || n.endIndex > scope.endIndex) continue;
        const cond = g.raises.has(n.type) ? n : (n.childForFieldName("condition") ?? n.namedChildren[0]);
        if (cond && re.test(cond.text)) return true;
      }
    }
    return false;
  };
  // The answer reaches the function's own return: `return f(x)`, or kept in `r` / `out["users"]` and `return out`.
  const handsOn = (call: SyntaxNode, def: SyntaxNode): boolean => {
    for (let p = call.parent; p && !same(p, def); p = p.parent) if (p.type === "return_statement") return true;
    const names = [...g.resultNames(call), ...g.storedIn(call)];
    if (names.length === 0) return false;
    const re = new RegExp(`\\b(${names.map((n) => n.replace(/[$]/g, "\\$")).join("|")})\\b`);
    return of("return_statement").some((r) => r.startIndex > call.endIndex && r.endIndex <= def.endIndex && same(owner(r), def) && re.test(r.text));
  };
  // Rounds: a function that calls a failing one and passes its answer on untested fails the same way.
  for (let round = 0; round < 2; round++) {
    let grew = false;
    for (const call of calls) {
      const callee = g.calleeName(call);
      if (!failing.has(callee)) continue;
      const def = owner(call);
      const name = def ? g.nameOf(def) : undefined;
      if (!def || !name || failing.has(name) || !same(defs.get(name), def)) continue;
      // Only an error answer is handed on as a failure: a None kept in a report field is a value missing, not an error.
      if (!errorAnswers.has(callee)) continue;
      if (!tested(call, def.endIndex, def) && handsOn(call, def)) {
        errorAnswers.add(name);
        failing.set(name, failing.get(callee)!);
        grew = true;
      }
    }
    if (!grew) break;
  }
  // A mark counts when it is saved for the next run: after it, the function hands the object that holds it to a save
  // or write (`saveState(state)`, `save_json(path, state)`, `json.dump(state, f)`, `self._save_state()`).
  const persisted = (assign: SyntaxNode): boolean => {
    const holder = g.markHolder(assign);
    if (!holder) return false;
    const def = owner(assign);
    const end = def?.endIndex ?? root.endIndex;
    const self = /^(self|this)\./.test(holder);
    return calls.some((c) => {
      if (c.startIndex < assign.endIndex || c.endIndex > end || !same(owner(c), def) || !SAVE.test(g.calleeName(c))) return false;
      const args = c.childForFieldName("arguments")?.text ?? "";
      const fn = c.childForFieldName("function")?.text ?? "";
      return new RegExp(`\\b${holder.replace(/[.$]/g, (x) => `\\${x}`)}\\b`).test(`${args} ${fn}`) || (self && /^(self|this)\./.test(fn));
    });
  };
  // Functions that write a mark (`update_state(name)` writes `last_checked_at`): calling one writes it.
  const markFns = new Set<string>();
  const marks: SyntaxNode[] = [];
  for (const assign of of(g.assignment)) {
    if (!g.markKeys(assign).some(isMarkKey) || !persisted(assign)) continue;
    marks.push(assign);
    const def = owner(assign);
    const name = def ? g.nameOf(def) : undefined;
    if (name && same(defs.get(name), def)) markFns.add(name);
  }
  for (const call of calls) if (markFns.has(g.calleeName(call)) && g.ownCall(call)) marks.push(call);
  const underOutcome = (mark: SyntaxNode, def: SyntaxNode | undefined): boolean => {
    for (let p = mark.parent; p && !same(p, def); p = p.parent) {
      if (g.conditions.has(p.type) && OUTCOME.test(p.childForFieldName("condition")?.text ?? "")) return true;
    }
    return false;
  };
  const reported = new Set<number>();
  for (const mark of marks.sort((a, b) => a.startIndex - b.startIndex)) {
    const def = owner(mark);
    if (underOutcome(mark, def)) continue;
    const work = calls.find((c) => c.endIndex <= mark.startIndex && failing.has(g.calleeName(c)) && same(owner(c), def) && !tested(c, mark.startIndex, def));
    if (!work) continue;
    const line = mark.startPosition.row;
    if (reported.has(line)) continue;
    reported.add(line);
    const answer = failing.get(g.calleeName(work))!;
    add(mark, `${first(mark)}  (written whatever ${g.calleeName(work)}() at line ${work.startPosition.row + 1} answered; it answers a failure with ${first(answer)}, line ${answer.startPosition.row + 1})`);
  }
}
