// The issue's own measure, literally: an idle `surface --watch` at the default level and the default rescan (5 s)
// writes nothing to its log for 60 s after start-up. (The default project checks the same with 40 rescans in 2 s.)
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { CLI, tempDir, waitFor } from "../helpers/cli.js";

it("an idle watcher writes nothing for 60 s after start-up", async () => {
  const ws = await tempDir();
  const child = spawn(process.execPath, [CLI, "surface", "--watch", "--workspace", ws, "--notify", "stdout"], { stdio: ["ignore", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "" } });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  await waitFor(() => stderr.includes("watch_started"), 15_000);
  const startup = stderr.length;
  await sleep(60_000);
  const after = stderr.slice(startup);
  child.kill("SIGTERM");
  expect(after).toBe("");
  expect(await exited).toBe(0);
}, 90_000);
