// What a fresh `node dist/cli.js` loads on the after-skill paths (the process boundary is the point). emit and the
// hook build the contract's zod schema only for a summary the fast check refused (src/cli/hot/zod-schema.ts):
// building it was ~15 M instructions of every start. emit's file work is synchronous, so it never loads
// fs/promises (src/cli/hot/fs-promises-sync.ts). bench/startup.mjs has the figures.
import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, tempDir } from "../helpers/cli.js";
import { fileNotifierConfig, putSummary, readDelivered } from "../surfacer/helpers.js";

/**
 * Runs the built CLI in a clean environment; reports zod's config (zod keeps it on globalThis, so null means zod was
 * never loaded), how often code was compiled from a string with Function (a JIT one parse never repays), and whether
 * fs/promises was loaded.
 */
async function runProbed(args: string[], input = "") {
  const dir = await tempDir();
  const probe = join(dir, "probe.cjs");
  await writeFile(
    probe,
    [
      `let compiled = 0; const F = Function;`,
      `globalThis.Function = new Proxy(F, { apply: (t, self, args) => (compiled++, Reflect.apply(t, self, args)), construct: (t, args) => (compiled++, Reflect.construct(t, args)) });`,
      `process.on("exit", () => process.stderr.write("\\nzod=" + JSON.stringify(globalThis.__zod_globalConfig ?? null) + "\\ncompiled=" + compiled + "\\nfs/promises=" + process.moduleLoadList.includes("NativeModule fs/promises") + "\\n"));`,
    ].join("\n"),
  );
  const r = spawnSync(process.execPath, ["--require", probe, CLI, ...args], { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir }, encoding: "utf8", input });
  const report = /\nzod=(.*)\ncompiled=(\d+)\nfs\/promises=(true|false)\n$/.exec(r.stderr);
  const zod = JSON.parse(report?.[1] ?? "\"no report\"") as object | null | string;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr.slice(0, report?.index ?? undefined), zod, compiled: Number(report?.[2]), fsPromises: report?.[3] };
}

describe("the after-skill paths", () => {
  it("emit writes and merges well-formed summaries without zod and without fs/promises", async () => {
    const ws = await tempDir();
    const emit = ["emit", "--skill", "tessl__hot", "--step", "1", "--reason", "budget spent", "--workspace", ws];
    const first = await runProbed([...emit, "--item", "a", "--link", "Log in=https://example.com/login", "--reason-key", "budget"]);
    expect(first).toMatchObject({ code: 0, stderr: "", zod: null, fsPromises: "false" });
    const merged = await runProbed([...emit, "--item", "b", "--json"]);
    expect(merged).toMatchObject({ code: 0, stderr: "", zod: null, fsPromises: "false" });
    expect(JSON.parse(merged.stdout)).toMatchObject({ ok: true, merged: true, summary: { items: ["a", "b"], links: [{ title: "Log in", url: "https://example.com/login" }] } });
  });

  it("emit loads zod, and compiles no parser with it, to word a summary the fast check refused", async () => {
    const ws = await tempDir();
    const r = await runProbed(["emit", "--skill", "tessl__hot", "--step", "1", "--reason", " ", "--workspace", ws]);
    expect(r).toMatchObject({ code: 65, stderr: "skip-summary emit: invalid skip summary: reason: must not be blank\n", compiled: 0 });
    expect(r.zod).toEqual(expect.any(Object));
  });

  it("the hook and surface on an empty workspace load no zod", async () => {
    const ws = await tempDir();
    const event = JSON.stringify({ hook_event_name: "Stop", session_id: "s", transcript_path: join(ws, "t.jsonl"), cwd: ws, stop_hook_active: false });
    expect(await runProbed(["surface", "--hook-input", "--workspace", ws], event)).toMatchObject({ code: 0, zod: null });
    expect(await runProbed(["surface", "--workspace", ws])).toMatchObject({ code: 0, zod: null });
  });

  // With something to deliver, surface reads the notifier config (zod); the contract's schema is built only for the
  // refused summary, which nothing outside the bundle can see, so this checks what can be: no code compiled either way.
  it("surface delivers a well-formed summary and words a refused one, compiling no parser with zod", async () => {
    const ws = await tempDir();
    const out = join(ws, "delivered.jsonl");
    const config = await fileNotifierConfig(ws, { path: out });
    await putSummary(ws, "tessl__good");
    const good = await runProbed(["surface", "--workspace", ws, "--config", config]);
    expect(good).toMatchObject({ code: 0, compiled: 0 });
    expect((await readDelivered(out)).map((d) => d.skill)).toEqual(["tessl__good"]);
    await putSummary(ws, "tessl__bad", { reason: " " });
    const bad = await runProbed(["surface", "--workspace", ws, "--config", config]);
    expect(bad).toMatchObject({ code: 1, compiled: 0, zod: expect.any(Object) });
    expect(bad.stderr).toContain("reason: must not be blank");
  });
});
