// The safe-path layer on real folders: a link, a non-folder, a FIFO or a hard link at a name is refused, and
// nothing is ever created, appended or moved through a link.
import { execFileSync } from "node:child_process";
import { link, lstat, mkdir, readdir, readFile, rename, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { appendSafely, createExclusively, entryKind, isEnvironmentError, openSafeDir, replaceAtomically, withSafeDir } from "../../src/fs/index.js";
import { tempDir } from "../helpers/cli.js";

async function outside(): Promise<{ dir: string; file: string }> {
  const dir = await tempDir("skip-summary-outside-");
  const file = join(dir, "target.txt");
  await writeFile(file, "untouched\n");
  return { dir, file };
}

describe("openSafeDir", () => {
  it("creates a missing folder (one level) and puts files in it", async () => {
    const ws = await tempDir();
    await withSafeDir(join(ws, "q"), { create: true }, async (dir) => {
      await createExclusively(dir.at("a.txt"), "a");
      await replaceAtomically(dir.at("b.json"), "{}\n");
    });
    expect((await readdir(join(ws, "q"))).sort()).toEqual(["a.txt", "b.json"]);
    expect((await lstat(join(ws, "q"))).mode & 0o777).toBe(0o700);
  });

  it("refuses a symlink to a folder, naming the link and its target, and creates nothing there", async () => {
    const ws = await tempDir();
    const out = await outside();
    await symlink(out.dir, join(ws, "q"));
    const error = await openSafeDir(join(ws, "q"), { create: true }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "SkipSummaryError", code: "fs.unsafe_path" });
    expect(error).toMatchObject({ data: { kind: "symlink", path: join(ws, "q") } });
    expect((error as Error).message).toContain(`it is a symbolic link (to ${out.dir})`);
    expect(await readdir(out.dir)).toEqual(["target.txt"]);
  });

  it("refuses a dangling symlink and a regular file at the folder's name", async () => {
    const ws = await tempDir();
    await symlink(join(ws, "nowhere"), join(ws, "dangling"));
    await writeFile(join(ws, "file"), "x");
    await expect(openSafeDir(join(ws, "dangling"), { create: true })).rejects.toMatchObject({ code: "fs.unsafe_path", data: { kind: "symlink" } });
    await expect(entryKind(join(ws, "nowhere"))).resolves.toBe("missing");
    const error = await openSafeDir(join(ws, "file"), { create: true }).catch((e: unknown) => e);
    expect(error).toMatchObject({ data: { kind: "not-directory" } });
    expect((error as Error).message).toMatch(/it is a regular file; it must be a directory/);
  });

  it("keeps writing into the folder it opened when the name is swapped for a link afterwards (Linux /proc/self/fd)", async () => {
    const ws = await tempDir();
    const out = await outside();
    const dir = await openSafeDir(join(ws, "q"), { create: true });
    try {
      await rename(join(ws, "q"), join(ws, "q-moved"));
      await symlink(out.dir, join(ws, "q"));
      await createExclusively(dir.at("late.txt"), "late");
    } finally {
      await dir.close();
    }
    expect(await readdir(out.dir)).toEqual(["target.txt"]);
    expect(await readdir(join(ws, "q-moved"))).toEqual(["late.txt"]);
  });
});

describe("appendSafely", () => {
  it("creates, then appends to, a regular file", async () => {
    const ws = await tempDir();
    await appendSafely(join(ws, "log"), "one\n");
    await appendSafely(join(ws, "log"), "two\n");
    expect(await readFile(join(ws, "log"), "utf8")).toBe("one\ntwo\n");
  });

  it.each([
    ["a symlink to a file", async (p: string, t: string) => symlink(t, p), "symlink", /symbolic link \(to /],
    ["a dangling symlink", async (p: string, t: string) => symlink(`${t}.new`, p), "symlink", /symbolic link/],
    ["a hard link to a file elsewhere", async (p: string, t: string) => link(t, p), "hard-linked", /2 hard links/],
    ["a folder", async (p: string) => mkdir(p), "not-regular-file", /a directory/],
    ["a FIFO", async (p: string) => void execFileSync("mkfifo", [p]), "not-regular-file", /a FIFO/],
  ] as const)("refuses %s at the name and writes nothing anywhere", async (_label, make, kind, words) => {
    const ws = await tempDir();
    const out = await outside();
    const path = join(ws, "log");
    await make(path, out.file);
    const error = await appendSafely(path, "line\n").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "fs.unsafe_path", data: { kind } });
    expect((error as Error).message).toMatch(words);
    expect(isEnvironmentError(error)).toBe(true);
    expect(await readFile(out.file, "utf8")).toBe("untouched\n");
    expect((await readdir(out.dir)).sort()).toEqual(["target.txt"]);
  });
});

describe("createExclusively and replaceAtomically", () => {
  it("createExclusively fails with EEXIST on a link at the name, even a dangling one, and never creates its target", async () => {
    const ws = await tempDir();
    const out = await outside();
    await symlink(join(out.dir, "new.txt"), join(ws, "lock"));
    await expect(createExclusively(join(ws, "lock"), "x")).rejects.toMatchObject({ code: "EEXIST" });
    expect(await readdir(out.dir)).toEqual(["target.txt"]);
  });

  it("replaceAtomically replaces a link at the name with a file, leaving the link's target alone", async () => {
    const ws = await tempDir();
    const out = await outside();
    await symlink(out.file, join(ws, "record.json"));
    await replaceAtomically(join(ws, "record.json"), "{}\n");
    expect((await lstat(join(ws, "record.json"))).isFile()).toBe(true);
    expect(await readFile(out.file, "utf8")).toBe("untouched\n");
    expect(await readdir(ws)).toEqual(["record.json"]);
  });

  it("isEnvironmentError tells a file-system error from a bug", () => {
    expect(isEnvironmentError(Object.assign(new Error("x"), { code: "EACCES" }))).toBe(true);
    expect(isEnvironmentError(new TypeError("x is not a function"))).toBe(false);
    expect(isEnvironmentError(new RangeError("Maximum call stack size exceeded"))).toBe(false);
  });
});
