// The owner's lock on a file system without hard links: link(2) fails with EPERM, and the lock is made with an
// O_EXCL create and its record written into it (src/fs/lock.ts, placeWithoutLink). Injected into the built CLI
// with --import, because the fault must reach the process's own fs module.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";
import { processFixture } from "../process/helpers.js";

it("emit takes the lock without a hard link, writes the summary, merges the next emit, and leaves no lock behind", async () => {
  const ws = await tempDir();
  const inject = { env: { NODE_OPTIONS: `--import=${processFixture("no-hard-links.mjs")}` } };
  const emit = (item: string) => runCli(["emit", "--skill", "tessl__a", "--step", "1", "--reason", "budget spent", "--item", item, "--workspace", ws], inject);
  const first = await emit("a");
  expect(first.code, first.stderr).toBe(0);
  const second = await emit("b");
  expect(second.code, second.stderr).toBe(0);
  expect(JSON.parse(await readFile(join(ws, ".skip-summary-tessl__a.json"), "utf8"))).toMatchObject({ items: ["a", "b"] });
  expect((await readdir(ws)).sort()).toEqual([".skip-summary-tessl__a.json"]);
});
