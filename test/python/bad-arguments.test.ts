// Issue 24 L6: the Python helper answers bad arguments with its own errors (as Node's emitSkip does), never a bare
// TypeError or ValueError from deep inside, and refuses a waiting file far past the summary limit without reading it
// whole, as the Node writer does (src/fs/atomic-write.ts, readRegularFile).
import { open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/cli.js";
import { pythonAvailable, runPython } from "./helpers.js";

const HAS_PYTHON = pythonAvailable();

/** Runs emit_skip with the given Python argument text; prints the error's class and message, or "ok". */
function emitWith(workspace: string, args: string): ReturnType<typeof runPython> {
  return runPython(
    [
      "import sys, skip_summary",
      "try:",
      `    skip_summary.emit_skip("tessl__x", step=1, reason="r", workspace=${JSON.stringify(workspace)}, ${args})`,
      "    print('ok')",
      "except skip_summary.SkipSummaryError as e:",
      "    print(type(e).__name__ + ': ' + str(e))",
    ].join("\n"),
  );
}

describe.skipIf(!HAS_PYTHON).concurrent("python emit_skip: bad arguments and big files", () => {
  it("items=None means no items; a non-iterable is the contract's own error, not a TypeError", async () => {
    const ws = await tempDir();
    const none = await emitWith(ws, "items=None");
    expect(none.stdout.trim(), none.stderr).toBe("ok");
    const five = await emitWith(ws, "items=5");
    expect(five.stderr).toBe("");
    expect(five.stdout).toMatch(/^SummaryValidationError: .*items/);
  });

  it("a NaN or Infinity in extra is named with its field, not a bare ValueError, and nothing is written", async () => {
    const ws = await tempDir();
    for (const value of ["float('nan')", "{'a': [1, float('inf')]}"]) {
      const r = await emitWith(ws, `extra={"metric": ${value}}`);
      expect(r.stderr, value).toBe("");
      expect(r.stdout, value).toMatch(/^SummaryValidationError: .*metric.*finite number/);
    }
    expect((await readdir(ws)).filter((n) => n.startsWith(".skip-summary-"))).toEqual([]);
  });

  it("a 100 MB file at the summary's name is refused at once, and left as it was", async () => {
    const ws = await tempDir();
    const planted = join(ws, ".skip-summary-tessl__x.json");
    const handle = await open(planted, "w");
    await handle.truncate(100 * 1024 * 1024); // sparse: 100 MB to read, nothing on disk
    await handle.close();
    const r = await emitWith(ws, "items=['a']");
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^SummaryWriteError: refusing to overwrite .* larger than 65536 bytes/);
    expect((await stat(planted)).size).toBe(100 * 1024 * 1024);
  });
});
