// Every line the runner shows around a skill, built in one place from data, so the CLI, plans and tests agree.
// The skill speaks for itself: the runner adds a header and one status line, never JSON or stack traces.
import { formatDelay, type RunOutcome } from "./exit-contract.js";

export interface RenderStyle {
  /** ANSI colour; decide it with `useColor(stream, env)` (TTY only, never with NO_COLOR). */
  readonly color: boolean;
}

const INDENT = "   ";
const ESC = "\u001b[";
const paint = (style: RenderStyle, code: string, text: string) => (style.color ? `${ESC}${code}m${text}${ESC}0m` : text);

const OUTCOME_COLOUR: Readonly<Record<RunOutcome, string>> = {
  done: "32",
  blocked: "33",
  tempfail: "36",
  timeout: "36",
  error: "31",
  signal: "31",
  "not-found": "31",
  "not-executable": "31",
};

/** `🪨 run skill <id>`: printed once, when a run starts; the closing block continues under it. */
export function renderHeader(skill: string, style: RenderStyle): string {
  return `${paint(style, "1", `🪨 run skill ${skill}`)}\n`;
}

export function renderStatusLine(statusLine: string, outcome: RunOutcome, style: RenderStyle): string {
  return `${INDENT}${paint(style, OUTCOME_COLOUR[outcome], statusLine)}\n`;
}

export interface RetryNotice {
  /** 1 for the first retry. */
  readonly retry: number;
  readonly retries: number;
  readonly delayMs: number;
}

/** `   └─ 🔁 retry 2/3 in 4s` */
export function renderRetry(notice: RetryNotice, style: RenderStyle): string {
  return `${INDENT}${paint(style, "2", `└─ 🔁 retry ${notice.retry}/${notice.retries} in ${formatDelay(notice.delayMs)}`)}\n`;
}

/** `   └─ 🩹 heal ./login.sh --refresh`, shown before the heal command runs. */
export function renderHeal(argv: readonly string[], style: RenderStyle): string {
  return `${INDENT}${paint(style, "2", `└─ 🩹 heal ${argv.join(" ")}`)}\n`;
}

/** `   └─ 💥 heal failed: <why>; not retrying` */
export function renderHealFailure(why: string, style: RenderStyle): string {
  return `${INDENT}${paint(style, "31", `└─ 💥 heal failed: ${why}; not retrying`)}\n`;
}

export interface ClosingBlock {
  readonly skill: string;
  readonly outcome: RunOutcome;
  readonly statusLine?: string | undefined;
  /** The skill's stderr; left out when it was already streamed (`--live-stderr`). */
  readonly stderr?: string | undefined;
  /** Earlier bytes of stderr that were not kept. */
  readonly stderrDroppedBytes?: number | undefined;
  /** Problems of the runner itself worth a line (a summary it could not write), shown under the status line. */
  readonly warnings?: readonly string[] | undefined;
}

/**
 * The block that closes a run, to be written to stderr as one piece under the header printed at the start: the
 * status line, a blank line, the skill's stderr (the graceful-errors layout). Empty for a clean success.
 */
export function renderClosingBlock(block: ClosingBlock, style: RenderStyle): string {
  const stderr = block.stderr ?? "";
  const hasStderr = stderr.trim() !== "";
  const warnings = block.warnings ?? [];
  if (block.statusLine === undefined && !hasStderr && warnings.length === 0) return "";
  let out = "";
  if (block.statusLine !== undefined) out += renderStatusLine(block.statusLine, block.outcome, style);
  for (const warning of warnings) out += `${INDENT}${paint(style, "31", `└─ ⚠️ ${warning}`)}\n`;
  if (hasStderr) {
    out += "\n";
    if (block.stderrDroppedBytes) out += `${paint(style, "2", `[… ${formatBytes(block.stderrDroppedBytes)} of earlier stderr not kept]`)}\n`;
    out += stderr.endsWith("\n") ? stderr : `${stderr}\n`;
  }
  return out;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
