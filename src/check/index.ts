// `skip-summary check`: the whole set-up in one pass, for a person before the night it matters and for CI. The
// config (every section, every route's notifiers, their secrets), each notifier's reachability through its probe,
// each workspace, and the Claude Code hook wiring. Nothing is claimed, sent or written (but a probe folder, removed).
import { join } from "node:path";
import { isSkipSummaryError } from "../contract/errors.js";
import { loadConfigFile, type LoadedConfig } from "../config/load.js";
import type { Notifier } from "../notifiers/types.js";
import { DEFAULT_SETTINGS, longestSendMs } from "../surfacer/settings.js";
import { checkHooks } from "./hook-checks.js";
import { worstOf, type CheckLine, type CheckReport } from "./types.js";
import { checkWorkspaces } from "./workspace-checks.js";

export type { CheckLine, CheckReport, CheckStatus } from "./types.js";

export interface CheckOptions {
  readonly configFile?: string | undefined;
  /** `--notify` names, checked as `surface` would take them. */
  readonly notify?: readonly string[] | undefined;
  /** `--workspace` folders or globs; else the config's surface.workspaces, else `defaultWorkspace()`. */
  readonly workspaces?: readonly string[] | undefined;
  /** The workspace `surface` would use when nothing names one; `undefined` when there is none. */
  readonly defaultWorkspace: () => string | undefined;
  /** `--settings` files; else each workspace's `.claude/settings.json`. */
  readonly settings?: readonly string[] | undefined;
  /** Skip the notifiers' probes (no network). */
  readonly offline?: boolean | undefined;
  /** The longest a probe may take. @default 10000 */
  readonly probeTimeoutMs?: number | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly stdoutIsTerminal: boolean;
}

export async function checkSetup(options: CheckOptions): Promise<CheckReport> {
  const lines: CheckLine[] = [];
  const done = () => ({ lines, worst: worstOf(lines) });
  let config: LoadedConfig;
  try {
    config = await loadConfigFile({ flag: options.configFile, cwd: options.cwd });
  } catch (error) {
    if (!isSkipSummaryError(error, "config.invalid")) throw error;
    lines.push(...error.data.problems.map((p) => ({ area: "config" as const, subject: error.data.path, status: "invalid" as const, detail: `${p.path}: ${p.message}` })));
    return done();
  }
  const configName = config.path ?? "(no config file: every default)";
  lines.push({ area: "config", subject: configName, status: "ok", detail: config.path ? `read; sections: ${Object.keys(config.data).join(", ") || "none"}` : "none found in the working folder; --config FILE names one" });

  const sections = await checkSections(config, configName);
  lines.push(...sections.lines);
  const loaded = await loadForCheck(config, configName, options);
  lines.push(...loaded.lines);

  if (loaded.notifiers.length > 0) {
    if (options.offline) lines.push(...loaded.notifiers.map((n) => ({ area: "notifier" as const, subject: n.name, status: "ok" as const, detail: "loaded (--offline: not probed)" })));
    else lines.push(...(await Promise.all(loaded.notifiers.map((n) => probe(n, options.probeTimeoutMs ?? 10_000)))));
  }

  const workspaces = options.workspaces ?? (sections.workspaces.length > 0 ? sections.workspaces : [options.defaultWorkspace()].filter((w): w is string => w !== undefined));
  if (workspaces.length === 0) lines.push({ area: "workspace", subject: "(none)", status: "fail", detail: "no workspace: pass --workspace DIR, set surface.workspaces or SKIP_SUMMARY_WORKSPACE" });
  const workspaceLines = await checkWorkspaces(workspaces, options.cwd);
  lines.push(...workspaceLines);

  const folders = workspaceLines.filter((l) => l.status !== "fail" || !l.detail.startsWith("the glob")).map((l) => l.subject);
  const settingsFiles = options.settings ?? folders.map((w) => join(w, ".claude", "settings.json"));
  lines.push(...(await checkHooks({ files: settingsFiles, named: options.settings !== undefined, budget: { ...loaded.budget, hookMs: sections.hookBudgetMs }, env: options.env })));
  return done();
}

// Each section the way its part reads it: surface's and lint's schemas (notify's comes with the notifiers).
async function checkSections(config: LoadedConfig, configName: string): Promise<{ lines: CheckLine[]; workspaces: readonly string[]; hookBudgetMs: number }> {
  const lines: CheckLine[] = [];
  let workspaces: readonly string[] = [];
  let hookBudgetMs = DEFAULT_SETTINGS.hookBudgetMs;
  const invalid = (error: unknown) => {
    if (!isSkipSummaryError(error, "config.invalid")) throw error;
    lines.push(...error.data.problems.map((p) => ({ area: "config" as const, subject: configName, status: "invalid" as const, detail: `${p.path}: ${p.message}` })));
  };
  if (config.data.surface !== undefined) {
    try {
      const settings = (await import("../surfacer/config.js")).parseSurfaceSection(config);
      workspaces = settings.workspaces;
      hookBudgetMs = settings.hookBudgetMs;
      lines.push({ area: "config", subject: "surface", status: "ok", detail: "the section is valid" });
    } catch (error) {
      invalid(error);
    }
  }
  if (config.data.lint !== undefined) {
    try {
      const lint = await import("../lint/index.js");
      lint.resolveLintConfig(config, lint.defaultSeverities());
      lines.push({ area: "config", subject: "lint", status: "ok", detail: "the section is valid" });
    } catch (error) {
      invalid(error);
    }
  }
  return { lines, workspaces, hookBudgetMs };
}

async function loadForCheck(config: LoadedConfig, configName: string, options: CheckOptions) {
  const lines: CheckLine[] = [];
  const { loadNotifiers, DEFAULT_DELIVERY } = await import("../notifiers/index.js");
  let budget = { attemptMs: DEFAULT_DELIVERY.timeoutMs, totalMs: longestSendMs(DEFAULT_DELIVERY) };
  try {
    const l = await loadNotifiers({ config, env: options.env, cwd: options.cwd, names: options.notify, stdout: { write: () => undefined }, stdoutIsTerminal: options.stdoutIsTerminal });
    budget = { attemptMs: l.delivery.timeoutMs, totalMs: longestSendMs(l.delivery) };
    for (const route of ["policy", "technical"] as const) {
      lines.push({ area: "route", subject: route, status: "ok", detail: `sends through ${l.routes[route].join(", ")}` });
    }
    return { lines, notifiers: l.notifiers, budget };
  } catch (error) {
    if (isSkipSummaryError(error, "config.invalid")) {
      lines.push(...error.data.problems.map((p) => ({ area: p.path.startsWith("notify.routes") || p.path === "--notify" ? ("route" as const) : ("notifier" as const), subject: p.path, status: "invalid" as const, detail: p.message })));
    } else if (isSkipSummaryError(error, "notifiers.none_available")) {
      lines.push({ area: "route", subject: "(default)", status: "fail", detail: `no notifier would reach a person: ${error.data.why}` });
    } else throw error;
    return { lines, notifiers: [] as Notifier[], budget };
  }
}

async function probe(notifier: Notifier, timeoutMs: number): Promise<CheckLine> {
  if (!notifier.probe) return { area: "notifier", subject: notifier.name, status: "ok", detail: "loaded (it has no way to check without sending)" };
  const signal = AbortSignal.timeout(timeoutMs);
  const r = await notifier.probe(signal);
  return { area: "notifier", subject: notifier.name, status: r.status, detail: r.detail };
}
