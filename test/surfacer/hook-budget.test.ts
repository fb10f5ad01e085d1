// A Stop hook holds the agent's stop. With a receiver that accepts the connection and never answers (a webhook on
// 127.0.0.1), the config of the field report (timeout_ms 10 s, 4 retries: 56 s before) must not hold it past the
// budget: the built CLI, as Claude Code runs it, returns within 15 s, keeps the summary, says so in systemMessage,
// and never exits 2 (which would keep the agent from stopping).
import { createServer, type Server } from "node:http";
import type { Socket } from "node:net";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseHookOutput, stopEvent } from "../helpers/claude-hooks.js";
import { readWorkspace, runCli, tempDir } from "../helpers/cli.js";
import { putSummary } from "./helpers.js";

let server: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** An HTTP server that reads each request and never answers it; counts the requests. */
async function hangingReceiver(): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  server = createServer(() => void requests++);
  server.on("connection", (s) => sockets.add(s));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/skips`, requests: () => requests };
}

describe("the hook's time budget", () => {
  it("a hanging receiver: the Stop hook returns within 15 s (default budget 10 s), keeps the summary, and says so in systemMessage", async () => {
    const receiver = await hangingReceiver();
    const ws = await tempDir();
    const aux = await tempDir();
    const config = join(aux, "skip-summary.config.json");
    await writeFile(config, JSON.stringify({ notify: { notifiers: { hook: { type: "webhook", url: receiver.url } }, timeout_ms: 10_000, retries: 4 } }));
    await putSummary(ws, "tessl__check-cfps");
    const started = Date.now();
    const r = await runCli(["surface", "--hook-input", "--config", config], { input: stopEvent(ws), timeoutMs: 30_000 });
    const tookMs = Date.now() - started;
    expect(r.code, r.stderr).toBe(1);
    expect(tookMs).toBeLessThanOrEqual(15_000);
    expect(tookMs).toBeGreaterThanOrEqual(10_000); // the budget, not an earlier failure, ended it
    expect(receiver.requests()).toBe(1); // the first attempt was cut at the budget: no retry started after it
    const output = parseHookOutput(r.stdout, "Stop");
    expect(output.systemMessage).toMatch(/^skip-summary: 1 skip summary was not delivered and stays where it is: check-cfps \(send-failed: .*the hook's time budget of 10000 ms \(surface\.hook_budget_ms\) ran out; kept for the next run/);
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__check-cfps.json"]);
  }, 30_000);

  it("surface.hook_budget_ms sets the budget; retries that fit inside it still run", async () => {
    const receiver = await hangingReceiver();
    const ws = await tempDir();
    const aux = await tempDir();
    const config = join(aux, "skip-summary.config.json");
    await writeFile(config, JSON.stringify({ surface: { hook_budget_ms: 2500 }, notify: { notifiers: { hook: { type: "webhook", url: receiver.url } }, timeout_ms: 1000, retries: 4, min_delay_ms: 100, max_delay_ms: 100 } }));
    await putSummary(ws, "tessl__check-cfps");
    const started = Date.now();
    const r = await runCli(["surface", "--hook-input", "--config", config], { input: stopEvent(ws) });
    const tookMs = Date.now() - started;
    expect(r.code, r.stderr).toBe(1);
    expect(tookMs).toBeLessThan(7_500); // 5 attempts of 1 s and 4 waits would take 5.4 s; the budget ends it at 2.5 s
    expect(receiver.requests()).toBeGreaterThanOrEqual(2); // the retries that fit were made
    expect(receiver.requests()).toBeLessThanOrEqual(3);
    expect(parseHookOutput(r.stdout, "Stop").systemMessage).toContain("the hook's time budget of 2500 ms (surface.hook_budget_ms) ran out; kept for the next run");
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__check-cfps.json"]);
  });
});
