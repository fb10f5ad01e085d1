// Every exit code the CLI returns, one row per command and outcome, in one table: commander's parse errors, the
// commands' own usage errors and their results all read it, and docs/exit-codes.md prints it (a test keeps the two
// equal). The skill exit-code contract (0/2/75, sysexits) is the runner's pass-through and lives in src/contract.
import { EX_CANTCREAT, EX_DATAERR, EX_SOFTWARE, EX_USAGE } from "../contract/exit-codes.js";

export const EXIT_CODES = {
  emit: { written: 0, usage: EX_USAGE, "bad-data": EX_DATAERR, "cannot-write": EX_CANTCREAT, bug: EX_SOFTWARE },
  validate: { valid: 0, invalid: 1, usage: 2, bug: EX_SOFTWARE },
  schema: { printed: 0, usage: 2, bug: EX_SOFTWARE },
  // A Claude Code hook's exit 2 is fed back to the model (or blocks a Stop), so under --hook-input nothing is 2.
  surface: { sent: 0, "not-sent": 1, usage: 2, "hook-usage": 1, bug: EX_SOFTWARE },
  history: { shown: 0, usage: 2, bug: EX_SOFTWARE },
  silence: { done: 0, "no-such-silence": 1, usage: 2, bug: EX_SOFTWARE },
  hooks: { done: 0, usage: 2, "bad-settings": 2, "cannot-write": EX_CANTCREAT, bug: EX_SOFTWARE },
  lint: { clean: 0, findings: 1, usage: 2, bug: EX_SOFTWARE },
  helper: { printed: 0, usage: 2, bug: EX_SOFTWARE },
  // Otherwise the skill's own code passes through (docs/exit-codes.md); 64, not 2, so a usage error never reads as blocked.
  run: { usage: EX_USAGE, "plan-invalid": EX_DATAERR, bug: EX_SOFTWARE },
  // No command, or an unknown one.
  "skip-summary": { usage: 2, bug: EX_SOFTWARE },
} as const satisfies Record<string, Record<string, number>>;

export type CommandName = keyof typeof EXIT_CODES;

function isCommand(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(EXIT_CODES, name);
}

/** The code for a usage error of `command`, whichever layer found it (commander, the fast path, the command). */
export function usageExitCode(command: string | undefined, argv: readonly string[]): number {
  if (command === "surface" && argv.includes("--hook-input")) return EXIT_CODES.surface["hook-usage"];
  return isCommand(command) ? EXIT_CODES[command].usage : EXIT_CODES["skip-summary"].usage;
}

/** Where each command's --help points for the whole table. */
export const EXIT_CODES_DOC = "docs/exit-codes.md (shipped in the package)";
