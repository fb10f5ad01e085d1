// emit's hot entry runs the owner's file code against src/cli/hot/fs-promises-sync.ts instead of node:fs/promises.
// Each call must answer as fs/promises does on real files: the same results, and the same errno errors (the owner
// words its refusals from error.code), for the cases the owner's write path meets.
import { constants } from "node:fs";
import * as real from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as shim from "../../src/cli/hot/fs-promises-sync.js";
import { tempDir } from "../helpers/cli.js";

type Fs = typeof shim;
const both: [string, Fs][] = [
  ["fs/promises", real as unknown as Fs],
  ["fs-promises-sync", shim],
];

/** Runs `scenario` with each implementation in its own fresh folder; returns what each saw. */
async function outcomes(scenario: (fs: Fs, dir: string) => Promise<unknown>): Promise<unknown[]> {
  const seen: unknown[] = [];
  for (const [, fs] of both) {
    const dir = await tempDir();
    seen.push(await scenario(fs, dir).then(
      (value) => ({ value: JSON.parse(JSON.stringify(value ?? null, (_k, v: unknown) => (typeof v === "string" ? v.replaceAll(dir, "<dir>") : v))) as unknown }),
      (error: NodeJS.ErrnoException) => ({ code: error.code, syscall: error.syscall, message: error.message.replaceAll(dir, "<dir>") }),
    ));
  }
  return seen;
}

async function expectSame(scenario: (fs: Fs, dir: string) => Promise<unknown>): Promise<unknown> {
  const [a, b] = await outcomes(scenario);
  expect(b).toEqual(a);
  return a;
}

const EXCL = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

describe("fs-promises-sync answers as fs/promises", () => {
  it("creates exclusively, writes, syncs, stats, reads back, and closes twice without error", async () => {
    const r = await expectSame(async (fs, dir) => {
      const h = await fs.open(join(dir, "a"), EXCL, 0o640);
      await h.writeFile("hello ", "utf8");
      await h.writeFile(Buffer.from("world"));
      await h.sync();
      await h.utimes(new Date(1_000_000), new Date(2_000_000));
      const st = await h.stat();
      await h.close();
      await h.close();
      const r2 = await fs.open(join(dir, "a"), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      const buffer = Buffer.alloc(8);
      const first = await r2.read(buffer, 0, 8, null);
      const rest = await r2.readFile();
      await r2.close();
      return { size: st.size, mode: st.mode & 0o777, mtime: st.mtimeMs, isFile: st.isFile(), first: first.bytesRead, text: buffer.toString("utf8", 0, first.bytesRead) + rest.toString() };
    });
    expect(r).toEqual({ value: { size: 11, mode: 0o640 & ~process.umask(), mtime: 2_000_000, isFile: true, first: 8, text: "hello world" } });
  });

  it("refuses a second exclusive create, a link at a no-follow open, and a missing file, with the same errors", async () => {
    expect(await expectSame(async (fs, dir) => {
      await (await fs.open(join(dir, "a"), EXCL, 0o644)).close();
      return fs.open(join(dir, "a"), EXCL, 0o644);
    })).toMatchObject({ code: "EEXIST", syscall: "open" });
    expect(await expectSame(async (fs, dir) => {
      await real.symlink(join(dir, "nowhere"), join(dir, "l"));
      return fs.open(join(dir, "l"), constants.O_RDONLY | constants.O_NOFOLLOW);
    })).toMatchObject({ code: "ELOOP" });
    expect(await expectSame((fs, dir) => fs.open(join(dir, "missing"), "r"))).toMatchObject({ code: "ENOENT" });
    expect(await expectSame((fs, dir) => fs.unlink(join(dir, "missing")))).toMatchObject({ code: "ENOENT", syscall: "unlink" });
    expect(await expectSame((fs, dir) => fs.stat(join(dir, "missing")))).toMatchObject({ code: "ENOENT", syscall: "stat" });
  });

  it("links (EEXIST when the name is taken), renames over a name, reads links without following them", async () => {
    expect(await expectSame(async (fs, dir) => {
      await real.writeFile(join(dir, "a"), "1");
      await real.writeFile(join(dir, "b"), "2");
      return fs.link(join(dir, "a"), join(dir, "b"));
    })).toMatchObject({ code: "EEXIST", syscall: "link" });
    expect(await expectSame(async (fs, dir) => {
      await real.writeFile(join(dir, "a"), "1");
      await fs.link(join(dir, "a"), join(dir, "c"));
      await real.symlink(join(dir, "a"), join(dir, "l"));
      await fs.rename(join(dir, "c"), join(dir, "l"));
      await real.symlink("target", join(dir, "m"));
      const [lst, st, target] = [await fs.lstat(join(dir, "m")), await fs.stat(join(dir, "a")), await fs.readlink(join(dir, "m"))];
      return { linkIsLink: lst.isSymbolicLink(), nlink: st.nlink, l: await real.readFile(join(dir, "l"), "utf8"), target };
    })).toEqual({ value: { linkIsLink: true, nlink: 2, l: "1", target: "target" } });
  });
});
