// Every outcome (sent, left, retried, failed, a run's end) is one structured line on stderr, so errors stay on
// record even when they were handled. Parts emit entries; this module is the only place that formats them.
import { SkipSummaryError } from "../contract/errors.js";

export type LogFormat = "json" | "pretty";
export type LogLevel = "debug" | "info" | "warn" | "error";

export interface LogEntry {
  readonly level: LogLevel;
  /** A stable machine name: `sent`, `quarantined`, `run_finished`, ... */
  readonly event: string;
  readonly [field: string]: unknown;
}

export type Logger = (entry: LogEntry) => void;

export interface LoggerOptions {
  readonly format: LogFormat;
  readonly write: (line: string) => void;
  /** @default () => new Date() */
  readonly now?: () => Date;
  /** Entries below this level are dropped: `debug` shows every rescan. @default "debug" (the CLI passes "info") */
  readonly level?: LogLevel;
}

export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error"];

export function createLogger(options: LoggerOptions): Logger {
  const now = options.now ?? (() => new Date());
  const min = LOG_LEVELS.indexOf(options.level ?? "debug");
  return (entry) => {
    if (LOG_LEVELS.indexOf(entry.level) < min) return;
    const time = now().toISOString();
    options.write(options.format === "json" ? `${JSON.stringify({ time, ...entry })}\n` : formatPretty(time, entry));
  };
}

/** A logger that drops everything, for library callers that did not ask for logs. */
export const silentLogger: Logger = () => undefined;

function formatPretty(time: string, entry: LogEntry): string {
  const { level, event, ...fields } = entry;
  const parts = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === "string" && !/[\s"=]/.test(v) ? v : JSON.stringify(v)}`);
  return `${time} ${level.padEnd(5)} ${event}${parts.length ? ` ${parts.join(" ")}` : ""}\n`;
}

export function parseLogFormat(value: string): LogFormat {
  if (value === "json" || value === "pretty") return value;
  throw new SkipSummaryError("log.format_invalid", `--log-format must be json or pretty, got ${JSON.stringify(value)}`, { input: value });
}
