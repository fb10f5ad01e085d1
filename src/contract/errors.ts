// One error shape for every part, as execa has one error with flat data: a `code` says what went wrong, `data`
// carries the facts a caller needs (typed per code), `cause` the error underneath. Parts never define error classes
// of their own; callers branch on the code (`isSkipSummaryError(e, "config.invalid")`), and the CLI turns a code into
// an exit status in one table (src/cli/exit-codes.ts). It lives in src/contract because every part imports that.
// The codes are `<part>.<what>`, the part being the src/ folder that throws it; docs/errors.md lists them all.
import type { Problem } from "./problems.js";

/** Why a path inside a workspace was refused (`fs.unsafe_path`). */
export type UnsafePathKind = "symlink" | "not-directory" | "not-regular-file" | "hard-linked";

/** Why the owner side could not write a summary (`owner.write_failed`). */
export type WriteRefusalKind = "not-regular-file" | "unrecognised-version" | "invalid-existing" | "unwritable" | "lock-timeout" | "lock-stale";

type NoData = Readonly<Record<never, never>>;

/** Every error code, and the data an error of that code carries. */
export interface SkipSummaryErrorData {
  /** A summary (or a skip to write) breaks the v1 contract. */
  "contract.summary_invalid": { readonly problems: readonly Problem[] };
  /** A skill id that cannot become part of a file name. */
  "contract.skill_id_invalid": { readonly id: unknown; readonly problem: string };
  /** Neither `--workspace`, `SKIP_SUMMARY_WORKSPACE` nor the container default names a workspace. */
  "contract.workspace_not_found": NoData;
  /** `skip-summary.config.json` (or `--config FILE`) is unreadable or wrong; `problems` name the keys. */
  "config.invalid": { readonly path: string; readonly problems: readonly Problem[] };
  /** A link, a non-folder or a hard-linked file sits where the safe-path layer would write. */
  "fs.unsafe_path": { readonly kind: UnsafePathKind; readonly path: string };
  /** A bounded read stopped at its limit (a config, a plan, `--items-from`). */
  "fs.input_too_large": { readonly source: string; readonly limit: number };
  /** The owner side refused or failed to write a summary. */
  "owner.write_failed": { readonly kind: WriteRefusalKind; readonly path: string };
  /** The event piped to `surface --hook-input` is not a Claude Code hook event. */
  "surfacer.hook_input_invalid": { readonly problem: string };
  /** A silence to add is refused (a comment over its limit, a reason key that could never match); nothing was written. */
  "surfacer.silence_invalid": { readonly problem: string };
  /** The silences file has no room for one more, even after ended and reported silences made room; nothing was written. */
  "surfacer.silences_full": { readonly path: string; readonly limit: number };
  /** No notifier is configured and none found would reach a person; nothing was claimed. */
  "notifiers.none_available": { readonly why: string };
  /** A `module` notifier could not be loaded or built. */
  "notifiers.module_failed": { readonly path: string; readonly problem: string };
  /** The optional SQLite binding the nanoclaw2 notifier needs is missing or does not load. */
  "notifiers.sqlite_unavailable": { readonly package: string };
  /** One delivery attempt failed and may be retried (internal to deliver(), never thrown out of it). */
  "notifiers.attempt_failed": NoData;
  /** A tile folder cannot be read at all. */
  "lint.tile_unreadable": { readonly path: string; readonly reason: string };
  /** The fallback rule file (`--rule FILE` or the shipped copy) cannot be read; `errno` is the file system's code. */
  "lint.rule_file_unreadable": { readonly path: string; readonly errno: string };
  /** A `--baseline FILE` is not a baseline this version wrote. */
  "lint.baseline_invalid": NoData;
  /** A runSkill() option is wrong; `option` names it. */
  "runner.options_invalid": { readonly option: string };
  /** A `--retry-on` list has an entry that is neither an exit code nor `timeout`. */
  "runner.retry_on_invalid": { readonly input: string; readonly problem: string };
  /** A `--heal` command line cannot be split into words without a shell. */
  "runner.shell_words_invalid": { readonly input: string; readonly problem: string };
  /** A duration or a backoff curve (`30s`, `exponential`, `1s,5s`) cannot be read. */
  "retry.duration_invalid": { readonly input: unknown; readonly problem: string };
  /** A log format other than json or pretty. */
  "log.format_invalid": { readonly input: string };
  /** A Claude Code settings file cannot be edited safely; nothing was written. */
  "hooks.settings_invalid": { readonly problem: string };
  /** The file system refused to write a Claude Code settings file; `errno` says why. */
  "hooks.settings_unwritable": { readonly path: string; readonly errno: string };
  /** A command was used wrongly: a bad flag value or combination, found after commander parsed the flags. */
  "cli.usage": NoData;
  /** An `emit --link TITLE=URL` whose URL a notice may not carry (bad data, not bad usage). */
  "cli.link_invalid": { readonly value: string; readonly problem: string };
  /** commander finished the invocation itself (help, version, or a parse error it already worded). */
  "cli.exit": { readonly exitCode: number };
}

export type SkipSummaryErrorCode = keyof SkipSummaryErrorData;

/** The codes of one part, e.g. `ErrorCodeOf<"lint">` = `"lint.tile_unreadable" | …`. */
export type ErrorCodeOf<Part extends string> = Extract<SkipSummaryErrorCode, `${Part}.${string}`>;
export type ContractErrorCode = ErrorCodeOf<"contract">;
export type OwnerErrorCode = ErrorCodeOf<"owner">;
export type SurfacerErrorCode = ErrorCodeOf<"surfacer">;
export type NotifiersErrorCode = ErrorCodeOf<"notifiers">;
export type LintErrorCode = ErrorCodeOf<"lint">;
export type RunnerErrorCode = ErrorCodeOf<"runner">;

// A brand rather than instanceof alone: the hot CLI entries and the library are separate bundles, each with its own
// copy of this class, and an error from one must still be recognised by the other.
const BRAND = Symbol.for("skip-summary.error");

type DataArgs<C extends SkipSummaryErrorCode> = NoData extends SkipSummaryErrorData[C]
  ? [data?: SkipSummaryErrorData[C], options?: ErrorOptions]
  : [data: SkipSummaryErrorData[C], options?: ErrorOptions];

export class SkipSummaryError<C extends SkipSummaryErrorCode = SkipSummaryErrorCode> extends Error {
  override readonly name = "SkipSummaryError";
  readonly code: C;
  readonly data: SkipSummaryErrorData[C];
  declare readonly [BRAND]: true;

  // `instanceof` by the brand too: the library's entry and its parts (dist/lib/parts.cjs) each bundle this class, and an
  // error a part throws must be an instance of the class a caller imported.
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isSkipSummaryError(value);
  }

  constructor(code: C, message: string, ...[data, options]: DataArgs<C>) {
    super(message, options);
    this.code = code;
    this.data = (data ?? {}) as SkipSummaryErrorData[C];
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** True for an error of ours; with `code` (one or several), only for those codes, with `data` typed to match. */
export function isSkipSummaryError<C extends SkipSummaryErrorCode = SkipSummaryErrorCode>(
  error: unknown,
  code?: C | readonly C[],
): error is SkipSummaryError<C> {
  if (typeof error !== "object" || error === null || (error as { [BRAND]?: unknown })[BRAND] !== true) return false;
  if (code === undefined) return true;
  const actual = (error as SkipSummaryError).code as C;
  return typeof code === "string" ? actual === code : code.includes(actual);
}
