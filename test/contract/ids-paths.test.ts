import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  assertSkillId,
  displaySkillName,
  findWorkspace,
  resolveWorkspace,
  skillIdFromFileName,
  summaryFileName,
  summaryPath,
  toFullSkillId,
} from "../../src/contract/index.js";
import { tempDir } from "../helpers/cli.js";

describe("skill ids", () => {
  it.each(["tessl__check-cfps", "a", "x.y", "A_b-c.d", "0", "a".repeat(128)])("accepts %s", (id) => {
    expect(assertSkillId(id)).toBe(id);
  });

  it.each([
    ["", "empty"],
    ["a/b", "path separator"],
    ["a\\b", "path separator"],
    ["..", '".."'],
    ["a..b", '".."'],
    [".hidden", "starting with a letter or digit"],
    ["_x", "starting with a letter or digit"],
    ["a b", "only letters"],
    ["a\0b", "only letters"],
    ["ü", "only letters"],
    ["a".repeat(129), "limit is 128"],
  ])("refuses %j, saying why", (id, why) => {
    expect(() => assertSkillId(id)).toThrow(expect.objectContaining({ code: "contract.skill_id_invalid" }));
    expect(() => assertSkillId(id)).toThrow(why);
  });

  it("refuses to build a path from a bad id", () => {
    expect(() => summaryFileName("../../etc/passwd")).toThrow(expect.objectContaining({ code: "contract.skill_id_invalid" }));
    expect(() => summaryPath("/ws", "a/b")).toThrow(expect.objectContaining({ code: "contract.skill_id_invalid" }));
  });

  it("adds and strips the tessl__ prefix", () => {
    expect(toFullSkillId("check-cfps")).toBe("tessl__check-cfps");
    expect(toFullSkillId("tessl__check-cfps")).toBe("tessl__check-cfps");
    expect(displaySkillName("tessl__check-cfps")).toBe("check-cfps");
  });
});

describe("summary file names", () => {
  it("builds .skip-summary-<id>.json directly in the workspace", () => {
    expect(summaryPath("/workspace/group", "tessl__a")).toBe("/workspace/group/.skip-summary-tessl__a.json");
  });

  it.each([
    [".skip-summary-tessl__a.json", "tessl__a"],
    [".skip-summary-x.y.json", "x.y"],
    [".skip-summary-tessl__a.json.lock", undefined],
    [".skip-summary-tessl__a.json.12345", undefined],
    [".skip-summary-.json", undefined],
    [".skip-summary-..json", undefined],
    ["skip-summary-tessl__a.json", undefined],
    [".skip-summary-tessl__a.JSON", undefined],
    [".skip-summary-a b.json", undefined],
  ])("%s -> %s", (name, id) => {
    expect(skillIdFromFileName(name)).toBe(id);
  });
});

describe("workspace resolution", () => {
  it("prefers --workspace, SKIP_SUMMARY_WORKSPACE, CLAUDE_PROJECT_DIR, the event's cwd (the cwd under Claude Code), /workspace/agent, /workspace/group", () => {
    const all = { SKIP_SUMMARY_WORKSPACE: "/from/env", CLAUDE_PROJECT_DIR: "/project", CLAUDECODE: "1" };
    const rows: [Parameters<typeof findWorkspace>[0], string, string][] = [
      [{ flag: "rel", env: all, eventCwd: "/event" }, "/cwd/rel", "flag"],
      [{ env: all, eventCwd: "/event" }, "/from/env", "env"],
      [{ env: { ...all, SKIP_SUMMARY_WORKSPACE: "" }, eventCwd: "/event" }, "/project", "project-dir"],
      [{ env: { CLAUDECODE: "1" }, eventCwd: "/event" }, "/event", "event-cwd"],
      [{ env: { CLAUDECODE: "1" } }, "/cwd", "claude-code-cwd"],
      [{ env: {} }, "/workspace/agent", "nanoclaw2"],
      [{ env: {}, exists: (p: string) => p === "/workspace/group" }, "/workspace/group", "nanoclaw1"],
    ];
    for (const [sources, path, source] of rows) expect(findWorkspace({ cwd: "/cwd", exists: () => true, ...sources }), source).toEqual({ path, source });
    // Claude Code's Bash tool sets CLAUDECODE=1; any other value is not it.
    expect(resolveWorkspace({ env: { CLAUDECODE: "true" }, cwd: "/cwd", exists: (p) => p === "/workspace/group" })).toBe("/workspace/group");
  });

  it("says how to set one when none is found", () => {
    expect(() => resolveWorkspace({ env: {}, exists: () => false })).toThrow(expect.objectContaining({ code: "contract.workspace_not_found" }));
    expect(() => resolveWorkspace({ env: {}, exists: () => false })).toThrow(/--workspace DIR or set SKIP_SUMMARY_WORKSPACE/);
  });

  it("checks the real disk by default", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, "ws"));
    expect(resolveWorkspace({ env: { SKIP_SUMMARY_WORKSPACE: "ws" }, cwd: dir })).toBe(join(dir, "ws"));
  });
});
