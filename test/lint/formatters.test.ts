// Formatters and the exit policy are pure functions of sorted results: tested directly, as data.
import { describe, expect, it } from "vitest";
import { lintExitCode } from "../../src/lint/exit-code.js";
import { FORMATTERS } from "../../src/lint/formatters/index.js";
import { RULES } from "../../src/lint/rules/index.js";
import { summarise } from "../../src/lint/run-lint.js";
import type { Finding } from "../../src/lint/types.js";

const finding = (file: string, line: number, severity: "error" | "warning", ruleId = "stale-summary-file"): Finding => ({ ruleId, severity, file, line, column: 1, messageId: "m", message: `msg ${file}:${line}, 100%` });
const meta = { rules: RULES.map((r) => r.meta), version: "1.2.3", color: false };

describe("summarise", () => {
  it("sorts files by path and findings by line, and counts by severity", () => {
    const s = summarise([finding("b.sh", 3, "error"), finding("a.sh", 9, "warning"), finding("b.sh", 1, "warning"), finding("b.sh", 1, "warning")], ["."]);
    expect(s.files.map((f) => [f.file, f.findings.map((x) => x.line), f.errorCount, f.warningCount])).toEqual([
      ["a.sh", [9], 0, 1],
      ["b.sh", [1, 3], 1, 1],
    ]);
    expect([s.errorCount, s.warningCount]).toEqual([1, 2]);
  });
});

describe("lintExitCode", () => {
  it.each([
    [0, 0, undefined, 0],
    [1, 0, undefined, 1],
    [0, 5, undefined, 0],
    [0, 5, -1, 0],
    [0, 5, 5, 0],
    [0, 6, 5, 1],
    [0, 1, 0, 1],
  ])("errors %i, warnings %i, --max-warnings %s -> %i", (errorCount, warningCount, maxWarnings, code) => {
    expect(lintExitCode({ errorCount, warningCount }, maxWarnings === undefined ? {} : { maxWarnings })).toBe(code);
  });
});

describe("formatters", () => {
  const summary = summarise([finding("a.sh", 2, "error"), finding("a.sh", 4, "warning", "defer-without-summary")], ["."]);

  it("pretty colours only when asked", () => {
    expect(FORMATTERS.pretty(summary, meta)).not.toContain("\u001b[");
    const coloured = FORMATTERS.pretty(summary, { ...meta, color: true });
    expect(coloured).toContain("\u001b[31merror  \u001b[0m");
    expect(coloured).toContain("\u001b[33mwarning\u001b[0m");
  });

  it("json has the documented, stable shape", () => {
    expect(JSON.parse(FORMATTERS.json(summary, meta))).toEqual({
      version: 1,
      tiles: ["."],
      errorCount: 1,
      warningCount: 1,
      files: [
        {
          file: "a.sh",
          errorCount: 1,
          warningCount: 1,
          findings: [
            { ruleId: "stale-summary-file", severity: "error", line: 2, column: 1, message: "msg a.sh:2, 100%", messageId: "m" },
            { ruleId: "defer-without-summary", severity: "warning", line: 4, column: 1, message: "msg a.sh:4, 100%", messageId: "m" },
          ],
        },
      ],
    });
  });

  it("github escapes %, and : and , in properties", () => {
    const out = FORMATTERS.github(summarise([finding("dir,x/a:b.sh", 2, "error")], ["."]), meta);
    expect(out).toBe("::error file=dir%2Cx/a%3Ab.sh,line=2,col=1,title=skip-summary lint%3A stale-summary-file::msg dir,x/a:b.sh:2, 100%25\n");
  });

  it("github escapes CR and LF (and %) in the message and in properties, so one finding stays one command", () => {
    const f: Finding = { ...finding("a\r\nb.sh", 3, "warning"), message: "line one\r\nline two 50%" };
    const out = FORMATTERS.github(summarise([f], ["."]), meta);
    expect(out).toBe("::warning file=a%0D%0Ab.sh,line=3,col=1,title=skip-summary lint%3A stale-summary-file::line one%0D%0Aline two 50%25\n");
  });
});

describe("rule meta", () => {
  it("every rule has a kebab-case id, messages, a rationale and two examples; ids are unique", () => {
    const ids = RULES.map((r) => r.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { meta: m } of RULES) {
      expect(m.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(Object.keys(m.messages).length).toBeGreaterThan(0);
      expect(m.rationale.length).toBeGreaterThan(40);
      expect(m.failing.code !== m.passing.code || m.failing.file !== m.passing.file).toBe(true);
    }
  });
});
