// `surface --dry-run` predicts the real run: the same exit code on each case the issue names (no notifier, a
// read-only workspace, a failing webhook), each warning said once, and the summaries untouched by the dry run.
import { chmod, mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { openUp, runUnprivileged } from "../helpers/unprivileged.js";
import { freePort, startServer } from "../notifiers/helpers.js";
import { putSummary } from "./helpers.js";

const NAME = ".skip-summary-tessl__a.json";
const count = (text: string, part: string) => text.split(part).length - 1;

async function workspace(): Promise<{ dir: string; ws: string }> {
  const dir = await tempDir("skip-summary-dry-");
  const ws = join(dir, "ws");
  await mkdir(ws);
  await putSummary(ws, "tessl__a");
  return { dir, ws };
}

describe.concurrent("--dry-run and the real run agree", () => {
  it("no notifier would reach a person: both exit 1, said once, every summary kept", async () => {
    const { ws } = await workspace();
    const dry = await runCliInProcess(["surface", "--workspace", ws, "--dry-run"]);
    expect(dry.code).toBe(1);
    expect(count(dry.stderr, "no notifier is configured")).toBe(1);
    expect(dry.stderr).toContain("skip-summary surface: dry run: the real run would send nothing and keep every summary: no notifier is configured");
    expect(dry.stdout).not.toContain("would send");
    const real = await runCliInProcess(["surface", "--workspace", ws]);
    expect(real.code).toBe(dry.code);
    expect(count(real.stderr, "no notifier is configured")).toBe(1);
    expect(await readdir(ws)).toEqual([NAME]);
    // With nothing waiting, neither needs a notifier: both exit 0, with no word about one.
    const empty = await tempDir();
    const [d0, r0] = [await runCliInProcess(["surface", "--workspace", empty, "--dry-run"]), await runCliInProcess(["surface", "--workspace", empty])];
    expect([d0.code, r0.code]).toEqual([0, 0]);
    expect(d0.stderr + r0.stderr).not.toContain("no notifier");
  });

  it("a failing webhook (connection refused): both exit 1; the dry run names the notifier and sends nothing", async () => {
    const { dir, ws } = await workspace();
    const config = join(dir, "config.json");
    await writeFile(config, JSON.stringify({ notify: { retries: 0, notifiers: { hook: { type: "webhook", url: `http://127.0.0.1:${await freePort()}/skips` } } } }));
    const dry = await runCliInProcess(["surface", "--workspace", ws, "--config", config, "--dry-run"]);
    expect(dry.code).toBe(1);
    expect(dry.stdout).toMatch(new RegExp(`^would not send +${join(ws, NAME).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} — the real run would not reach hook \\(cannot reach http://127\\.0\\.0\\.1:\\d+`, "m"));
    const real = await runCliInProcess(["surface", "--workspace", ws, "--config", config]);
    expect(real.code).toBe(dry.code);
    expect(await readdir(ws)).toEqual([NAME]);
  });

  it("a webhook that answers 503: both exit 1; one that answers: both exit 0 (the dry run posts nothing)", async () => {
    const down = await startServer(() => ({ status: 503, body: "maintenance" }));
    const { dir, ws } = await workspace();
    const config = join(dir, "config.json");
    await writeFile(config, JSON.stringify({ notify: { retries: 0, notifiers: { hook: { type: "webhook", url: down.url } } } }));
    const dry = await runCliInProcess(["surface", "--workspace", ws, "--config", config, "--dry-run"]);
    expect(down.requests.map((q) => q.method)).not.toContain("POST");
    const real = await runCliInProcess(["surface", "--workspace", ws, "--config", config]);
    expect([dry.code, real.code]).toEqual([1, 1]);

    const up = await startServer(() => ({ status: 200 }));
    await writeFile(config, JSON.stringify({ notify: { notifiers: { hook: { type: "webhook", url: up.url } } } }));
    const dryOk = await runCliInProcess(["surface", "--workspace", ws, "--config", config, "--dry-run"]);
    expect(dryOk.code, dryOk.stderr).toBe(0);
    expect(up.requests.map((q) => q.method)).toEqual(["HEAD"]);
    const realOk = await runCliInProcess(["surface", "--workspace", ws, "--config", config]);
    expect(realOk.code).toBe(0);
    expect(up.requests.map((q) => q.method)).toEqual(["HEAD", "POST"]);
  });

  it("a read-only workspace: both exit 1, the dry run says the real run could not claim it (as an unprivileged user)", async () => {
    const { dir, ws } = await workspace();
    await openUp(dir, ws);
    await chmod(join(ws, NAME), 0o644);
    await chmod(ws, 0o555);
    const dry = await runUnprivileged(["surface", "--workspace", ws, "--notify", "stdout", "--dry-run"]);
    const real = await runUnprivileged(["surface", "--workspace", ws, "--notify", "stdout"]);
    await chmod(ws, 0o755);
    expect(dry.stdout).toContain(`would not send   ${join(ws, NAME)} — the workspace is not writable (EACCES`);
    expect([dry.code, real.code]).toEqual([1, 1]);
    expect(await readdir(ws)).toEqual([NAME]);
  });
});
