// An unexpected error inside emit (a TypeError: a bug of ours) is exit 70 with "internal error", never 73
// ("cannot write"), which would send the user looking for a disk problem that is not there. The fault is injected
// into the real CLI with --import, which makes every fs rename throw a TypeError.
import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { processFixture } from "../process/helpers.js";

describe("emit's own bugs", () => {
  it("exit 70 and says internal error; an errno from the system stays 73", async () => {
    // Two processes side by side, each with its own workspace; the errno case needs no fault, so no process of its own.
    const args = (ws: string) => ["emit", "--skill", "tessl__a", "--step", "1", "--reason", "r", "--workspace", ws];
    const [ws, wsJson] = [await tempDir(), await tempDir()];
    const inject = { env: { NODE_OPTIONS: `--import=${processFixture("throw-in-rename.mjs")}` } };
    const [r, json, full] = await Promise.all([
      runCli(args(ws), inject),
      runCli([...args(wsJson), "--json"], inject),
      runCliInProcess(args("/proc/self")),
    ]);
    expect(r.code).toBe(70);
    expect(r.stderr).toContain("skip-summary: internal error: injected: rename is not a function of this world");
    expect(r.stderr).not.toContain("at ");
    expect((await readdir(ws)).filter((n) => n.endsWith(".json"))).toEqual([]);
    expect(json.code).toBe(70);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, exit_code: 70 });
    expect(full.code).toBe(73);
  });
});
