// emit and the after-skill hook build the contract's zod schema only for a summary the fast check refused
// (src/cli/hot/zod-schema.ts): building it was ~15 M instructions of every start (bench/startup.mjs). The process
// boundary is the point here: what a fresh `node dist/cli.js` loads.
import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, tempDir } from "../helpers/cli.js";

/** Runs the built CLI in a clean environment and reports whether zod was loaded (zod keeps its config on globalThis). */
async function runWatchingZod(args: string[], input = "") {
  const dir = await tempDir();
  const probe = join(dir, "probe.cjs");
  await writeFile(probe, `process.on("exit", () => process.stderr.write("\\nzod=" + JSON.stringify(globalThis.__zod_globalConfig ?? null) + "\\n"));\n`);
  const r = spawnSync(process.execPath, ["--require", probe, CLI, ...args], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir }, encoding: "utf8", input });
  const zod = JSON.parse(/\nzod=(.*)\n$/.exec(r.stderr)?.[1] ?? "\"no report\"") as { jitless?: boolean } | null | string;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.replace(/\nzod=.*\n$/, ""), zod };
}

describe("zod on the hot paths", () => {
  it("is not loaded by emit writing and merging well-formed summaries", async () => {
    const ws = await tempDir();
    const emit = ["emit", "--skill", "tessl__hot", "--step", "1", "--reason", "budget spent", "--workspace", ws];
    const first = await runWatchingZod([...emit, "--item", "a", "--link", "Log in=https://example.com/login", "--reason-key", "budget"]);
    expect(first).toMatchObject({ code: 0, stderr: "", zod: null });
    const merged = await runWatchingZod([...emit, "--item", "b", "--json"]);
    expect(merged).toMatchObject({ code: 0, stderr: "", zod: null });
    expect(JSON.parse(merged.stdout)).toMatchObject({ ok: true, merged: true, summary: { items: ["a", "b"], links: [{ title: "Log in", url: "https://example.com/login" }] } });
  });

  it("is loaded, jitless, to word a summary the fast check refused", async () => {
    const ws = await tempDir();
    const r = await runWatchingZod(["emit", "--skill", "tessl__hot", "--step", "1", "--reason", " ", "--workspace", ws]);
    expect(r).toMatchObject({ code: 65, stderr: "skip-summary emit: invalid skip summary: reason: must not be blank\n", zod: { jitless: true } });
  });

  it("is not loaded by the after-skill hook with nothing waiting", async () => {
    const ws = await tempDir();
    const event = JSON.stringify({ hook_event_name: "Stop", session_id: "s", transcript_path: join(ws, "t.jsonl"), cwd: ws, stop_hook_active: false });
    expect(await runWatchingZod(["surface", "--hook-input", "--workspace", ws], event)).toMatchObject({ code: 0, zod: null });
    expect(await runWatchingZod(["surface", "--workspace", ws])).toMatchObject({ code: 0, zod: null });
  });
});
