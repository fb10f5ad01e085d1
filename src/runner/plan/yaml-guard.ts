// A plan is YAML, and YAML can be hostile: nesting thousands deep overflows the parser's stack, a few lines of
// aliases expand to millions of nodes (a "billion laughs" bomb), and an alias inside its own anchor makes a
// cycle that any walk over the result follows forever. Each is bad input (65, at its line and column), never a
// crash of ours (70). Depth is bounded on the text before parsing; aliases are checked on the parsed document.
import { isAlias, visit, type Document, type LineCounter } from "yaml";
import type { PlanProblem } from "./types.js";

/** A plan nests a few levels (steps, a parallel block, its steps); more than this is not a plan. */
export const MAX_PLAN_DEPTH = 64;
/** Columns of indentation and `- ` markers before a line's content; a real plan stays under a few dozen. */
const MAX_BLOCK_PREFIX = 4 * MAX_PLAN_DEPTH;
/** Alias expansions allowed when the document becomes data (the yaml package's own default). */
export const MAX_ALIAS_COUNT = 100;

/** Too-deep nesting in `text`, found without parsing: flow brackets outside quotes, and block indentation. */
export function depthProblem(text: string): PlanProblem | undefined {
  let depth = 0;
  let line = 1;
  let lineStart = 0;
  let quote = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      line += 1;
      lineStart = i + 1;
      const prefix = /^(?: |- )*/.exec(text.slice(lineStart, lineStart + MAX_BLOCK_PREFIX + 2))![0].length;
      if (prefix > MAX_BLOCK_PREFIX) return tooDeep(line, prefix, "indentation");
      continue;
    }
    if (quote !== 0) {
      if (c === 0x5c && quote === 0x22) i += 1;
      else if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x23 && (i === 0 || /\s/.test(text[i - 1]!))) {
      const end = text.indexOf("\n", i);
      i = (end === -1 ? text.length : end) - 1; // a comment: skip to the line's end
    } else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > MAX_PLAN_DEPTH) return tooDeep(line, i - lineStart + 1, "brackets");
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return undefined;
}

function tooDeep(line: number, column: number, how: string): PlanProblem {
  return { path: "(syntax)", line, column, message: `nests deeper than ${MAX_PLAN_DEPTH} levels (${how}); a plan is a few levels deep, so it is not parsed` };
}

/** Aliases that point into their own anchor (a cycle), at their line and column. */
export function recursiveAliasProblems(doc: Document, lineCounter: LineCounter): PlanProblem[] {
  const problems: PlanProblem[] = [];
  visit(doc, {
    Alias(_key, node, path) {
      const target = node.resolve(doc);
      if (target !== undefined && path.includes(target)) problems.push({ path: "(syntax)", ...at(node.range, lineCounter), message: `the alias *${node.source} is inside its own anchor &${node.source}, which makes an endless cycle; repeat the content instead` });
    },
  });
  return problems;
}

/** Where the first alias is: a bomb is reported there, since the expansion as a whole has no single place. */
export function firstAliasPosition(doc: Document, lineCounter: LineCounter): { line?: number; column?: number } {
  let found: { line?: number; column?: number } = {};
  visit(doc, (_key, node) => {
    if (!isAlias(node)) return undefined;
    found = at(node.range, lineCounter);
    return visit.BREAK;
  });
  return found;
}

function at(range: readonly number[] | null | undefined, lineCounter: LineCounter): { line?: number; column?: number } {
  if (!range) return {};
  const pos = lineCounter.linePos(range[0]!);
  return { line: pos.line, column: pos.col };
}
