// `run --json ... | head -1`: the reader goes away while the skill still runs. The runner must not stop with it: the
// skill's exit code and its skip summary are recorded first, whatever happens to stdout and stderr.
import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, ROOT, tempDir } from "../helpers/cli.js";

/** `gone` is created once the pipes are closed, so the skill writes the rest to a reader that is gone. */
function runWithClosedPipes(args: readonly string[], close: "stdout" | "both", gone: string): Promise<{ code: number | null; firstLine: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: "/tmp" }, stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let firstLine = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => {
      firstLine += d;
      if (!firstLine.includes("\n")) return;
      // `head -1`: read one line, then go away.
      child.stdout!.destroy();
      if (close === "both") child.stderr!.destroy();
      void writeFile(gone, "");
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, firstLine: firstLine.split("\n")[0]! }));
    setTimeout(() => child.kill("SIGKILL"), 20_000).unref();
  });
}

describe.concurrent("a reader that goes away", () => {
  for (const close of ["stdout", "both"] as const) {
    it(`never changes the skill's exit code or loses its summary (${close === "both" ? "stdout and stderr" : "stdout"} closed)`, async () => {
      const dir = await tempDir();
      const gone = join(dir, "gone");
      const script = `echo first; until [ -e '${gone}' ]; do sleep 0.01; done; echo second; echo more; echo 'quota spent for today' >&2; exit 2`;
      const r = await runWithClosedPipes(["run", "--json", "--skill", "tessl__a", "--workspace", dir, "--", "sh", "-c", script], close, gone);
      expect(r.firstLine).toBe("first");
      expect(r.code).toBe(2);
      const summary = JSON.parse(await readFile(join(dir, ".skip-summary-tessl__a.json"), "utf8"));
      expect(summary).toMatchObject({ reason: "quota spent for today", technical_failure: false });
    });
  }
});
