// Every exit code the CLI returns, one row per command and outcome, in one table: commander's parse errors, the
// commands' own usage errors, the error codes the parts throw and the commands' results all read it, and
// docs/exit-codes.md prints it (a test keeps the two equal). The skill exit-code contract (0/2/75, sysexits) is the
// runner's pass-through and lives in src/contract.
import { isSkipSummaryError, type SkipSummaryErrorCode } from "../contract/errors.js";
import { EX_CANTCREAT, EX_DATAERR, EX_SOFTWARE, EX_USAGE } from "../contract/exit-codes.js";

export const EXIT_CODES = {
  emit: { written: 0, usage: EX_USAGE, "bad-data": EX_DATAERR, "cannot-write": EX_CANTCREAT, bug: EX_SOFTWARE },
  validate: { valid: 0, invalid: 1, usage: 2, bug: EX_SOFTWARE },
  schema: { printed: 0, usage: 2, bug: EX_SOFTWARE },
  // A Claude Code hook's exit 2 is fed back to the model (or blocks a Stop), so under --hook-input nothing is 2.
  surface: { sent: 0, "not-sent": 1, usage: 2, "hook-usage": 1, bug: EX_SOFTWARE },
  // A ledger, journal or silences file that cannot be read is set aside and named: 1, whatever else was done.
  history: { shown: 0, "file-set-aside": 1, usage: 2, bug: EX_SOFTWARE },
  silence: { done: 0, "no-such-silence": 1, "file-set-aside": 1, full: 1, usage: 2, "cannot-write": EX_CANTCREAT, bug: EX_SOFTWARE },
  hooks: { done: 0, usage: 2, "bad-settings": 2, "cannot-write": EX_CANTCREAT, bug: EX_SOFTWARE },
  check: { passed: 0, failed: 1, usage: 2, "config-invalid": 2, bug: EX_SOFTWARE },
  notify: { sent: 0, "not-sent": 1, usage: 2, bug: EX_SOFTWARE },
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

type Outcome<C extends CommandName> = keyof (typeof EXIT_CODES)[C];

/**
 * The row each error code lands on, per command (docs/errors.md lists the codes). `cli.usage` is every command's
 * `usage` row without being listed. A code a command does not list is a bug of ours (70): it should not reach it.
 */
export const ERROR_ROWS: { readonly [C in CommandName]: Readonly<Partial<Record<SkipSummaryErrorCode, Outcome<C>>>> } = {
  emit: {
    "contract.workspace_not_found": "usage",
    "contract.summary_invalid": "bad-data",
    "contract.skill_id_invalid": "bad-data",
    "fs.input_too_large": "bad-data",
    "cli.link_invalid": "bad-data",
    "owner.write_failed": "cannot-write",
    "fs.unsafe_path": "cannot-write",
  },
  validate: {},
  schema: {},
  surface: {
    "contract.workspace_not_found": "usage",
    "config.invalid": "usage",
    "surfacer.hook_input_invalid": "hook-usage",
    "notifiers.none_available": "not-sent",
  },
  history: { "contract.workspace_not_found": "usage", "config.invalid": "usage" },
  silence: {
    "contract.workspace_not_found": "usage",
    "config.invalid": "usage",
    "surfacer.silence_invalid": "usage",
    "surfacer.silences_full": "full",
    "owner.write_failed": "cannot-write",
    "fs.unsafe_path": "cannot-write",
  },
  hooks: { "hooks.settings_invalid": "bad-settings", "hooks.settings_unwritable": "cannot-write", "config.invalid": "usage" },
  check: { "contract.workspace_not_found": "usage" },
  notify: { "config.invalid": "usage", "notifiers.none_available": "not-sent" },
  // lint words its parts' errors itself (`config error in …`, `cannot lint …`) and throws them as `cli.usage`.
  lint: {},
  helper: {},
  // The flag parsers' errors (durations, --retry-on, --heal, --log-format) come as `cli.usage` naming the flag.
  run: { "runner.options_invalid": "usage" },
  "skip-summary": {},
};

/**
 * The exit code for `error` thrown while `command` ran, from its code's row; `undefined` for anything else, which
 * is a bug (main's last resort words it and exits 70). A `usage` row follows {@link usageExitCode}.
 */
export function errorExitCode(command: string, argv: readonly string[], error: unknown): number | undefined {
  if (!isSkipSummaryError(error)) return undefined;
  const table = isCommand(command) ? EXIT_CODES[command] : EXIT_CODES["skip-summary"];
  const rows: Readonly<Partial<Record<SkipSummaryErrorCode, string>>> = isCommand(command) ? ERROR_ROWS[command] : {};
  const row = error.code === "cli.usage" ? "usage" : rows[error.code];
  if (row === undefined) return undefined;
  return row === "usage" ? usageExitCode(command, argv) : (table as Record<string, number>)[row];
}

/** Where each command's --help points for the whole table. */
export const EXIT_CODES_DOC = "docs/exit-codes.md (shipped in the package)";
