// The CLI layer in-process with a recording io: the closing block must reach stderr as one write, after the
// skill's stdout, so a host never sees it interleaved or split.
import { describe, expect, it } from "vitest";
import { Readable } from "node:stream";
import type { CliIo } from "../../src/cli/io.js";
import { runFromCli } from "../../src/cli/commands/run/single.js";
import { tempDir } from "../helpers/cli.js";
import { fixture } from "./helpers.js";

function recordingIo(cwd: string): { io: CliIo; writes: { stream: "out" | "err"; text: string }[] } {
  const writes: { stream: "out" | "err"; text: string }[] = [];
  const io: CliIo = {
    stdout: { write: (text: string) => writes.push({ stream: "out", text }) },
    stderr: { write: (text: string) => writes.push({ stream: "err", text }) },
    stdin: Readable.from([]) as CliIo["stdin"],
    env: { PATH: process.env.PATH },
    cwd,
  };
  return { io, writes };
}

describe("runFromCli", () => {
  it("writes the header first, the skill's stdout as it comes, then the closing block in one write, last", async () => {
    const ws = await tempDir();
    const { io, writes } = recordingIo(ws);
    const code = await runFromCli([fixture("interleaved.sh"), "", "2"], { skill: "tessl__a", workspace: ws, logFile: `${ws}/log.jsonl` }, io);
    expect(code).toBe(2);
    expect(writes[0]).toEqual({ stream: "err", text: "🪨 run skill tessl__a\n" });
    expect(writes.filter((w) => w.stream === "out").map((w) => w.text).join("")).toBe("out 1\nout 2\nout 3\n");
    expect(writes.at(-1)).toEqual({ stream: "err", text: "   └─ ✋ blocked by constraints\n\nerr 1\nerr 2\n" });
    expect(writes.filter((w) => w.stream === "err")).toHaveLength(2);
  });

  it("removes its signal handlers when the run ends", async () => {
    const ws = await tempDir();
    const before = [process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")];
    await runFromCli([fixture("exit-with.sh"), "0"], { skill: "tessl__a", workspace: ws, logFile: `${ws}/log.jsonl` }, recordingIo(ws).io);
    expect([process.listenerCount("SIGINT"), process.listenerCount("SIGTERM")]).toEqual(before);
  });
});
