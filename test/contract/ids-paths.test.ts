import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  assertSkillId,
  displaySkillName,
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
  it("prefers --workspace, then SKIP_SUMMARY_WORKSPACE, then /workspace/group when it exists", () => {
    const env = { SKIP_SUMMARY_WORKSPACE: "/from/env" };
    expect(resolveWorkspace({ flag: "rel", env, cwd: "/cwd", exists: () => true })).toBe("/cwd/rel");
    expect(resolveWorkspace({ env, cwd: "/cwd", exists: () => true })).toBe("/from/env");
    expect(resolveWorkspace({ env: {}, cwd: "/cwd", exists: (p) => p === "/workspace/group" })).toBe("/workspace/group");
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
