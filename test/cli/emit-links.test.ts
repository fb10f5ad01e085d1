// `emit --reason-key KEY` and `--link TITLE=URL` through the CLI (in process: the hot entries' own process is tested
// in test/cli/code-cache.test.ts and test/surfacer/hook.test.ts), on both of its paths: the hot path (parseArgs) and
// commander (--debug sends an invocation there), which must agree.
import { readFile, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { fileNotifierConfig, readDelivered } from "../surfacer/helpers.js";

const BOTH_PATHS = [
  ["hot path", (args: string[]) => args],
  ["commander", (args: string[]) => [args[0]!, "--debug", ...args.slice(1)]],
] as const;

const fileOf = (ws: string) => join(ws, ".skip-summary-tessl__post-news.json");
const read = async (ws: string) => JSON.parse(await readFile(fileOf(ws), "utf8"));
const emitArgs = (ws: string, ...extra: string[]) => ["emit", "--skill", "tessl__post-news", "--step", "login", "--reason", "login expired", "--workspace", ws, ...extra];

describe.each(BOTH_PATHS)("emit --reason-key and --link (%s)", (_name, via) => {
  it("writes reason_key and links; the title is what comes before the first '=', so a URL may hold more", async () => {
    const ws = await tempDir();
    const r = await runCliInProcess(via(emitArgs(ws, "--reason-key", "login-expired", "--link", "Log in again=https://example.com/login?next=/feed&a=b", "--link", "Status = http://status.example.com/")));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(await read(ws)).toMatchObject({
      reason_key: "login-expired",
      links: [
        { title: "Log in again", url: "https://example.com/login?next=/feed&a=b" },
        { title: "Status", url: "http://status.example.com/" },
      ],
    });
  });

  it("refuses a link that is not http: or https: with exit 65, naming the value, and writes nothing", async () => {
    const ws = await tempDir();
    for (const bad of ["Fix=javascript:alert(1)", "Data=data:text/html,hi", "Files=ftp://example.com/x", "Page=example.com/login"]) {
      const r = await runCliInProcess(via(emitArgs(ws, "--link", "Ok=https://example.com", "--link", bad)));
      expect(r.code, bad).toBe(65);
      expect(r.stderr, bad).toContain(`--link ${JSON.stringify(bad)}: the URL must be`);
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
    }
    expect(await readdir(ws)).toEqual([]);
  });

  it("says so in --json too", async () => {
    const ws = await tempDir();
    const r = await runCliInProcess(via(emitArgs(ws, "--link", "Fix=javascript:alert(1)", "--json")));
    expect(r.code).toBe(65);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, exit_code: 65, error: { code: "INVALID_LINK", message: expect.stringContaining('"javascript:" links are refused') } });
  });

  it("refuses a --link without TITLE=URL with exit 64 and an example", async () => {
    const ws = await tempDir();
    for (const bad of ["https://example.com/?a=b", "just words", "=https://example.com", "Title="]) {
      const r = await runCliInProcess(via(emitArgs(ws, "--link", bad)));
      expect(r.code, bad).toBe(64);
      expect(r.stderr, bad).toContain(`--link ${JSON.stringify(bad)}:`);
      expect(r.stderr, bad).toContain('--link "Log in again=https://example.com/login"');
    }
    expect(await readdir(ws)).toEqual([]);
  });

  it("refuses a blank --reason-key and more than 5 links with exit 65, naming the field", async () => {
    const ws = await tempDir();
    const blank = await runCliInProcess(via(emitArgs(ws, "--reason-key", " ")));
    expect(blank.code).toBe(65);
    expect(blank.stderr).toContain("reason_key: must not be blank");
    const six = Array.from({ length: 6 }, (_, i) => ["--link", `L${i}=https://example.com/${i}`]).flat();
    const many = await runCliInProcess(via(emitArgs(ws, ...six)));
    expect(many.code).toBe(65);
    expect(many.stderr).toContain("links: must hold at most 5 links");
    expect(await readdir(ws)).toEqual([]);
  });
});

describe("emit with links and a reason key merges into a waiting summary", () => {
  it("keeps the waiting reason key, and the links of both once per URL (waiting first, at most 5)", async () => {
    const ws = await tempDir();
    await runCliInProcess(emitArgs(ws, "--reason-key", "login-expired", "--item", "post-1", "--link", "Log in again=https://example.com/login", "--link", "Status=https://status.example.com"));
    const r = await runCliInProcess(emitArgs(ws, "--reason-key", "other-key", "--item", "post-2", "--link", "Re-login=https://example.com/login", "--link", "Feed=https://example.com/feed", "--json"));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ merged: true });
    const merged = await read(ws);
    expect(merged).toMatchObject({ reason_key: "login-expired", items: ["post-1", "post-2"] });
    expect(merged.links).toEqual([
      { title: "Log in again", url: "https://example.com/login" },
      { title: "Status", url: "https://status.example.com" },
      { title: "Feed", url: "https://example.com/feed" },
    ]);
    const more = Array.from({ length: 4 }, (_, i) => ["--link", `More ${i}=https://example.com/more/${i}`]).flat();
    await runCliInProcess(emitArgs(ws, ...more));
    expect((await read(ws)).links.map((l: { title: string }) => l.title)).toEqual(["Log in again", "Status", "Feed", "More 0", "More 1"]);
  });

  it("gives a waiting summary without a reason key the new one", async () => {
    const ws = await tempDir();
    await runCliInProcess(emitArgs(ws, "--item", "post-1"));
    await runCliInProcess(emitArgs(ws, "--reason-key", "login-expired", "--item", "post-2"));
    expect(await read(ws)).toMatchObject({ reason_key: "login-expired", items: ["post-1", "post-2"] });
  });

  it("leaves the waiting summary byte for byte when the new emit's link is refused", async () => {
    const ws = await tempDir();
    await writeFile(fileOf(ws), `${JSON.stringify({ schema_version: 1, skill: "tessl__post-news", step: "login", reason: "login expired", items: ["p"], technical_failure: true, occurred_at: "2026-11-20T03:00:00.000Z" })}\n`);
    const before = await readFile(fileOf(ws), "utf8");
    const r = await runCliInProcess(emitArgs(ws, "--link", "Fix=javascript:void(0)"));
    expect(r.code).toBe(65);
    expect(await readFile(fileOf(ws), "utf8")).toBe(before);
  });

  it("lists both flags in --help", async () => {
    const r = await runCliInProcess(["emit", "--help"]);
    expect(r.stdout).toContain("--reason-key <key>");
    expect(r.stdout).toContain("--link <title=url>");
    expect(r.stdout).toContain("merged into, never overwritten");
  });
});

describe("emit --reason-key and --link, then surface (end to end)", () => {
  it("a silence on the reason key mutes that key only, and the link reaches the owner as a tappable link", async () => {
    const ws = await tempDir();
    const aux = await tempDir();
    const out = join(aux, "delivered.jsonl");
    const config = await fileNotifierConfig(aux, { path: out });
    const env = (iso: string) => ({ NODE_ENV: "test", SKIP_SUMMARY_NOW: iso });
    const silence = await runCliInProcess(["silence", "add", "--workspace", ws, "--skill", "post-news", "--reason-key", "budget", "--for", "7d", "--comment", "known"], { env: env("2026-11-20T09:00:00Z") });
    expect(silence.code, silence.stderr).toBe(0);
    await runCliInProcess(["emit", "--skill", "tessl__post-news", "--step", "3", "--reason", "daily budget spent", "--reason-key", "budget", "--workspace", ws]);
    const muted = await runCliInProcess(["surface", "--workspace", ws, "--config", config], { env: env("2026-11-21T03:00:00Z") });
    expect(muted.code, muted.stderr).toBe(0);
    expect(await readDelivered(out)).toHaveLength(0);
    await runCliInProcess(emitArgs(ws, "--technical", "--reason-key", "login-expired", "--link", "Log in again=https://example.com/login?next=/feed&a=b"));
    const sent = await runCliInProcess(["surface", "--workspace", ws, "--config", config], { env: env("2026-11-21T04:00:00Z") });
    expect(sent.code, sent.stderr).toBe(0);
    const delivered = await readDelivered(out);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.html).toContain('🔗 <a href="https://example.com/login?next=/feed&amp;a=b">Log in again</a>');
    expect(delivered[0]!.text).toContain("🔗 Log in again: https://example.com/login?next=/feed&a=b");
  });
});
