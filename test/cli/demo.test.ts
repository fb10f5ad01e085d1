// The README's first command is `npm run demo`: it must keep working end to end, on the built-in defaults.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

describe("npm run demo (scripts/demo.mjs)", () => {
  it("runs a skill that blocks, validates its summary and surfaces the notice to the terminal", async () => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" };
    let out = "";
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, ["scripts/demo.mjs"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr.on("data", (d: Buffer) => (out += d.toString()));
      child.on("close", resolve);
    });
    expect(code, out).toBe(0);
    expect(out).toContain("└─ ✋ blocked by constraints\n\nnightly budget spent after 2 of 5 CFPs; 3 left for the owner\n");
    // The runner's voice, as the README shows it: the skill line once, no run record.
    expect(out.split("🪨 run skill tessl__check-cfps")).toHaveLength(2);
    expect(out).not.toContain("run_finished");
    expect(out).toMatch(/ok {7}\S*\.skip-summary-tessl__check-cfps\.json/);
    expect(out).toContain("check-cfps: policy skip");
    expect(out).toContain("• cfp-105");
    expect(out).toContain("summaries still waiting: none (sent, then deleted)");
  });
});
