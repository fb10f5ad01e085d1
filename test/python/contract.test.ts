// The Python helper against the shared table of contract cases: the same answers, field paths and words as the
// Node side (test/contract/shared-cases.test.ts reads the same table).
import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { PY_HELPER, PYTHON, PYTHON_COMMAND, runPython, pythonAvailable } from "./helpers.js";

const HAS_PYTHON = pythonAvailable();

const TABLE = join(ROOT, "test", "fixtures", "contract", "cases.json");
interface Expected { kind: string; version?: unknown; problems?: { path: string; message?: string; message_prefix?: string }[] }
const table = JSON.parse(readFileSync(TABLE, "utf8")) as {
  classify: { name: string; expect: Expected }[];
  text: { name: string; expect: Expected }[];
  build: { name: string; error: { name: string; message: string } | null }[];
};

function matches(actual: Expected, expected: Expected): void {
  expect(actual.kind).toBe(expected.kind);
  if (expected.kind === "unrecognised-version") expect(actual.version ?? null).toEqual(expected.version);
  if (expected.kind !== "invalid") return;
  expect(actual.problems!.map((p) => p.path)).toEqual(expected.problems!.map((p) => p.path));
  expected.problems!.forEach((p, i) => {
    const got = actual.problems![i]!.message!;
    if (p.message_prefix !== undefined) expect(got.startsWith(p.message_prefix), got).toBe(true);
    else expect(got).toBe(p.message);
  });
}

describe.skipIf(!HAS_PYTHON)("python/skip_summary.py: the shared contract cases", () => {
  let answers: { classify: Expected[]; text: Expected[]; build: ({ name: string; message: string; exit_code: number } | null)[] };
  beforeAll(async () => {
    // The interpreter checks below start meanwhile: they need a Python process of their own.
    probeInterpreter().catch(() => undefined);
    const r = await runPython(`import runpy, sys; sys.argv = ["run_cases", ${JSON.stringify(TABLE)}]; runpy.run_path(${JSON.stringify(join(ROOT, "test", "python", "run_cases.py"))}, run_name="__main__")`);
    expect(r.code, r.stderr).toBe(0);
    answers = JSON.parse(r.stdout);
  });

  it.each(table.classify.map((c, i) => [c.name, i] as const))("classify: %s", (_name, i) => matches(answers.classify[i]!, table.classify[i]!.expect));
  it.each(table.text.map((c, i) => [c.name, i] as const))("file text: %s", (_name, i) => matches(answers.text[i]!, table.text[i]!.expect));
  it.each(table.build.map((c, i) => [c.name, i] as const))("emit_skip refuses: %s", (_name, i) => {
    const expected = table.build[i]!.error!;
    const got = answers.build[i]!;
    expect({ name: got.name, message: got.message }).toEqual(expected);
    expect(got.exit_code).toBe(65);
  });
});

// One interpreter answers both checks below: the modules the helper imports from outside the standard library (a
// Python list on one line), then its own sys.executable.
let probe: Promise<{ code: number | null; stderr: string; outside: string; executable: string }> | undefined;
function probeInterpreter() {
  probe ??= runPython(`
import ast, sys
src = open(${JSON.stringify(PY_HELPER)}, encoding="utf-8").read()
tree = ast.parse(src, feature_version=(3, 9))
mods = set()
for node in ast.walk(tree):
    if isinstance(node, ast.Import): mods.update(a.name.split(".")[0] for a in node.names)
    if isinstance(node, ast.ImportFrom) and node.level == 0: mods.add(node.module.split(".")[0])
print(sorted(m for m in mods if m not in sys.stdlib_module_names))
print(sys.executable)`).then((r) => {
    const [outside = "", executable = ""] = r.stdout.split("\n");
    return { code: r.code, stderr: r.stderr, outside, executable };
  });
  return probe;
}

describe.skipIf(!HAS_PYTHON)("python/skip_summary.py: what it may use", () => {
  it("parses as Python 3.9 and imports only the standard library", async () => {
    const r = await probeInterpreter();
    expect(r.code, r.stderr).toBe(0);
    expect(r.outside).toBe("[]");
  });
});

describe.skipIf(!HAS_PYTHON)("the interpreter the Python tests spawn", () => {
  it("is the one python3 runs, by its own path (no version manager's shim in between)", async () => {
    expect(isAbsolute(PYTHON), `${PYTHON_COMMAND} resolved to ${PYTHON}`).toBe(true);
    const r = await probeInterpreter();
    expect(r.code, r.stderr).toBe(0);
    expect(r.executable).toBe(PYTHON);
  });
});
