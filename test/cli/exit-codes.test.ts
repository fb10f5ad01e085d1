// One exit-code table: docs/exit-codes.md prints exactly src/cli/exit-codes.ts, every layer that finds a usage
// error reads it, and --hook-input never yields 2 (a hook's 2 steers the model).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EXIT_CODES, usageExitCode } from "../../src/cli/exit-codes.js";
import { runCli, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";

describe("the exit-code table", () => {
  it("is documented row for row in docs/exit-codes.md", () => {
    const doc = readFileSync(new URL("../../docs/exit-codes.md", import.meta.url), "utf8");
    const section = doc.slice(doc.indexOf("## Exit codes of each command"));
    const rows = [...section.matchAll(/^\| `([\w-]+)` \| `([\w-]+)` \| (\d+) \|$/gm)].map((m) => [m[1], m[2], Number(m[3])]);
    const table = Object.entries(EXIT_CODES).flatMap(([command, outcomes]) => Object.entries(outcomes).map(([outcome, code]) => [command, outcome, code]));
    expect(rows).toEqual(table);
  });

  it("maps every usage error under --hook-input to 1", () => {
    expect(usageExitCode("surface", ["surface", "--hook-input"])).toBe(1);
    expect(usageExitCode("surface", ["surface"])).toBe(2);
    expect(usageExitCode("emit", ["emit"])).toBe(64);
    expect(usageExitCode(undefined, [])).toBe(2);
  });

  it("commander's parse errors read the same table (built CLI)", async () => {
    const ws = await tempDir();
    // Parse errors write nothing: the four processes start side by side.
    const [hook, plain, emit, none] = await Promise.all([
      runCli(["surface", "--hook-input", "--bogus", "--workspace", ws], { input: "{}" }),
      runCli(["surface", "--bogus", "--workspace", ws]),
      runCli(["emit", "--bogus"]),
      runCli(["no-such-command"]),
    ]);
    expect(hook.code).toBe(1);
    expect(hook.stderr).toMatch(/unknown option '--bogus'/);
    expect(plain.code).toBe(2);
    expect(emit.code).toBe(64);
    expect(none.code).toBe(2);
  });

  it("every command's --help points at the table", async () => {
    for (const command of Object.keys(EXIT_CODES).filter((c) => c !== "skip-summary")) {
      const r = await runCliInProcess([command, "--help"]);
      expect(r.stdout, command).toContain("docs/exit-codes.md");
    }
  });
});
