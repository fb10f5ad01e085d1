// The load step hands the rules the facts of code files that need no parser (factsWithoutParser, analyse-file.ts)
// instead of letting each rule's first look run analyseFile on them again: a speed-up that must never change a fact.
// Wherever grammarsFor gives a code file no grammar, analyseFile must find exactly those facts: checked on every code
// file of the lint fixtures and of src/, and on random files built from the words the two filters look for and their
// near misses, as scripts and as tests, in every code language.
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { Parsers } from "../../src/lint/source/tree-sitter.js";
import { analyseFile, factsWithoutParser, grammarsFor } from "../../src/lint/tile/analyse-file.js";
import { isCode, isTestFile, languageOf } from "../../src/lint/tile/classify-path.js";
import type { TileFile } from "../../src/lint/tile/files.js";
import { ROOT } from "../helpers/cli.js";

let parsers: Parsers;
beforeAll(async () => {
  parsers = await Parsers.load(["python", "bash", "javascript", "typescript", "tsx"]);
});

/** Whether the shortcut holds for one file; true when the file needs a parser (the shortcut is not used then). */
function agrees(file: TileFile): boolean {
  const test = isTestFile(file.path, file.language);
  if (grammarsFor(file, test).length > 0) return true;
  expect(analyseFile(file, test, parsers)).toEqual(factsWithoutParser(file));
  return true;
}

async function codeFiles(dir: string): Promise<TileFile[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const files = entries.filter((e) => e.isFile()).map((e) => relative(ROOT, join(e.parentPath, e.name)));
  return Promise.all(files.filter((p) => isCode(languageOf(p))).map(async (path) => ({ path, language: languageOf(path), text: await readFile(join(ROOT, path), "utf8") })));
}

// What RELEVANT and SKIP_SHAPES (src/lint/source/analyse.ts) look for, and words that only look like them.
const WORDS = [
  "skip-summary emit", "skipAndExit", "emitSkip", "createSkipCollector", "no-silent-defer/x", "readSummaryFile", "classifySummary", "skip_summary",
  "except", "continue", "break", "= []", "verified", "checked", "validated", "confirmed_at", "status", "catch", "trap", "exit 0",
  "skip summary", "skipsummary", "excepted", "continued", "breaking", "catches", "exit 01", "no-silent-defer", "emit_skip", "for x in y:", "# continue", "// catch",
];
const PATHS = ["scripts/run.py", "tests/test_run.py", "scripts/run.sh", "tests/test-run.sh", "tests/run.bats", "scripts/run.mjs", "src/run.test.ts", "scripts/run.tsx"];

describe("facts of code files that need no parser", () => {
  it("are what analyseFile finds, for every code file of the lint fixtures and of src/", async () => {
    const files = [...(await codeFiles(join(ROOT, "test", "fixtures", "lint"))), ...(await codeFiles(join(ROOT, "src")))];
    expect(files.length).toBeGreaterThan(100);
    let unparsed = 0;
    for (const file of files) {
      agrees(file);
      if (grammarsFor(file, isTestFile(file.path, file.language)).length === 0) unparsed++;
    }
    // The comparison is not empty: many files need no parser.
    expect(unparsed).toBeGreaterThan(20);
  });

  it("are what analyseFile finds, for random files of those words in every code language, as scripts and tests", () => {
    fc.assert(
      fc.property(fc.constantFrom(...PATHS), fc.array(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom("\n", " ", "(", ")", ":", "'", '"', "x")), { maxLength: 12 }), (path, parts) =>
        agrees({ path, language: languageOf(path), text: parts.join("") }),
      ),
      { numRuns: 1500 },
    );
  });

  it("are only for code files with a text", () => {
    expect(factsWithoutParser({ path: "SKILL.md", language: "markdown", text: "# x\n" })).toBeUndefined();
    expect(factsWithoutParser({ path: "scripts/run.py", language: "python" })).toBeUndefined();
    expect(factsWithoutParser({ path: "data.json", language: "json", text: "{}" })).toBeUndefined();
  });
});
