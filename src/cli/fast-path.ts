// emit and the after-skill hook run after every skill, so their well-formed invocations skip commander (about 10 ms
// of start-up, bench/emit.mjs and bench/surface-once.mjs). Anything unusual falls through to the full CLI.
import { action, type CommandContext, type CommandDefinition, type ExitCode } from "./action.js";

/** The exit code, or `undefined` when the full commander CLI must handle `argv`. */
export async function runFastPath(argv: readonly string[], commands: readonly CommandDefinition[], context: CommandContext): Promise<ExitCode | undefined> {
  const def = commands.find((c) => c.name === argv[0]);
  if (!def?.fast) return undefined;
  const run = def.fast.prepare(argv.slice(1));
  if (run === undefined) return undefined;
  let exitCode: ExitCode = 0;
  await action(context, def.name, (code) => (exitCode = code), () => run(context))();
  return exitCode;
}
