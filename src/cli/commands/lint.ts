// `skip-summary lint`: the no-silent-defer check a tile's CI runs before it publishes. Exit codes follow ESLint.
import type { CommandDefinition } from "../action.js";
import { action } from "../action.js";
import { EXIT_CODES_DOC } from "../exit-codes.js";
import { usageError } from "../usage-error.js";
import { isSkipSummaryError } from "../../contract/errors.js";
import { isSystemError } from "../../fs/errors.js";
import type { LintSummary } from "../../lint/types.js";
import type { CliIo } from "../io.js";

interface LintFlags {
  rule?: string;
  format: string;
  maxWarnings?: string;
  config?: string;
  quiet?: boolean;
  explain?: string;
  all?: boolean;
  baseline?: string;
  writeBaseline?: string;
  pruneBaseline?: boolean;
  init?: boolean;
  cache?: boolean;
  cacheLocation?: string;
  concurrency?: string;
  help?: boolean;
}

const HELP_AFTER = `
Exit codes: 0 no errors (and no more warnings than --max-warnings), 1 findings,
2 a usage or config error, or a tile that cannot be read.

Examples:
  $ skip-summary lint .
  $ skip-summary lint --format sarif > skip-summary.sarif
  $ skip-summary lint --explain non-atomic-summary-write`;

/**
 * The grammars are 1.4 MB of WebAssembly. V8's optimising tier would recompile them in the background, and a process
 * cannot exit until that is done: 20 s on a busy 2-core machine for a lint of 0.3 s, and on the 1,000-skill bench tile
 * twice the wall time and 1.5 s more CPU (bench/lint.mjs). Its baseline compiler parses a tile fast enough.
 *
 * JavaScript too: V8 optimises a function once it has run through a budget of bytecode (the interrupt budget, 66 KB),
 * on its background threads. In a lint of a second or two most of that optimised code arrives too late to pay for its
 * compiling, and the parser workers compile the same functions again for their own isolates: on the bench tile it was
 * ~0.6 s of the run's ~2.3 s of CPU, on 2 cores. With four times the budget only the hottest functions are optimised
 * (docs/lint.md "Speed").
 *
 * A V8 flag is process-wide, so the CLI sets these in the process it owns (the parser workers are its threads); the
 * library never does, and a program that calls lintTiles() keeps its own V8. A flag given to node is left as it is.
 * The budget is set only when the command writes to the process's own stdout: a program that runs the command in its
 * own process (the tests' in-process CLI, test/helpers/in-process.ts) keeps its JavaScript tiering as it was.
 */
export const LINT_INTERRUPT_BUDGET = 4 * 67_584;

async function v8ForAShortRun(ownsProcess: boolean): Promise<void> {
  const { setFlagsFromString } = await import("node:v8");
  if (!process.execArgv.includes("--no-liftoff-only")) setFlagsFromString("--liftoff-only");
  if (ownsProcess && !process.execArgv.some((a) => /^--interrupt[-_]budget(=|$)/.test(a))) setFlagsFromString(`--interrupt-budget=${LINT_INTERRUPT_BUDGET}`);
}

/**
 * The other tiles' report is out when this runs: each tile that could not be linted is named on stderr, then the run
 * ends 2 (a folder that cannot be read: usage) or, for a bug met on a tile, with that error (main's last resort: 70).
 */
function throwTileFailures(summary: LintSummary, io: CliIo): void {
  const failures = summary.failures ?? [];
  if (failures.length === 0) return;
  const internal = failures.find((f) => f.kind === "internal");
  for (const f of failures) if (f !== (internal ?? failures.at(-1))) io.stderr.write(`skip-summary: ${f.kind === "unreadable" ? `cannot lint ${f.message}` : `internal error while linting ${f.tile}: ${f.message}`}\n`);
  if (internal) throw internal.error;
  throw usageError(`cannot lint ${failures.at(-1)!.message}`, { cause: failures.at(-1)!.error });
}

export const lintCommand: CommandDefinition = {
  name: "lint",
  summary: "check a tile's skills against the no-silent-defer rule before it publishes",
  register(command, context, done) {
    command
      .argument("[tile...]", "tile folders to lint (default: .)")
      .option("--rule <file>", "the rule file for tiles that have no rules/no-silent-defer.md (default: the copy shipped with skip-summary)")
      .option("--format <name>", "pretty, json, sarif or github", "pretty")
      .option("--max-warnings <n>", "exit 1 when there are more than N warnings (default: -1, never)")
      .option("--config <file>", "config file with a \"lint\" section (default: ./skip-summary.config.json)")
      .option("--quiet", "report errors only")
      .option("--explain <id>", "print a rule's or a silent-skip mechanism's rationale, tier and examples")
      .option("--all", "run every silent-skip mechanism, not only the default set (those at >= 80% measured precision)")
      .option("--baseline <file>", "report only findings that are not in this baseline (written by --write-baseline)")
      .option("--write-baseline <file>", "record today's findings in FILE and exit 0; later runs pass it to --baseline")
      .option("--prune-baseline", "with --baseline FILE: drop the entries that no longer match a finding from FILE")
      .option("--init", "write rules/no-silent-defer.md (the copy shipped with skip-summary) into each tile that has none, and exit 0")
      .option("--cache", "keep what the parsers found, by file content, so the next run parses only changed files")
      .option("--cache-location <file>", "the cache file (default: .skipsummary-lintcache.json; implies --cache)")
      .option("--concurrency <n>", 'parser worker threads: a number, "auto" (only for a tile with 1,000+ files to parse, on more than one core, not on a busy machine) or "off" (default: auto)')
      // The rule list comes from the rules' own meta, which is loaded only when help is asked for.
      .helpOption(false)
      .option("-h, --help", "print this help, with every rule")
      .action(
        action(context, "lint", done, async (tiles: string[], opts: LintFlags) => {
          const { io } = context;
          const lint = await import("../../lint/index.js");
          const metas = lint.RULES.map((r) => r.meta);
          if (opts.help) {
            io.stdout.write(`${command.helpInformation()}\nRules (id, default severity, what it reports):\n${lint.ruleList(metas)}\n${HELP_AFTER}\n\nEvery exit code: ${EXIT_CODES_DOC}.\n`);
            return 0;
          }
          if (opts.explain !== undefined) {
            const text = lint.explain(opts.explain.trim());
            if (text === undefined) {
              const near = lint.didYouMean(opts.explain);
              throw usageError(`--explain: unknown rule or mechanism ${JSON.stringify(opts.explain)}; ${near.length > 0 ? `did you mean ${near.join(" or ")}? ` : ""}the rules are: ${metas.map((m) => m.id).join(", ")}; the mechanisms of defer-without-summary are: ${lint.SKIP_MECHANISMS.join(", ")}`);
            }
            io.stdout.write(text);
            return 0;
          }
          if (opts.init) {
            const { initRuleFiles } = await import("./lint-init.js");
            return initRuleFiles(tiles.length === 0 ? ["."] : tiles, io);
          }
          if (opts.pruneBaseline && opts.baseline === undefined) throw usageError("--prune-baseline: give the baseline to prune with --baseline FILE");
          const format = opts.format as (typeof lint.FORMATS)[number];
          if (!lint.FORMATS.includes(format)) throw usageError(`--format: expected one of ${lint.FORMATS.join(", ")}, got ${JSON.stringify(opts.format)}`);
          let maxWarnings = -1;
          if (opts.maxWarnings !== undefined) {
            if (!/^-?\d+$/.test(opts.maxWarnings.trim())) throw usageError(`--max-warnings: expected an integer, got ${JSON.stringify(opts.maxWarnings)}`);
            maxWarnings = Number(opts.maxWarnings);
          }
          let concurrency: number | "auto" | "off" | undefined;
          if (opts.concurrency !== undefined) {
            const c = opts.concurrency.trim();
            if (c === "auto" || c === "off") concurrency = c;
            else if (/^\d+$/.test(c) && Number(c) >= 1 && Number(c) <= lint.MAX_WORKERS) concurrency = Number(c);
            else throw usageError(`--concurrency: expected a number of worker threads from 1 to ${lint.MAX_WORKERS}, "auto" or "off", got ${JSON.stringify(opts.concurrency)}`);
          }
          const { loadConfigFile } = await import("../../config/load.js");
          const { useColor } = await import("../io.js");
          const { VERSION } = await import("../version.js");
          let summary;
          let config: ReturnType<typeof lint.resolveLintConfig> | undefined;
          const { resolve: resolvePath } = await import("node:path");
          const cacheFile = opts.cacheLocation ?? (opts.cache ? lint.DEFAULT_CACHE_FILE : undefined);
          const cache = cacheFile === undefined ? undefined : lint.FactsCache.load(resolvePath(io.cwd, cacheFile));
          await v8ForAShortRun(io.stdout === process.stdout);
          const tileArgs = tiles.length === 0 ? ["."] : tiles;
          const { startProgress } = await import("./lint-progress.js");
          // Only for people: a machine-read format on a terminal is still read by a machine.
          const progress = format === "pretty" ? startProgress(io.stderr, tileArgs.length) : undefined;
          try {
            config = lint.resolveLintConfig(await loadConfigFile({ flag: opts.config, cwd: io.cwd }), lint.defaultSeverities());
            summary = await lint.lintTiles(tileArgs, {
              cwd: io.cwd,
              severities: config.severities,
              ignore: config.ignore,
              quiet: opts.quiet ?? false,
              ...(opts.rule === undefined ? {} : { ruleFile: opts.rule }),
              ...(config.rule === undefined ? {} : { configuredRuleFile: config.rule }),
              settings: {
                ...(config.intentionalSkips === undefined ? {} : { intentionalSkips: config.intentionalSkips }),
                ...(config.mechanisms === undefined ? {} : { mechanisms: config.mechanisms }),
                ...(opts.all === true ? { allMechanisms: true } : {}),
              },
              ...(cache ? { cache } : {}),
              ...((concurrency ?? config.concurrency) === undefined ? {} : { concurrency: (concurrency ?? config.concurrency)! }),
              ...(progress ? { onTile: (index: number, dir: string) => progress.tile(index, dir) } : {}),
            });
            progress?.done();
          } catch (error) {
            progress?.done();
            // Each is a usage error (2) in lint's words; the part's error stays as the cause.
            const cause = { cause: error };
            if (isSkipSummaryError(error, "config.invalid")) throw usageError(`config error in ${error.message}`, cause);
            if (isSkipSummaryError(error, "lint.tile_unreadable")) throw usageError(`cannot lint ${error.message}`, cause);
            if (isSkipSummaryError(error, "lint.rule_file_unreadable")) {
              if (opts.rule !== undefined) throw usageError(`--rule ${error.message}; pass a readable Markdown file with a "## Forbidden patterns" section`, cause);
              if (config?.rule !== undefined) throw usageError(`lint.rule in the config: ${error.message}; point it at a readable Markdown file with a "## Forbidden patterns" section`, cause);
              throw usageError(`the copy of rules/no-silent-defer.md shipped with skip-summary cannot be read (${error.message}); reinstall skip-summary or pass --rule FILE`, cause);
            }
            throw error;
          }
          // A cache that cannot be written costs the next run its speed, not its findings: a warning, not a failure.
          const saved = cache?.save();
          if (saved && !saved.ok) io.stderr.write(`skip-summary: warning: the lint cache ${cacheFile} cannot be written (${saved.errno}); the next run parses every file again\n`);
          if (opts.writeBaseline !== undefined) {
            // A baseline without a tile that could not be read would pass that tile's findings as new ones later.
            throwTileFailures(summary, io);
            const { writeFile } = await import("node:fs/promises");
            const { resolve } = await import("node:path");
            const baseline = lint.createBaseline(summary);
            try {
              await writeFile(resolve(io.cwd, opts.writeBaseline), lint.formatBaseline(baseline));
            } catch (error) {
              if (!isSystemError(error)) throw error;
              throw usageError(`--write-baseline ${opts.writeBaseline}: cannot be written (${error.code})`, { cause: error });
            }
            io.stderr.write(`skip-summary: wrote ${baseline.findings.length} finding(s) to ${opts.writeBaseline}; pass it to --baseline so CI fails only on new ones\n`);
            return 0;
          }
          if (opts.baseline !== undefined) {
            const { applyBaselineFile } = await import("./lint-baseline.js");
            summary = await applyBaselineFile(summary, opts.baseline, opts.pruneBaseline ?? false, io);
          }
          io.stdout.write(lint.FORMATTERS[format](summary, { rules: metas, version: VERSION, color: format === "pretty" && useColor(io.stdout, io.env) }));
          throwTileFailures(summary, io);
          return lint.lintExitCode(summary, { maxWarnings });
        }),
      );
  },
};
