// The exit-code contract through the CLI (in process; the first case through the built CLI, whose skill writes
// straight to its stdout): what is shown, what the runner exits with.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { fixture, withoutLogLines } from "./helpers.js";

const run = async (args: string[], command: string[], how: "in process" | "spawned" = "in process") => {
  const ws = await tempDir();
  const r = await (how === "spawned" ? runCli : runCliInProcess)(["run", "--skill", "tessl__check-cfps", "--workspace", ws, ...args, "--", ...command]);
  return { ...r, shown: withoutLogLines(r.stderr), ws };
};

describe.concurrent("skip-summary run: exit codes and the closing block", () => {
  it("exit 0: stdout passes through, the header shows, no status line, exit 0", async () => {
    const r = await run([], [fixture("exit-with.sh"), "0"], "spawned");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("working on it\n");
    expect(r.shown).toBe("🪨 run skill tessl__check-cfps\n");
  });

  it("exit 0 with stderr: the skill's stderr under the header, still no status line", async () => {
    const r = await run([], [fixture("exit-with.sh"), "0", "note: the cache was cold"]);
    expect(r.code).toBe(0);
    expect(r.shown).toBe("🪨 run skill tessl__check-cfps\n\nnote: the cache was cold\n");
  });

  it("exit 2: blocked by constraints, then the skill's own message, exit 2", async () => {
    const r = await run([], [fixture("exit-with.sh"), "2", "bummer: no commit quota set\n\nask your human to grant it"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("working on it\n");
    expect(r.shown).toBe(
      "🪨 run skill tessl__check-cfps\n   └─ ✋ blocked by constraints\n\nbummer: no commit quota set\n\nask your human to grant it\n",
    );
    expect(r.shown).not.toMatch(/[{}]|at .*\(.*:\d+:\d+\)/);
    // With default flags stderr is exactly the graceful-errors layout: no run record, no second header.
    expect(r.stderr).toBe(r.shown);
  });

  it("exit 2 with no stderr: the status line alone", async () => {
    const r = await run([], [fixture("exit-with.sh"), "2"]);
    expect(r.code).toBe(2);
    expect(r.shown).toBe("🪨 run skill tessl__check-cfps\n   └─ ✋ blocked by constraints\n");
  });

  it("exit 1: failed with an error, the stderr shown, exit 1", async () => {
    const r = await run([], [fixture("exit-with.sh"), "1", "bash: line 42: jq: command not found"]);
    expect(r.code).toBe(1);
    expect(r.shown).toContain("   └─ 💥 failed with an error\n\nbash: line 42: jq: command not found\n");
  });

  it("exit 75: temporary failure, exit 75", async () => {
    const r = await run([], [fixture("exit-with.sh"), "75", "service unavailable, try later"]);
    expect(r.code).toBe(75);
    expect(r.shown).toContain("   └─ 🔁 temporary failure\n\nservice unavailable, try later\n");
  });

  it.each([3, 64, 69, 78, 126, 127, 200])("exit %i from the skill propagates as it is", async (code) => {
    const r = await run([], [fixture("exit-with.sh"), String(code)]);
    expect(r.code).toBe(code);
    expect(r.shown).toContain("└─ 💥 failed with an error");
  });

  it("a command that does not exist: 127, naming it", async () => {
    const r = await run([], ["./no-such-skill.sh", "--flag"]);
    expect(r.code).toBe(127);
    expect(r.shown).toContain("└─ 💥 command not found: ./no-such-skill.sh");
  });

  it("a file that is not executable: 126", async () => {
    const r = await run([], [fixture("not-executable.sh")]);
    expect(r.code).toBe(126);
    expect(r.shown).toContain("└─ 💥 command cannot be executed");
  });

  it("a skill killed by a signal: named, and the runner exits 128+N", async () => {
    const r = await run([], [fixture("kill-self.sh"), "KILL"]);
    expect(r.code).toBe(137);
    expect(r.shown).toContain("   └─ 💥 killed by SIGKILL\n\nabout to die\n");
    const t = await run([], [fixture("kill-self.sh"), "TERM"]);
    expect(t.code).toBe(143);
    expect(t.shown).toContain("└─ 💥 killed by SIGTERM");
  });

  it("a timeout: SIGTERM, then SIGKILL to a skill that ignores it; a temporary failure (75)", async () => {
    const dir = await tempDir();
    const r = await run(["--timeout", "300ms", "--kill-grace", "100ms"], [fixture("ignore-term.sh"), `${dir}/pid`]);
    expect(r.code).toBe(75);
    expect(r.shown).toContain("└─ ⏱️ timed out after 300ms");
    // The skill wrote its pid after setting its trap: SIGTERM found it ignoring the signal, so SIGKILL ended it.
    expect(await readFile(`${dir}/pid`, "utf8")).toMatch(/^\d+\n$/);
  });

  it("a large stderr (4 MiB) is cut to its newest part, with its last line, and the run still ends", async () => {
    const r = await run([], [fixture("big-stderr.sh"), "4", "1"]);
    expect(r.code).toBe(1);
    expect(r.stderr.length).toBeLessThan(1.5 * 1024 * 1024);
    expect(r.shown).toMatch(/\[… 3\.\d MiB of earlier stderr not kept\]\n/);
    expect(r.shown.endsWith("the last line\n")).toBe(true);
  });

  it("--json: one result as the last stdout line, no closing block", async () => {
    const r = await run(["--json"], [fixture("exit-with.sh"), "2", "nightly budget spent"]);
    expect(r.code).toBe(2);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toBe("working on it");
    const result = JSON.parse(lines.at(-1)!);
    expect(result).toMatchObject({ skill: "tessl__check-cfps", outcome: "blocked", exit_code: 2, attempts: 1, stderr_tail: "nightly budget spent", summary_written_by: "runner", status: "✋ blocked by constraints" });
    expect(r.shown).not.toContain("🪨");
  });

  it("--json starts its line on a new line even when the skill's stdout did not end with one", async () => {
    const r = await run(["--json"], ["printf", "no newline at the end"]);
    expect(r.code).toBe(0);
    const [first, second, ...rest] = r.stdout.split("\n");
    expect(first).toBe("no newline at the end");
    expect(JSON.parse(second!)).toMatchObject({ outcome: "done", exit_code: 0 });
    expect(rest).toEqual([""]);
  });
});
