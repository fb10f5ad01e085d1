// A digest that some notifiers took and one refused: the retry must not send it again to those that took it.
// Two real notifiers through the CLI (in process: the process boundary is not the point): the file-backed module
// notifier, and a webhook posting to a real HTTP server on 127.0.0.1 that answers 500 until the test lets it through.
import { join } from "node:path";
import { writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { readWorkspace, memoryTempDir } from "../../helpers/cli.js";
import { runCliInProcess } from "../../helpers/in-process.js";
import { startServer } from "../../notifiers/helpers.js";
import { FILE_NOTIFIER, putSummary, readDelivered } from "../helpers.js";

async function twoNotifierConfig(dir: string, out: string, hookUrl: string): Promise<string> {
  const path = join(dir, "skip-summary.config.json");
  await writeFile(path, JSON.stringify({
    notify: { notifiers: { file: { type: "module", path: FILE_NOTIFIER, options: { path: out } }, hook: { type: "webhook", url: hookUrl } }, retries: 0, timeout_ms: 5000 },
  }));
  return path;
}

describe("a digest partly accepted", () => {
  it("is not sent again to the notifier that took it; the retry goes to the one that failed, and a newcomer to both", async () => {
    const ws = await memoryTempDir();
    const aux = await memoryTempDir();
    const out = join(aux, "file.jsonl");
    let up = false;
    const server = await startServer(() => ({ status: up ? 200 : 500, body: up ? "ok" : "down" }));
    const config = await twoNotifierConfig(aux, out, `${server.url}/hook`);
    const first = ["tessl__a", "tessl__b", "tessl__c"];
    for (const s of first) await putSummary(ws, s);

    // Run 1: the file notifier takes the digest of three, the webhook answers 500. All three stay, each with a
    // `.partial` record naming the file notifier.
    const r1 = await runCliInProcess(["surface", "--workspace", ws, "--config", config]);
    expect(r1.code, r1.stderr).toBe(1);
    expect((await readDelivered(out)).map((d) => d.skill).sort()).toEqual(first);
    expect(server.requests).toHaveLength(1);
    const left = await readWorkspace(ws);
    for (const s of first) {
      expect(left).toContain(`.skip-summary-${s}.json`);
      expect(left.some((n) => n.startsWith(`.skip-summary-${s}.json~`) && n.endsWith(".partial"))).toBe(true);
    }

    // A fourth skip arrives; the webhook comes back. Run 2: the three go to the webhook only (one digest), the
    // newcomer to both notifiers. The file notifier never sees a, b or c again.
    await putSummary(ws, "tessl__d");
    up = true;
    const r2 = await runCliInProcess(["surface", "--workspace", ws, "--config", config]);
    expect(r2.code, r2.stderr).toBe(0);
    const fileSkills = (await readDelivered(out)).map((d) => d.skill);
    expect(fileSkills.sort()).toEqual([...first, "tessl__d"].sort());
    expect(server.requests).toHaveLength(3);
    const bodies = server.requests.slice(1).map((r) => JSON.parse(r.body) as { skill: string; summaries?: { summary: { skill: string } }[] });
    const hookSkills = bodies.map((b) => (b.summaries ? b.summaries.map((m) => m.summary.skill) : [b.skill]).sort());
    expect(hookSkills.sort((x, y) => x.length - y.length)).toEqual([["tessl__d"], first]);
    // Everything was delivered to both, so nothing is left: no summary, no `.partial`.
    expect(await readWorkspace(ws)).toEqual([]);
  });
});
