// The full CLI behind the launcher (bin.ts): commander, every command, the process's own streams. Built as ESM with
// lazily loaded chunks (dist/full.mjs, dist/chunks/), so each command still loads only what it uses.
import { main } from "./main.js";
import { processIo } from "./io.js";
import type { ExitCode } from "./action.js";

export async function runFull(argv: readonly string[], fatal: (error: unknown) => never): Promise<ExitCode> {
  // A reader that went away (`skip-summary run --json ... | head -1`) is not an error of ours, and not a reason to
  // stop: the command goes on with nothing printed (the stream is destroyed, later writes are dropped), so a runner
  // still waits for its skill, writes its summary and exits with its code.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") fatal(error);
    });
  }
  return main(argv, processIo());
}
