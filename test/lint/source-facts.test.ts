// The language readers: what they see as code, strings and file operations, with positions.
import { beforeAll, describe, expect, it } from "vitest";
import { analyseCode } from "../../src/lint/source/analyse.js";
import { Parsers } from "../../src/lint/source/tree-sitter.js";
import { classifyTarget } from "../../src/lint/source/targets.js";

let parsers: Parsers;
beforeAll(async () => {
  parsers = await Parsers.load(["python", "bash", "typescript"]);
});
// These snippets name skip-summary files, so the readers take their facts (see RELEVANT in src/lint/source/analyse.ts).
const analyseShell = (text: string, o: { bats?: boolean } = {}) => analyseCode(parsers, o.bats ? "bats" : "shell", "x.sh", text, { script: false });
const analysePython = (text: string) => analyseCode(parsers, "python", "x.py", text, { script: false });

const brief = (ops: readonly { kind: string; target: string; line: number; column: number }[]) => ops.map((o) => `${o.kind} ${o.target} ${o.line}:${o.column}`);

describe("shell reader", () => {
  it("finds commands inside $(...) with their real positions", () => {
    const f = analyseShell('x=1\n  body=$(cat "$f")\necho "$(rm -f "$W/.skip-summary-a.json")"\n');
    expect(brief(f.ops)).toEqual(["read * 2:14", "delete */.skip-summary-a.json 3:15"]);
  });

  it("ignores comments and heredoc bodies, and keeps the heredoc as a string", () => {
    const f = analyseShell('# rm .skip-summary-a.json\ncat <<EOF\nrm .skip-summary-a.json\nEOF\necho ok # > .skip-summary-b.json\n');
    expect(f.ops.filter((o) => o.kind === "delete" || o.kind === "write")).toEqual([]);
    expect(f.strings.map((s) => s.value)).toContain("rm .skip-summary-a.json");
  });

  it("reads bats test names only from @test lines", () => {
    const f = analyseShell('@test "a no-silent-defer/x" {\n  echo "no-silent-defer/y"\n}\n', { bats: true });
    expect(f.testNames.map((s) => s.value)).toEqual(["a no-silent-defer/x"]);
  });
});

describe("python reader", () => {
  it("resolves os.path.join and Path / through variables", () => {
    const f = analysePython('with open(os.path.join(ws, ".skip-summary-tessl__a.json"), "w") as f:\n  pass\np = Path(ws) / ".skip-summary-x.json"\np.unlink()\n');
    expect(brief(f.ops)).toEqual(["write */.skip-summary-tessl__a.json 1:6", "delete */.skip-summary-x.json 4:3"]);
  });

  it("handles triple-quoted strings and comments with quotes in them", () => {
    const f = analysePython('x = """a # not a comment\nb"""  # it\'s a comment\ndef test_a():\n    "in a test skip-summary"\n');
    expect(f.strings.map((s) => s.value)).toEqual(["a # not a comment\nb", "in a test skip-summary"]);
    expect(f.testNames.map((s) => s.value)).toEqual(["in a test skip-summary"]);
  });
});

describe("JS/TS reader", () => {
  it("parses TypeScript and reports calls with resolved paths", async () => {
    const f = analyseCode(parsers, "js", "a.ts", 'const p: string = path.join(dir, ".skip-summary-tessl__a.json");\n// fs.rmSync(p)\nawait fs.promises.writeFile(p, "x");\n', { script: false });
    expect(brief(f.ops)).toEqual(["write */.skip-summary-tessl__a.json 3:7"]);
  });
});

describe("classifyTarget", () => {
  it.each([
    ["ws/.skip-summary-tessl__a.json", { kind: "summary", id: "tessl__a" }],
    ["*/.skip-summary-*.json", { kind: "summary", id: undefined }],
    ["ws/.skip-summary-tessl__a.json.tmp", { kind: "temp" }],
    ["ws/.skip-summary-tessl__a.json.*", { kind: "temp" }],
    ["<tmp>", { kind: "temp" }],
    ["ws/other.json", { kind: "none" }],
  ])("%s", (path, expected) => {
    expect(classifyTarget(path)).toEqual(expected);
  });
});
