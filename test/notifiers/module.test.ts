// A user's notifier from a real .mjs file: both export styles, and clear errors when it does not fit.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "vitest";
import { isSkipSummaryError } from "../../src/contract/errors.js";
import { deliver, loadNotifiers } from "../../src/notifiers/index.js";
import { tempDir } from "../helpers/cli.js";
import { deliveryRequest, fakeSleep } from "./helpers.js";

async function load(dir: string, file: string, source: string, options?: Record<string, unknown>) {
  await writeFile(join(dir, file), source);
  const config = {
    path: join(dir, "skip-summary.config.json"),
    data: { notify: { notifiers: { mine: { type: "module", path: `./${file}`, ...(options ? { options } : {}) } } } },
  };
  return loadNotifiers({ config, env: {}, cwd: "/", names: undefined, stdout: { write: () => undefined } });
}

// Concurrent: each test loads its own files from its own folder; the timeout test's 200 ms overlap the others.
describe.concurrent("module notifier", () => {
  it("loads createNotifier(options) relative to the config file and passes requests through", async ({ expect }) => {
    const dir = await tempDir();
    const source = `
      import { appendFileSync } from "node:fs";
      export function createNotifier(options) {
        return { name: "ignored", async send(request) {
          appendFileSync(options.log, JSON.stringify({ skill: request.skill, route: request.route, id: request.deliveryId, timeoutMs: request.timeoutMs, aborted: request.signal.aborted }) + "\\n");
          return { ok: true, detail: "logged" };
        } };
      }`;
    const log = join(dir, "sent.log");
    const loaded = await load(dir, "log-notifier.mjs", source, { log });
    expect(loaded.notifiers.map((n) => n.name)).toEqual(["mine"]);
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 4321, retries: 0, log: () => undefined });
    expect(report).toEqual({ ok: true, results: [{ notifier: "mine", ok: true, attempts: 1 }] });
    const { readFile } = await import("node:fs/promises");
    expect(JSON.parse(await readFile(log, "utf8"))).toEqual({ skill: "tessl__check-cfps", route: "policy", id: "d-0123456789abcdef", timeoutMs: 4321, aborted: false });
  });

  it("accepts a default export with send, and retries what it throws", async ({ expect }) => {
    const dir = await tempDir();
    const source = `let calls = 0; export default { async send() { calls += 1; if (calls < 3) throw new Error("chat API down"); return { ok: true }; } };`;
    const loaded = await load(dir, "flaky.mjs", source);
    const { sleep, delays } = fakeSleep();
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 5, log: () => undefined, sleep, random: () => 1 });
    expect(report.results[0]).toEqual({ notifier: "mine", ok: true, attempts: 3 });
    expect(delays).toEqual([500, 1000]);
  });

  it("a result of the wrong shape is a permanent failure in words", async ({ expect }) => {
    const dir = await tempDir();
    const loaded = await load(dir, "wrong.mjs", `export default { send: async () => ({ ok: false, error: "nope" }) };`);
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 5000, retries: 3, log: () => undefined });
    expect(report.results[0]).toMatchObject({ ok: false, permanent: true, attempts: 1 });
    expect(report.results[0]!.error).toMatch(/returned an invalid result: a failure must set `permanent` to true or false/);
  });

  it("a module that does not export a notifier is a config error naming the path and what it exports", async ({ expect }) => {
    const dir = await tempDir();
    const error = await load(dir, "bad.mjs", `export const send = () => ({ ok: true }); export const other = 1;`).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "config.invalid" });
    const message = (error as Error).message;
    expect(message).toContain("notify.notifiers.mine.path");
    expect(message).toContain(join(dir, "bad.mjs"));
    expect(message).toMatch(/must export createNotifier\(options\) or a default object with a send\(request\) function; it exports other, send/);
  });

  it("a module that cannot be imported, or whose factory throws, is a config error", async ({ expect }) => {
    const dir = await tempDir();
    const missing = { path: join(dir, "skip-summary.config.json"), data: { notify: { notifiers: { mine: { type: "module", path: "./nope.mjs" } } } } };
    const error = await loadNotifiers({ config: missing, env: {}, cwd: "/", names: undefined, stdout: { write: () => undefined } }).catch((e: Error) => e.message);
    expect(error).toContain(`notify.notifiers.mine.path: ${join(dir, "nope.mjs")} does not exist: set path to your module's file; a relative path is resolved against the config file's folder`);
    expect(error).not.toMatch(/imported from|chunks/);
    const folder = { ...missing, data: { notify: { notifiers: { mine: { type: "module", path: "." } } } } };
    await expect(loadNotifiers({ config: folder, env: {}, cwd: "/", names: undefined, stdout: { write: () => undefined } })).rejects.toThrow(/is not a file/);
    await expect(load(dir, "syntax.mjs", "export default {")).rejects.toThrow(/syntax\.mjs cannot be imported/);
    await expect(load(dir, "empty.mjs", "")).rejects.toThrow(/it exports nothing/);
    await expect(load(dir, "throws.mjs", `export function createNotifier() { throw new Error("no API key"); }`)).rejects.toThrow(
      /createNotifier\(options\) threw: no API key/,
    );
  });

  it("a send that never settles is cut off by the timeout", async ({ expect }) => {
    const dir = await tempDir();
    const loaded = await load(dir, "hang.mjs", `export default { send: () => new Promise(() => {}) };`);
    const report = await deliver(deliveryRequest(), { ...loaded, timeoutMs: 200, retries: 0, log: () => undefined });
    expect(report.results[0]).toMatchObject({ ok: false, permanent: false, attempts: 1 });
    expect(report.results[0]!.error).toMatch(/timed out after 200 ms/);
  });
  it("destination(route, workspace) routes by the module's answer; one that takes over 1 s counts as 'depends on the workspace' and its late answer is never taken for the next (docs/notifiers.md)", async ({ expect }) => {
    const dir = await tempDir();
    // A workspace ending /slow keeps the module's thread busy for 3 s (a synchronous wait), then answers "late".
    const source = `
      export default {
        destination(route, workspace) {
          if (workspace.endsWith("/slow")) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000); return "late"; }
          return route + "@" + workspace.split("/").pop();
        },
        async send() { return { ok: true }; },
      };`;
    const loaded = await load(dir, "router.mjs", source);
    const mine = loaded.notifiers[0]!;
    const a = mine.destination!("policy", "/srv/groups/a");
    expect(a).toContain("policy@a");
    expect(mine.destination!("policy", "/srv/groups/a")).toBe(a);
    expect(mine.destination!("technical", "/srv/groups/a")).not.toBe(a);
    expect(mine.destination!("policy", "/srv/groups/slow")).toBeUndefined();
    // The thread is still busy with /slow: this question also gets no answer in time, not /slow's "late".
    expect(mine.destination!("policy", "/srv/groups/b")).toBeUndefined();
    await new Promise((r) => setTimeout(r, 3_000));
    const b = mine.destination!("policy", "/srv/groups/b");
    expect(b).toContain("policy@b");
    expect(b).not.toContain("late");
  });
});
