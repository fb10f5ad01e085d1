// Writers racing for one summary, moved out of test/owner/emit.test.ts for their length: a reader polling during
// 1,000 writes, eight emitting processes, and an owner whose waiting file a surfacer claims mid-merge.
import { spawn } from "node:child_process";
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { classifySummaryText } from "../../src/contract/index.js";
import { runCli, tempDir } from "../helpers/cli.js";

describe("atomicity and concurrency (real processes)", () => {
  it("a reader polling during 1,000 writes never sees a partial or invalid file", async () => {
    const ws = await tempDir();
    const path = join(ws, ".skip-summary-tessl__atomic.json");
    const script = `
      import { emitSkip } from ${JSON.stringify(new URL("../../dist/lib/index.js", import.meta.url).href)};
      for (let i = 0; i < 1000; i++) {
        await emitSkip({ skill: "tessl__atomic", step: "s" + (i % 3), reason: "r", items: ["item-" + i] }, { workspace: ${JSON.stringify(ws)} });
      }`;
    const writer = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "inherit", "inherit"] });
    const done = new Promise<number | null>((resolve) => writer.on("close", resolve));
    let finished = false;
    void done.then(() => (finished = true));
    let reads = 0;
    while (!finished) {
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch {
        continue; // not created yet
      }
      reads += 1;
      const result = classifySummaryText(text, { expectedSkill: "tessl__atomic" });
      expect(result.kind, text).toBe("valid");
    }
    expect(await done).toBe(0);
    expect(reads).toBeGreaterThan(10);
    const final = JSON.parse(await readFile(path, "utf8"));
    expect(final.items).toHaveLength(1000);
    expect((await readdir(ws)).filter((n) => n !== ".skip-summary-tessl__atomic.json")).toEqual([]);
  }, 120_000);

  it("eight processes emitting for one skill at once lose no item", async () => {
    const ws = await tempDir();
    const runs = Array.from({ length: 8 }, (_, p) =>
      Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          runCli(["emit", "--skill", "tessl__race", "--step", `p${p}`, "--reason", `proc ${p}`, "--item", `p${p}-i${i}`, "--workspace", ws], { timeoutMs: 60_000 }),
        ),
      ),
    );
    const results = (await Promise.all(runs)).flat();
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const final = JSON.parse(await readFile(join(ws, ".skip-summary-tessl__race.json"), "utf8"));
    expect([...final.items].sort()).toEqual(Array.from({ length: 8 }, (_, p) => Array.from({ length: 5 }, (_, i) => `p${p}-i${i}`)).flat().sort());
    expect(await readdir(ws)).toEqual([".skip-summary-tessl__race.json"]);
  }, 120_000);
});

describe("an owner racing a surfacer", () => {
  it("never fails or loses an item when the waiting file is claimed (renamed away) mid-merge", async () => {
    const ws = await tempDir();
    const { rename, readdir: list } = await import("node:fs/promises");
    const lib = new URL("../../dist/lib/index.js", import.meta.url).href;
    const script = `
      import { emitSkip } from ${JSON.stringify(lib)};
      for (let i = 0; i < 600; i++) await emitSkip({ skill: "tessl__raced", step: "s", reason: "r", items: ["i" + i] }, { workspace: ${JSON.stringify(ws)} });`;
    let stderr = "";
    const child = spawn(process.execPath, ["--input-type=module", "-e", script]);
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    let running = true;
    void exited.then(() => (running = false));
    let claims = 0;
    while (running) {
      // What a surfacer does: claim the summary by renaming it to a name of its own.
      await rename(join(ws, ".skip-summary-tessl__raced.json"), join(ws, `claimed-${claims}`)).then(
        () => (claims += 1),
        () => undefined,
      );
    }
    expect(await exited, stderr).toBe(0);
    const items = new Set<string>();
    for (const name of await list(ws)) {
      for (const item of JSON.parse(await readFile(join(ws, name), "utf8")).items as string[]) items.add(item);
    }
    expect(claims).toBeGreaterThan(0);
    expect(items.size).toBe(600);
  }, 120_000);
});
