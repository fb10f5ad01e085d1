import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";

const good = { schema_version: 1, skill: "tessl__a", step: 1, reason: "r", items: [], technical_failure: false, occurred_at: "2026-11-22T00:00:00Z" };

async function files() {
  const dir = await tempDir();
  const paths = {
    good: join(dir, ".skip-summary-tessl__a.json"),
    bad: join(dir, ".skip-summary-tessl__b.json"),
    v2: join(dir, "v2.json"),
    mismatch: join(dir, ".skip-summary-tessl__c.json"),
  };
  await writeFile(paths.good, JSON.stringify(good));
  await writeFile(paths.bad, JSON.stringify({ ...good, skill: "tessl__b", reason: "", items: ["x", "x"] }));
  await writeFile(paths.v2, JSON.stringify({ ...good, schema_version: 2 }));
  await writeFile(paths.mismatch, JSON.stringify(good));
  return { dir, paths };
}

describe("skip-summary validate", () => {
  it("exits 0 when every file is valid v1", async () => {
    const { paths } = await files();
    const r = await runCliInProcess(["validate", paths.good]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`ok       ${paths.good}\n`);
  });

  it("exits 1 and lists every problem per file and field", async () => {
    const { paths } = await files();
    const r = await runCliInProcess(["validate", paths.good, paths.bad, paths.v2, paths.mismatch, join(paths.good, "..", "missing.json")]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`invalid  ${paths.bad}\n         reason: must not be blank\n         items: must not contain duplicates ("x")`);
    expect(r.stdout).toContain(`unknown  ${paths.v2}\n         schema_version: is 2`);
    expect(r.stdout).toContain(`invalid  ${paths.mismatch}\n         skill: must equal the id in the file name ("tessl__c"), got "tessl__a"`);
    expect(r.stdout).toMatch(/error    .*missing\.json\n         cannot be opened \(ENOENT\)/);
  });

  it("prints one JSON document with --json", async () => {
    const { paths } = await files();
    const r = await runCliInProcess(["validate", "--json", paths.good, paths.v2]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.ok).toBe(false);
    expect(out.files.map((f: { kind: string }) => f.kind)).toEqual(["valid", "unrecognised-version"]);
  });

  it("exits 2 when no file is given", async () => {
    const r = await runCliInProcess(["validate"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("missing required argument");
  });
});

describe("the CLI shell", () => {
  it("prints the version", async () => {
    const r = await runCliInProcess(["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it.each(["emit", "validate", "schema"])("%s --help shows an example", async (command) => {
    const r = await runCliInProcess([command, "--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Example:");
    expect(r.stdout).toContain(`skip-summary ${command}`);
  });

  it("exits 2 on an unknown command and with no command", async () => {
    const unknown = await runCliInProcess(["frobnicate"]);
    const none = await runCliInProcess([]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("Usage: skip-summary");
  });

  it("never shows a stack trace for a usage error", async () => {
    const r = await runCliInProcess(["emit", "--skill", "tessl__a", "--step", "s", "--reason", "r", "--bogus"]);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain("unknown option '--bogus'");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
