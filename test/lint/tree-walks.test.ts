// The shared searches of a parse tree (nodesOf, nodesWithin) must answer exactly what tree-sitter's own
// descendantsOfType answers: the readers use them in its place to walk each tree once instead of once per question.
import { beforeAll, describe, expect, it } from "vitest";
import { nodesOf, nodesWithin, Parsers, type Grammar, type SyntaxNode } from "../../src/lint/source/tree-sitter.js";

let parsers: Parsers;
beforeAll(async () => {
  parsers = await Parsers.load(["python", "bash", "javascript"]);
});

const PYTHON = `import os

def fetch(items, limit=MAX):
    batch = items[:limit]
    for x in batch:
        try:
            send(x)
        except OSError as e:
            print(e)
            continue
    done = [y for y in batch if y]
    return f(g(h(1)))

x = (lambda: call())()
def broken(:
    y = = 1
`;
const BASH = `#!/usr/bin/env bash
for f in *.txt; do
  if ! curl -s "$f" || echo "failed $f" >&2; then continue; fi
  x=$(cat "$f" | head -n 3 || echo '[]')
done
if [ -z "$1" ; then
`;
const JS = `for (const x of items.slice(0, 10)) {
  try { await send(x); } catch (e) { console.error(e); }
}
const f = () => g(h(1));
f()
if (a) { b(
`;

const SAMPLES: [Grammar, string, string[]][] = [
  ["python", PYTHON, ["assignment", "call", "for_statement", "identifier", "expression_statement", "block", "ERROR"]],
  ["bash", BASH, ["command", "list", "if_statement", "command_name", "word", "pipeline", "ERROR"]],
  ["javascript", JS, ["call_expression", "identifier", "statement_block", "expression_statement", "arguments", "ERROR"]],
];

const ids = (nodes: readonly SyntaxNode[]) => nodes.map((n) => `${n.type}@${n.startIndex}-${n.endIndex}#${n.id}`);

/** Every node of the tree, by a cursor-free walk over children. */
function everyNode(root: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const visit = (n: SyntaxNode) => {
    out.push(n);
    for (const c of n.children) visit(c);
  };
  visit(root);
  return out;
}

describe("shared tree searches", () => {
  for (const [grammar, text, types] of SAMPLES) {
    it(`nodesWithin answers what descendantsOfType answers, for every ${grammar} node and type (syntax errors included)`, () => {
      parsers.parse(grammar, text, (root) => {
        const nodes = everyNode(root);
        expect(nodes.length).toBeGreaterThan(40);
        let nonEmpty = 0;
        for (const type of types) {
          for (const node of nodes) {
            const expected = ids(node.descendantsOfType(type));
            expect(ids(nodesWithin(root, node, type, types.slice(0, 2)))).toEqual(expected);
            if (expected.length > 0) nonEmpty++;
          }
        }
        // The comparison covered nodes that have such descendants, not only empty answers.
        expect(nonEmpty).toBeGreaterThan(20);
      });
    });

    it(`nodesOf keeps every ${grammar} type it has searched for when another reader asks for a new one`, () => {
      parsers.parse(grammar, text, (root) => {
        const [a, b, c] = types;
        const first = nodesOf(root, a!, [a!]);
        const second = nodesOf(root, b!, [b!, c!]);
        expect(ids(first)).toEqual(ids(root.descendantsOfType(a!)));
        expect(ids(second)).toEqual(ids(root.descendantsOfType(b!)));
        // The earlier type is still answered from the same search, the same list object.
        expect(nodesOf(root, a!, [])).toBe(nodesOf(root, a!, [c!]));
        expect(ids(nodesOf(root, a!, []))).toEqual(ids(root.descendantsOfType(a!)));
        expect(ids(nodesOf(root, c!, []))).toEqual(ids(root.descendantsOfType(c!)));
      });
    });
  }
});
