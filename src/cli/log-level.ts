// The CLI's log level: `--log-level`, else SKIP_SUMMARY_LOG_LEVEL, else info, so an idle watcher says nothing after
// it starts (its rescans are debug lines). A value that is not a level is a usage error naming where it came from.
import { LOG_LEVELS, type LogLevel } from "../log/logger.js";
import { usageError } from "./usage-error.js";

export const LOG_LEVEL_ENV = "SKIP_SUMMARY_LOG_LEVEL";

export function resolveLogLevel(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): LogLevel {
  const fromEnv = env[LOG_LEVEL_ENV];
  const [value, where] = flag !== undefined ? [flag, "--log-level"] : fromEnv !== undefined && fromEnv !== "" ? [fromEnv, LOG_LEVEL_ENV] : ["info", ""];
  if ((LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw usageError(`${where} must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(value)}`);
}
