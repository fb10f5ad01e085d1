// --debug is ours only before `--`: after it, the words are the skill's (`run --skill x -- tool --debug`).
import { describe, expect, it } from "vitest";
import { debugRequested } from "../../src/cli/debug-flag.js";

describe("debugRequested", () => {
  it("reads --debug before `--`, never after it, and SKIP_SUMMARY_DEBUG=1", () => {
    expect(debugRequested(["--debug", "lint"], {})).toBe(true);
    expect(debugRequested(["run", "--skill", "tessl__a", "--debug", "--", "tool"], {})).toBe(true);
    expect(debugRequested(["run", "--skill", "tessl__a", "--", "tool", "--debug"], {})).toBe(false);
    expect(debugRequested(["run", "--skill", "tessl__a", "--", "tool"], { SKIP_SUMMARY_DEBUG: "1" })).toBe(true);
    expect(debugRequested(["lint"], { SKIP_SUMMARY_DEBUG: "0" })).toBe(false);
  });
});
