// Hostile workspaces against the CLI (in process): a link or a file planted at the quarantine folder's name, and a
// summary nested 5,000 deep. Nothing may be written outside the workspace, no file may be lost, and nothing
// is reported as a bug of ours (exit 70).
import { readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir, readWorkspace } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { summary } from "./helpers.js";

const NAME = ".skip-summary-tessl__bad.json";
const QUARANTINE = ".skip-summary-quarantine";

describe("a planted quarantine folder", () => {
  it("a symlink at .skip-summary-quarantine is refused: nothing lands in its target, the file stays, exit 1", async () => {
    const ws = await tempDir();
    const elsewhere = await tempDir("skip-summary-elsewhere-");
    await symlink(elsewhere, join(ws, QUARANTINE));
    await writeFile(join(ws, NAME), "{ not json");
    const r = await runCliInProcess(["surface", "--workspace", ws, "--notify", "stdout"]);
    expect(r.code).toBe(1);
    expect(await readdir(elsewhere)).toEqual([]);
    expect((await readWorkspace(ws)).sort()).toEqual([QUARANTINE, NAME]);
    expect(await readFile(join(ws, NAME), "utf8")).toBe("{ not json");
    expect(r.stderr).toContain(`refusing to use the folder ${join(ws, QUARANTINE)}: it is a symbolic link (to ${elsewhere})`);
    expect(r.stderr).toContain("code=quarantine-refused");
    expect(r.stdout).toBe(""); // no notice names a place the file never went
    expect(r.stderr).not.toContain("internal error");
  });

  it("the same holds on a second run, and once the link is gone the file is quarantined inside the workspace", async () => {
    const ws = await tempDir();
    const elsewhere = await tempDir("skip-summary-elsewhere-");
    await symlink(elsewhere, join(ws, QUARANTINE));
    await writeFile(join(ws, NAME), "{ not json");
    expect((await runCliInProcess(["surface", "--workspace", ws, "--notify", "stdout"])).code).toBe(1);
    expect((await runCliInProcess(["surface", "--workspace", ws, "--notify", "stdout"])).code).toBe(1);
    expect(await readdir(elsewhere)).toEqual([]);
    const { unlink } = await import("node:fs/promises");
    await unlink(join(ws, QUARANTINE));
    const r = await runCliInProcess(["surface", "--workspace", ws, "--notify", "stdout"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("could not be read");
    const kept = await readdir(join(ws, QUARANTINE));
    expect(kept).toHaveLength(2);
    expect(kept.some((n) => n.endsWith(".reason.json"))).toBe(true);
  });

  it("a regular file at .skip-summary-quarantine is refused with words saying it must be a directory", async () => {
    const ws = await tempDir();
    await writeFile(join(ws, QUARANTINE), "mine");
    await writeFile(join(ws, NAME), "{ not json");
    const r = await runCliInProcess(["surface", "--workspace", ws, "--notify", "stdout", "--log-format", "json"]);
    expect(r.code).toBe(1);
    const line = r.stderr.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.code === "quarantine-refused");
    expect(line?.detail).toContain("it is a regular file; it must be a directory");
    expect(await readFile(join(ws, QUARANTINE), "utf8")).toBe("mine");
    expect(await readFile(join(ws, NAME), "utf8")).toBe("{ not json");
  });
});

describe("a summary nested 5,000 deep", () => {
  const deep = () => {
    const text = JSON.stringify(summary("tessl__bad"));
    return `${text.slice(0, -1)},"extra":${"[".repeat(5000)}${"]".repeat(5000)}}`;
  };

  it("validate --json reports it invalid (exit 1, not 70), naming the depth", async () => {
    const ws = await tempDir();
    await writeFile(join(ws, NAME), deep());
    const r = await runCliInProcess(["validate", "--json", join(ws, NAME)]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { files: { kind: string; problems: { message: string }[] }[] };
    expect(out.files[0]).toMatchObject({ kind: "invalid" });
    expect(out.files[0]!.problems[0]!.message).toContain("nests deeper than 64 levels");
  });

  it("surface quarantines it on the first attempt, with one notice, and the next emit for the skill succeeds", async () => {
    const ws = await tempDir();
    await writeFile(join(ws, NAME), deep());
    const r = await runCliInProcess(["surface", "--workspace", ws, "--notify", "stdout"]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain("internal error");
    expect(r.stdout).toContain("nests deeper than 64 levels");
    expect((await readdir(join(ws, QUARANTINE))).length).toBe(2);
    expect((await readWorkspace(ws)).sort()).toEqual([QUARANTINE]);
    const emit = await runCliInProcess(["emit", "--workspace", ws, "--skill", "tessl__bad", "--step", "1", "--reason", "again"]);
    expect(emit.code).toBe(0);
  });
});

describe("a bug in the cycle", () => {
  it("is thrown on (the CLI exits 70), not turned into an io-error outcome, and the file goes back in place", async () => {
    const ws = await tempDir();
    await writeFile(join(ws, ".skip-summary-tessl__ok.json"), JSON.stringify(summary("tessl__ok")));
    const deliver = async () => {
      const missing = undefined as unknown as { send(): void };
      missing.send(); // a TypeError, as a bug of ours would raise
      return { ok: true, results: [] };
    };
    const { surfaceOnce } = await import("../../src/surfacer/index.js");
    await expect(surfaceOnce({ workspaces: [ws], deliver, leaseMs: 600_000, lockWaitMs: 0 })).rejects.toBeInstanceOf(TypeError);
    expect(await readWorkspace(ws)).toEqual([".skip-summary-tessl__ok.json"]);
  });
});

describe("a planted journal record", () => {
  it("a symlink at a .partial name is not read: the notifier it names is not skipped", async () => {
    const ws = await tempDir();
    const elsewhere = await tempDir("skip-summary-elsewhere-");
    const out = join(elsewhere, "delivered.jsonl");
    const s = summary("tessl__p");
    await writeFile(join(ws, ".skip-summary-tessl__p.json"), JSON.stringify(s));
    const { deliveryIdOf } = await import("../../src/surfacer/journal.js");
    const { classifySummary } = await import("../../src/contract/index.js");
    const parsed = classifySummary(s);
    if (parsed.kind !== "valid") throw new Error("fixture");
    const id = deliveryIdOf("tessl__p", JSON.stringify(parsed.summary));
    await writeFile(join(elsewhere, "fake.json"), JSON.stringify({ sent: ["file"] }));
    await symlink(join(elsewhere, "fake.json"), join(ws, `.skip-summary-tessl__p.json~${id}.partial`));
    const { surfaceOnce } = await import("../../src/surfacer/index.js");
    const { deliverTo, fileNotifier, readDelivered } = await import("./helpers.js");
    const report = await surfaceOnce({ workspaces: [ws], deliver: deliverTo([fileNotifier(out)]), leaseMs: 600_000, lockWaitMs: 0 });
    expect(report.outcomes).toMatchObject([{ kind: "sent", code: "delivered" }]);
    expect(await readDelivered(out)).toHaveLength(1);
  });
});
