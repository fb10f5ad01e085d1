// Exit 70 only for bugs, checked everywhere (issue 24 item 3): every case of exit-70-cases.ts, each of its runs
// against the built CLI in a workspace with the hostile state planted again, and a summary waiting where the run
// surfaces. No run may exit 70, print "internal error", hang, or leave its notice unsent.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, runCli, tempDir } from "../helpers/cli.js";
import { runCliProcess } from "./campaign.js";
import { ALL_CASES } from "./exit-70-cases.js";

const NOTIFIER = join(ROOT, "test", "fixtures", "surfacer", "file-notifier.mjs");
const lines: string[] = [];
afterAll(() => {
  if (lines.length > 0) console.log(`[stress] no exit 70: ${ALL_CASES.length} cases\n${lines.join("\n")}`);
});

// The cases run side by side (each in its own workspace): one after another they took 107 s on 2 cores.
describe.concurrent.each(ALL_CASES)("hostile state: $name", ({ plant, runs }) => {
  it("no run exits 70; every notice goes out", async () => {
    const root = await tempDir("skip-summary-exit70-");
    const ws = join(root, "ws");
    await mkdir(ws);
    const out = join(root, "delivered.jsonl");
    const config = join(root, "skip-summary.config.json");
    await writeFile(config, JSON.stringify({ notify: { notifiers: { f: { type: "module", path: NOTIFIER, options: { path: out } } }, retries: 0 } }));
    const codes: string[] = [];
    for (const [i, run] of runs.entries()) {
      await plant(ws);
      const skill = `tessl__stress-${i}`;
      if (run.delivers) await writeFile(join(ws, `.skip-summary-${skill}.json`), JSON.stringify({ schema_version: 1, skill, step: 1, reason: `run ${i}`, items: [], technical_failure: false, occurred_at: "2026-11-22T18:04:05Z" }));
      const args = run.args(ws, config);
      const delivered = async () => (await readFile(out, "utf8").catch(() => "")).split("\n").filter((l) => l.includes(`"${skill}"`)).length;
      const result = run.watchUntilDelivered
        ? await runCliProcess(args, { doneWhen: (stdout) => stdout.includes(`"${skill}"`) })
        : await runCli(args, { input: run.input?.(ws) ?? "", timeoutMs: 30_000 });
      const what = `${args.slice(0, 2).join(" ")} (run ${i})`;
      expect(result.code, `${what}: ${result.stderr.slice(-1500)}`).not.toBe(70);
      expect(result.stderr, what).not.toContain("internal error");
      expect(run.codes, `${what} exited ${result.code}: ${result.stderr.slice(-1500)}`).toContain(result.code);
      if (run.delivers) expect(await delivered(), `${what}: the notice went out`).toBe(1);
      codes.push(`${args[0]}${args[1]?.startsWith("-") ? "" : ` ${args[1]}`}=${result.code}`);
    }
    lines.push(`  ${codes.join(", ")}`);
  }, 180_000);
});
