// Many skills ending at once must not lose the stderr each wrote before it exited: libuv reaps every exited child on
// any SIGCHLD, so a child's exit can be handled before the poll phase that would read its last bytes, and the
// pipe-drain timer (0 ms here, as when a loaded machine starves the event loop for longer than the 200 ms default)
// must not close the pipes first (src/process/run-child.ts). Before the fix: ~3% of these tails were lost.
import { describe, expect, it } from "vitest";
import { runChild } from "../../src/process/run-child.js";

describe("runChild under a burst of exits", () => {
  it("keeps every child's last stderr line when the drain timer is due at once", async () => {
    const lost: string[] = [];
    for (let round = 0; round < 30; round++) {
      const outcomes = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          runChild({ argv: ["sh", "-c", `sleep 0.0${i % 10}; echo "tail ${i}" >&2; exit 1`], cwd: "/tmp", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, pipeDrainMs: 0 }),
        ),
      );
      for (const [i, r] of outcomes.entries()) if (r.exitCode !== 1 || r.stderrTail !== `tail ${i}`) lost.push(`round ${round} child ${i}: ${r.exitCode} ${JSON.stringify(r.stderrTail)}`);
    }
    expect(lost).toEqual([]);
  }, 120_000);
});
