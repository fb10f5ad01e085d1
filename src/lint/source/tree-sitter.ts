// Loads tree-sitter (WebAssembly, no native code) and the grammars the lint reads, only when a tile has a file to parse.
// The runtime and the .wasm grammars come from the npm package @vscode/tree-sitter-wasm; the build copies the five
// grammars the lint needs into dist/wasm/, so an installed skip-summary has no parser dependency at all and `emit` /
// `surface` never load any of it.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export type Grammar = "python" | "bash" | "javascript" | "typescript" | "tsx";

export interface Point {
  readonly row: number;
  readonly column: number;
}

/** The part of tree-sitter's Node the readers use. */
export interface SyntaxNode {
  /** The same for every object standing for one node of a tree. */
  readonly id: number;
  readonly type: string;
  readonly text: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly startPosition: Point;
  readonly endPosition: Point;
  readonly parent: SyntaxNode | null;
  readonly children: readonly SyntaxNode[];
  readonly namedChildren: readonly SyntaxNode[];
  readonly isNamed: boolean;
  readonly hasError: boolean;
  childForFieldName(name: string): SyntaxNode | null;
  childrenForFieldName(name: string): readonly SyntaxNode[];
  descendantsOfType(type: string | readonly string[]): readonly SyntaxNode[];
  walk(): Cursor;
}

interface Cursor {
  readonly nodeType: string;
  readonly nodeIsNamed: boolean;
  readonly currentNode: SyntaxNode;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  delete(): void;
}

interface Tree {
  readonly rootNode: SyntaxNode;
  delete(): void;
}
interface ParserInstance {
  setLanguage(language: unknown): void;
  parse(text: string): Tree | null;
}
interface Runtime {
  Parser: { new (): ParserInstance; init(options: { locateFile: (file: string) => string }): Promise<void> };
  Language: { load(path: string): Promise<unknown> };
}

const FILES: Readonly<Record<Grammar, string>> = {
  python: "tree-sitter-python.wasm",
  bash: "tree-sitter-bash.wasm",
  javascript: "tree-sitter-javascript.wasm",
  typescript: "tree-sitter-typescript.wasm",
  tsx: "tree-sitter-tsx.wasm",
};

/** dist/wasm/ next to the built chunk or library; the npm package's folder when running from source (tests). */
function wasmDir(): { dir: string; runtime: string } {
  // dist/lib/index.js and dist/esm/full.js are one level below dist/, dist/esm/chunks/*.js two.
  for (const up of ["../wasm/", "../../wasm/"]) {
    const built = fileURLToPath(new URL(up, import.meta.url));
    if (existsSync(join(built, "tree-sitter.cjs"))) return { dir: built, runtime: join(built, "tree-sitter.cjs") };
  }
  const runtime = createRequire(import.meta.url).resolve("@vscode/tree-sitter-wasm");
  return { dir: dirname(runtime), runtime };
}

let runtime: Promise<{ rt: Runtime; dir: string }> | undefined;
const parsers = new Map<Grammar, Promise<ParserInstance>>();

async function loadRuntime(): Promise<{ rt: Runtime; dir: string }> {
  const { dir, runtime } = wasmDir();
  // A CommonJS (UMD) file loaded by Node itself, so its own require/__filename work in every build.
  const rt = createRequire(import.meta.url)(runtime) as Runtime;
  await rt.Parser.init({ locateFile: (file) => join(dir, file) });
  return { rt, dir };
}

export function parserFor(grammar: Grammar): Promise<ParserInstance> {
  let p = parsers.get(grammar);
  if (!p) {
    runtime ??= loadRuntime();
    p = runtime.then(async ({ rt, dir }) => {
      const parser = new rt.Parser();
      parser.setLanguage(await rt.Language.load(join(dir, FILES[grammar])));
      return parser;
    });
    parsers.set(grammar, p);
  }
  return p;
}

/** Parsers ready for synchronous use, loaded once per process for the grammars a tile needs. */
export class Parsers {
  private constructor(private readonly ready: ReadonlyMap<Grammar, ParserInstance>) {}

  static async load(grammars: Iterable<Grammar>): Promise<Parsers> {
    const ready = new Map<Grammar, ParserInstance>();
    for (const g of new Set(grammars)) ready.set(g, await parserFor(g));
    return new Parsers(ready);
  }

  has(grammar: Grammar): boolean {
    return this.ready.has(grammar);
  }

  /** Parses, hands the root to `use`, and frees the tree (WebAssembly memory is not garbage-collected). */
  parse<T>(grammar: Grammar, text: string, use: (root: SyntaxNode) => T): T {
    const parser = this.ready.get(grammar);
    if (!parser) throw new Error(`the ${grammar} grammar was not loaded`);
    const tree = parser.parse(text);
    if (!tree) throw new Error(`tree-sitter could not parse the ${grammar} text`);
    try {
      return use(tree.rootNode);
    } finally {
      tree.delete();
    }
  }
}

export const GRAMMAR_FILES = FILES;

/** 1-based line and column of a node, as every finding reports them. */
export function at(node: SyntaxNode): readonly [number, number] {
  return [node.startPosition.row + 1, node.startPosition.column + 1];
}

export function jsGrammar(fileName: string): Grammar {
  if (/\.tsx$/.test(fileName)) return "tsx";
  if (/\.[cm]?ts$/.test(fileName)) return "typescript";
  return /\.jsx$/.test(fileName) ? "tsx" : "javascript";
}

/**
 * The nodes of the given types in document order, each handed to `enter`; when `enter` returns false, the nodes inside
 * that one are passed over. The search runs inside WebAssembly and only the matches become objects: building a node
 * object crosses the boundary, which is what makes a node-by-node walk slow on a large tile.
 */
export function walk(root: SyntaxNode, types: ReadonlySet<string>, enter: (node: SyntaxNode) => boolean | void): void {
  let skipUntil = -1;
  for (const node of root.descendantsOfType([...types])) {
    if (node.startIndex < skipUntil) continue;
    if (enter(node) === false) skipUntil = node.endIndex;
  }
}

const bucketCache = new WeakMap<SyntaxNode, Map<string, SyntaxNode[]>>();

/**
 * The nodes of each type under `root`, found in one search for all of `types` and kept for the root: several checks
 * of a file ask for the same few node types, and each search walks the whole tree inside WebAssembly. A type no earlier
 * search covered means one more search, for it and every type asked for so far (readers with lists of their own share
 * a tree without searching it again for each other's types).
 */
export function nodesOf(root: SyntaxNode, type: string, types: readonly string[]): readonly SyntaxNode[] {
  let buckets = bucketCache.get(root);
  if (!buckets || !buckets.has(type)) {
    buckets = new Map([...(buckets?.keys() ?? []), ...types, type].map((t) => [t, [] as SyntaxNode[]]));
    for (const node of root.descendantsOfType([...buckets.keys()])) buckets.get(node.type)!.push(node);
    bucketCache.set(root, buckets);
  }
  return buckets.get(type)!;
}

/**
 * `node.descendantsOfType(type)` (the node itself included, in document order), taken from the tree's shared search
 * (nodesOf) instead of a new search of the node's subtree: a reader that asks for it once per loop or per branch would
 * otherwise walk the same function again each time. The nodes of that type within the node's range are its descendants,
 * except one with exactly its range that is not itself (an ancestor or a descendant: the positions cannot tell) or an
 * empty one at its edge (a missing token after it); then the subtree is searched as before.
 */
export function nodesWithin(root: SyntaxNode, node: SyntaxNode, type: string, types: readonly string[]): readonly SyntaxNode[] {
  const all = nodesOf(root, type, types);
  const { startIndex: start, endIndex: end } = node;
  // The first node that starts at or after `start` (document order is start order).
  let lo = 0;
  let hi = all.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (all[mid]!.startIndex < start) lo = mid + 1;
    else hi = mid;
  }
  const found: SyntaxNode[] = [];
  for (let i = lo; i < all.length && all[i]!.startIndex <= end; i++) {
    const n = all[i]!;
    const nEnd = n.endIndex;
    if (nEnd > end) continue;
    const sameRange = n.startIndex === start && nEnd === end;
    if ((sameRange && n.id !== node.id) || (n.startIndex === nEnd && (nEnd === start || nEnd === end))) return node.descendantsOfType(type);
    found.push(n);
  }
  return found;
}
