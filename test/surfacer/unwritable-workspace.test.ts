// A workspace the surfacer may not write or list is the environment's fault: each case gets its documented code
// and words naming the file and the cause, never exit 70, and never silence. Root runs the CLI as `nobody`.
import { chmod, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readWorkspace, tempDir, waitFor } from "../helpers/cli.js";
import { openUp, runUnprivileged, startUnprivileged } from "../helpers/unprivileged.js";
import { summary } from "./helpers.js";

const NAME = ".skip-summary-tessl__a.json";

async function workspaceWithSummary(): Promise<{ root: string; ws: string }> {
  const root = await tempDir();
  const ws = join(root, "ws");
  const { mkdir } = await import("node:fs/promises");
  await mkdir(ws);
  await writeFile(join(ws, NAME), JSON.stringify(summary("tessl__a")));
  await openUp(root, ws);
  await chmod(join(ws, NAME), 0o644);
  return { root, ws };
}

// Each test changes the modes of its own workspace only and waits on its own process: they run side by side.
describe.concurrent("an unwritable or unlistable workspace (built CLI)", () => {
  it("surface on a read-only workspace: exit 1, the file and the cause named, the summary untouched", async () => {
    const { ws } = await workspaceWithSummary();
    await chmod(ws, 0o555);
    const r = await runUnprivileged(["surface", "--workspace", ws, "--notify", "stdout"]);
    await chmod(ws, 0o755);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`cannot claim ${join(ws, NAME)}: EACCES (permission denied); the surfacer renames a summary before sending it, so the workspace must be writable`);
    expect(r.stderr).not.toContain("internal error");
    expect(r.stdout).toBe("");
    expect(await readdir(ws)).toEqual([NAME]);
  });

  it("emit into a read-only workspace is 73 with the cause, not 70", async () => {
    const { ws } = await workspaceWithSummary();
    await chmod(ws, 0o555);
    const r = await runUnprivileged(["emit", "--workspace", ws, "--skill", "tessl__b", "--step", "1", "--reason", "r"]);
    await chmod(ws, 0o755);
    expect(r.code).toBe(73);
    expect(r.stderr).toMatch(/EACCES/);
    expect(r.stderr).not.toContain("internal error");
  });

  it("surface on a workspace it may not list: exit 1 and a workspace_unreadable line, not 70", async () => {
    const { ws } = await workspaceWithSummary();
    await chmod(ws, 0o000);
    const r = await runUnprivileged(["surface", "--workspace", ws, "--notify", "stdout", "--log-format", "json"]);
    await chmod(ws, 0o755);
    expect(r.code, r.stderr).toBe(1);
    const line = r.stderr.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.event === "workspace_unreadable");
    expect(line).toMatchObject({ level: "error", workspace: ws });
    expect(line!.detail).toContain("cannot list the workspace: EACCES (permission denied)");
    expect(await readdir(ws)).toEqual([NAME]);
  });

  it("watch mode reports a workspace it may not list, keeps trying it, and surfaces it once it can", async () => {
    const { root, ws } = await workspaceWithSummary();
    const out = join(root, "out");
    const { mkdir } = await import("node:fs/promises");
    await mkdir(out);
    await openUp(out);
    // A digest window of 50 ms: grouping stays on, as by default, without holding the notice back 3 s.
    await writeFile(join(root, "skip-summary.config.json"), JSON.stringify({ surface: { rescan_ms: 100, group_wait_ms: 50 } }));
    await chmod(ws, 0o000);
    // The waits share one budget, and the process one deadline, both inside the test's 30 s: a slow step fails
    // naming itself, never as the test's timeout.
    const deadline = Date.now() + 20_000;
    const wait = (what: string, check: () => boolean | Promise<boolean>) =>
      waitFor(check, Math.max(0, deadline - Date.now())).catch((e: Error) => {
        throw new Error(`${what}: ${e.message}\nstdout: ${watch.stdout()}\nstderr: ${watch.stderr()}`);
      });
    const watch = await startUnprivileged(["surface", "--watch", "--workspace", ws, "--notify", "stdout", "--log-format", "json", "--config", join(root, "skip-summary.config.json")], { timeoutMs: 25_000 });
    try {
      await wait("no workspace_unreadable line", () => watch.stderr().includes('"event":"workspace_unreadable"'));
      expect(watch.stderr()).toContain("cannot list the workspace: EACCES (permission denied)");
      await chmod(ws, 0o777); // listable, and writable by the unprivileged surfacer, which claims by rename
      await wait("the notice did not arrive once the workspace could be listed", () => watch.stdout().includes("nightly budget spent"));
      expect(watch.stderr()).toContain('"event":"workspace_readable"');
      await wait("the summary was not deleted after its notice", async () => (await readWorkspace(ws)).length === 0);
    } finally {
      await chmod(ws, 0o755);
      watch.kill("SIGTERM");
    }
    const r = await watch.result;
    // Seen once in a full run (16:06, load 1.8): no exit code. Which signal ended it, and what it said, tell why.
    expect({ code: r.code, signal: r.signal }, `stdout: ${r.stdout}\nstderr: ${r.stderr}`).toEqual({ code: 0, signal: null });
  });
});
