// Which files are tests, fixtures and scripts, by path alone: one list, documented in docs/lint.md.
import { SUMMARY_FILE_PREFIX, SUMMARY_FILE_SUFFIX } from "../../contract/paths.js";

export type Language = "shell" | "bats" | "python" | "js" | "markdown" | "json" | "other" | "shell-or-other";

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

export function languageOf(path: string): Language {
  const name = baseName(path);
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return path.includes("scripts/") || path.includes("bin/") ? "shell-or-other" : "other";
  switch (name.slice(dot + 1).toLowerCase()) {
    case "sh":
    case "bash":
    case "zsh":
      return "shell";
    case "bats":
      return "bats";
    case "py":
      return "python";
    case "js":
    case "mjs":
    case "cjs":
    case "jsx":
    case "ts":
    case "mts":
    case "cts":
    case "tsx":
      return "js";
    case "md":
      return "markdown";
    case "json":
      return "json";
    default:
      return "other";
  }
}

export function isCode(language: Language): boolean {
  return language === "shell" || language === "bats" || language === "python" || language === "js";
}

/** `.skip-summary-<anything>.json`: every file the stale check and the fixture check look at. */
export function isSummaryLikeName(path: string): boolean {
  const name = baseName(path);
  return name.startsWith(SUMMARY_FILE_PREFIX) && name.endsWith(SUMMARY_FILE_SUFFIX);
}

/**
 * A scheduler's own configuration: a crontab, a systemd timer or service, a launchd plist, a CI workflow, a jobs or
 * schedule file.
 * Read so the lint can tell which skills run with nobody watching (a schedule that names them).
 */
export function isScheduleConfig(path: string): boolean {
  const name = baseName(path);
  return /\.(timer|service|plist|cron)$|^crontab$/i.test(name) || /(^|[._-])(cron|crontab|crontabs|schedules?|scheduler|jobs|launchd|timers?)([._-]|$)/i.test(name.replace(/\.(json|ya?ml|toml|txt|conf)$/i, "")) || /(^|\/)\.github\/workflows\/[^/]+\.ya?ml$/.test(path);
}

const TEST_DIR = /(^|\/)(tests?|__tests__)\//;
const FIXTURE_DIR = /(^|\/)(tests?|__tests__|fixtures|__fixtures__|testdata|test-data)\//;
const TEST_NAME = /^(test_.*\.py|.*_test\.py|.*\.test\.[^.]+|.*\.spec\.[^.]+|test-.*\.sh|.*\.bats)$/;

/** A test file: code inside `test/` or `tests/`, or a file named like a test. */
export function isTestFile(path: string, language: Language): boolean {
  return isCode(language) && (TEST_DIR.test(path) || TEST_NAME.test(baseName(path)));
}

/** Inside a test or fixture folder: summary files there are fixtures, not stale files. */
export function isInFixtureArea(path: string): boolean {
  return FIXTURE_DIR.test(path);
}

/** A fixture the tests mean to be invalid says so in its name or a folder name. */
export function isMarkedInvalid(path: string): boolean {
  return /(^|[/._-])(invalid|bad|broken|malformed|corrupt|wrong)([/._-]|$)/i.test(path);
}
