// Hostile YAML is bad input, never a crash of ours: a bomb, a recursive alias and nesting thousands deep each
// end with exit 65 and a message at a line and column, and nothing runs.
import { describe, expect, it } from "vitest";
import { sandbox } from "./helpers.js";

const step = '    run: ["sh", "-c", "echo ran >> \\"$TRACE\\""]';

const BOMB = [
  "skill: tessl__plan-test",
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]",
  "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]",
  "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]",
  "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]",
  "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]",
  "steps:",
  "  - name: a",
  step,
  "",
].join("\n");

const RECURSIVE = ["skill: tessl__plan-test", "steps:", "  - parallel: &p", "      steps:", "        - name: a", `      ${step}`, "        - parallel: *p", ""].join("\n");

async function runPlanText(text: string) {
  const s = await sandbox();
  await s.write(text);
  const r = await s.run(["--plan", "plan.yaml"]);
  return { r, lines: await s.lines() };
}

describe.concurrent("hostile plans", () => {
  it("a YAML bomb is exit 65 at the first alias's line and column, not an internal error", async () => {
    const { r, lines } = await runPlanText(BOMB);
    expect(r.code).toBe(65);
    expect(r.stderr).toMatch(/plan\.yaml:3:8: \(syntax\): its aliases expand to too many nodes/);
    expect(r.stderr).not.toContain("internal error");
    expect(lines).toEqual([]);
  });

  it("an alias inside its own anchor is exit 65 naming the alias and where it is", async () => {
    const { r, lines } = await runPlanText(RECURSIVE);
    expect(r.code).toBe(65);
    expect(r.stderr).toContain("plan.yaml:7:21: (syntax): the alias *p is inside its own anchor &p, which makes an endless cycle");
    expect(lines).toEqual([]);
  });

  it("flow nesting 100,000 deep is refused before parsing, at the bracket past the limit", async () => {
    const { r } = await runPlanText(`skill: tessl__plan-test\nsteps: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`);
    expect(r.code).toBe(65);
    expect(r.stderr).toContain("plan.yaml:2:72: (syntax): nests deeper than 64 levels (brackets)");
    expect(r.stderr).not.toContain("Maximum call stack");
  });

  it("block nesting 300 deep is refused before parsing too", async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `${"  ".repeat(i + 1)}- `).join("\n");
    const { r } = await runPlanText(`skill: tessl__plan-test\nsteps:\n${lines}\n`);
    expect(r.code).toBe(65);
    expect(r.stderr).toMatch(/plan\.yaml:\d+:\d+: \(syntax\): nests deeper than 64 levels \(indentation\)/);
    expect(r.stderr).not.toContain("Maximum call stack");
  });

  it("a plan file over 1 MiB is not read further", async () => {
    const { r } = await runPlanText(`skill: tessl__plan-test\n# ${"x".repeat(1_100_000)}\nsteps: []\n`);
    expect(r.code).toBe(65);
    expect(r.stderr).toContain("plan.yaml: (file): is larger than 1048576 bytes");
  });

  it("an alias that is used sensibly still works", async () => {
    const text = ["skill: tessl__plan-test", "steps:", "  - name: a", `    run: &cmd ["sh", "-c", "echo ran >> \\"$TRACE\\""]`, "  - name: b", "    run: *cmd", ""].join("\n");
    const { r, lines } = await runPlanText(text);
    expect(r.code, r.stderr).toBe(0);
    expect(lines).toEqual(["ran", "ran"]);
  });
});
