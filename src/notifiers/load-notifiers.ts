// From the config's `notify` section, the environment and `--notify` to the notifiers a surfacer uses and the
// routes between them. Everything is checked here, before any skip is claimed, so a bad setting is a config error
// (exit 2) rather than a summary left behind on every run.
import { dirname } from "node:path";
import * as z from "zod/mini";
import type { Problem } from "../contract/problems.js";
import { configError, configProblems, type LoadedConfig } from "../config/load.js";
import { DEFAULT_DELIVERY_BACKOFF } from "./backoff.js";
import { buildNotifier } from "./build-notifier.js";
import { NOTIFY_SECTION, NotifySection, type NotifierEntry } from "./config-schema.js";
import { chooseDefaultNotifier, noNotifier } from "./default-notifier.js";
import type { Env } from "./env-names.js";
import { withRedaction } from "./redacting-notifier.js";
import { createSecretMasker } from "../secrets/mask.js";
import { configuredSecrets } from "./configured-secrets.js";
import type { TextSink } from "./stdout-notifier.js";
import type { Notifier, Refresher } from "./types.js";

import { ENV_ONLY_NOTIFIERS } from "./names.js";

export { ENV_ONLY_NOTIFIERS };

export interface LoadNotifiersOptions {
  readonly config: LoadedConfig;
  readonly env: Env;
  readonly cwd: string;
  /** `--notify` values (repeatable, comma-separated allowed); they replace both routes. */
  readonly names?: readonly string[] | undefined;
  readonly stdout: TextSink;
  /** Whether `stdout` is a terminal; without a configured notifier, printing counts as delivery only then. @default false */
  readonly stdoutIsTerminal?: boolean | undefined;
  /** Running as a Claude Code hook, whose stdout reaches no person. @default false */
  readonly hook?: boolean | undefined;
  /** @default () => new Date() */
  readonly now?: () => Date;
  /** Watch mode: notifiers whose receivers forget what they took (alertmanager) re-post it; see {@link LoadedNotifiers.refreshers}. */
  readonly repost?: boolean | undefined;
}

export interface DeliverySettings {
  readonly retries: number;
  readonly timeoutMs: number;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
}

export interface LoadedNotifiers {
  readonly notifiers: Notifier[];
  readonly routes: { policy: string[]; technical: string[] };
  /** Retry and timeout settings from the `notify` section, with defaults, for {@link deliver}. */
  readonly delivery: DeliverySettings;
  /** What watch mode runs on an interval (only with `repost: true`). */
  readonly refreshers: Refresher[];
}

export const DEFAULT_DELIVERY: DeliverySettings = {
  retries: 4,
  timeoutMs: 10_000,
  minDelayMs: DEFAULT_DELIVERY_BACKOFF.minDelayMs,
  maxDelayMs: DEFAULT_DELIVERY_BACKOFF.maxDelayMs,
};

/** The `notify` section's retry and timeout settings, with defaults, without building a notifier (`hooks install` fits them to the hook's budget). */
export function deliverySettings(config: LoadNotifiersOptions["config"]): DeliverySettings {
  const parsed = z.safeParse(NotifySection, config.data[NOTIFY_SECTION] ?? {});
  if (!parsed.success) throw configProblems(config.path ?? "(no config file)", NOTIFY_SECTION, parsed.error.issues);
  const section = parsed.data;
  return {
    retries: section.retries ?? DEFAULT_DELIVERY.retries,
    timeoutMs: section.timeout_ms ?? DEFAULT_DELIVERY.timeoutMs,
    minDelayMs: section.min_delay_ms ?? DEFAULT_DELIVERY.minDelayMs,
    maxDelayMs: section.max_delay_ms ?? DEFAULT_DELIVERY.maxDelayMs,
  };
}

export async function loadNotifiers(options: LoadNotifiersOptions): Promise<LoadedNotifiers> {
  const configPath = options.config.path ?? "(no config file)";
  const parsed = z.safeParse(NotifySection, options.config.data[NOTIFY_SECTION] ?? {});
  if (!parsed.success) throw configProblems(configPath, NOTIFY_SECTION, parsed.error.issues);
  const section = parsed.data;
  const configured = Object.keys(section.notifiers ?? {});
  const problems: Problem[] = [];

  let routes: { policy: string[]; technical: string[] };
  const flagNames = (options.names ?? []).flatMap((n) => n.split(",")).map((n) => n.trim()).filter(Boolean);
  // `--notify ""` (an unset shell variable) must not quietly fall back to the configured routes.
  if ((options.names ?? []).length > 0 && flagNames.length === 0) {
    problems.push({ path: "--notify", message: "names no notifier: give one or more names, for example --notify stdout or --notify telegram,webhook" });
  }
  if (flagNames.length > 0) {
    const unique = [...new Set(flagNames)];
    routes = { policy: unique, technical: unique };
  } else {
    const needsDefault = configured.length === 0 && (section.routes?.policy === undefined || section.routes?.technical === undefined);
    const fallback = needsDefault ? [await defaultNotifier(options)] : configured;
    routes = { policy: [...new Set(section.routes?.policy ?? fallback)], technical: [...new Set(section.routes?.technical ?? fallback)] };
  }

  const entries = new Map<string, NotifierEntry>();
  for (const route of ["policy", "technical"] as const) {
    routes[route].forEach((name, i) => {
      if (entries.has(name)) return;
      const entry = section.notifiers?.[name] ?? (isEnvOnly(name) ? ({ type: name } as NotifierEntry) : undefined);
      if (entry !== undefined) return void entries.set(name, entry);
      const at = flagNames.length > 0 ? "--notify" : `${NOTIFY_SECTION}.routes.${route}[${i}]`;
      const known = [...new Set([...configured, ...ENV_ONLY_NOTIFIERS])].join(", ");
      if (!problems.some((p) => p.path === at)) {
        problems.push({ path: at, message: `names ${JSON.stringify(name)}, which is not a notifier: define it under notify.notifiers, or use one of ${known}` });
      }
    });
  }

  const baseDir = options.config.path !== undefined ? dirname(options.config.path) : options.cwd;
  const notifiers: Notifier[] = [];
  const refreshers: Refresher[] = [];
  const secrets: string[] = [];
  for (const [name, entry] of entries) {
    const built = await buildNotifier(name, entry, {
      env: options.env,
      baseDir,
      cwd: options.cwd,
      stdout: options.stdout,
      stdoutIsTerminal: options.stdoutIsTerminal,
      now: options.now,
      at: `${NOTIFY_SECTION}.notifiers.${name}`,
      repost: options.repost,
      timeoutMs: section.timeout_ms ?? DEFAULT_DELIVERY.timeoutMs,
    });
    if ("problems" in built) problems.push(...built.problems);
    else {
      notifiers.push(built.notifier);
      if (built.refresher) refreshers.push(built.refresher);
      secrets.push(...built.secrets);
    }
  }
  // Every configured secret and every *_TOKEN / *_SECRET variable, loaded or not, plus secret-shaped strings.
  const redact = createSecretMasker(options.env, [...secrets, ...configuredSecrets(section, options.env)]);
  if (problems.length > 0) throw configError(configPath, problems.map((p) => ({ path: p.path, message: redact(p.message) })));

  return {
    notifiers: notifiers.map((n) => withRedaction(n, redact)),
    refreshers: refreshers.map((r) => ({
      ...r,
      refresh: async (workspaces, signal) => {
        const report = await r.refresh(workspaces, signal);
        return { ...report, problems: report.problems.map(redact) };
      },
    })),
    routes,
    delivery: {
      retries: section.retries ?? DEFAULT_DELIVERY.retries,
      timeoutMs: section.timeout_ms ?? DEFAULT_DELIVERY.timeoutMs,
      minDelayMs: section.min_delay_ms ?? DEFAULT_DELIVERY.minDelayMs,
      maxDelayMs: section.max_delay_ms ?? DEFAULT_DELIVERY.maxDelayMs,
    },
  };
}

// Nothing configured: the host that really exists here, or a terminal; else nobody, and nothing may be claimed.
async function defaultNotifier(options: LoadNotifiersOptions): Promise<string> {
  const choice = await chooseDefaultNotifier({ env: options.env, cwd: options.cwd, stdoutIsTerminal: options.stdoutIsTerminal ?? false, hook: options.hook ?? false });
  if (choice.kind === "none") throw noNotifier(choice.why);
  return choice.name;
}

function isEnvOnly(name: string): name is (typeof ENV_ONLY_NOTIFIERS)[number] {
  return (ENV_ONLY_NOTIFIERS as readonly string[]).includes(name);
}
