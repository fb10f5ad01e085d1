// The exit-code contract for skills (docs/exit-codes.md) as one pure function, so the runner, plans and tests agree.
import { EX_TEMPFAIL, EXIT_NOT_EXECUTABLE, EXIT_NOT_FOUND, isPermanentSysexit, sysexitName } from "../contract/exit-codes.js";
import { signalNumber } from "../process/kill-group.js";

export type RunOutcome = "done" | "blocked" | "tempfail" | "error" | "signal" | "timeout" | "not-found" | "not-executable";

export interface ExitFacts {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly spawnError?: string | undefined;
  /** Only used to word the timeout status line. */
  readonly timeoutMs?: number | undefined;
}

export interface ExitInterpretation {
  readonly outcome: RunOutcome;
  /** What the runner exits with: the skill's code, 128+N for a signal, 126/127, 75 for a timeout. */
  readonly exitCode: number;
  /** The line under the header, without indentation; absent for `done`. */
  readonly statusLine?: string;
  /** A transient failure that a retry would likely fix (75 and timeouts): the summary's `technical_failure`. */
  readonly technical: boolean;
  /** The sysexits name when the code is one of 64–78. */
  readonly sysexit?: string;
}

export function interpretExit(facts: ExitFacts): ExitInterpretation {
  if (facts.spawnError !== undefined) {
    return facts.spawnError === "ENOENT" || facts.spawnError === "ENOTDIR"
      ? { outcome: "not-found", exitCode: EXIT_NOT_FOUND, statusLine: "└─ 💥 command not found", technical: false }
      : { outcome: "not-executable", exitCode: EXIT_NOT_EXECUTABLE, statusLine: "└─ 💥 command cannot be executed", technical: false };
  }
  if (facts.timedOut) {
    const after = facts.timeoutMs !== undefined ? ` after ${formatDelay(facts.timeoutMs)}` : "";
    return { outcome: "timeout", exitCode: EX_TEMPFAIL, statusLine: `└─ ⏱️ timed out${after}`, technical: true, sysexit: "EX_TEMPFAIL" };
  }
  if (facts.signal !== null) {
    return { outcome: "signal", exitCode: 128 + signalNumber(facts.signal), statusLine: `└─ 💥 killed by ${facts.signal}`, technical: false };
  }
  const code = facts.exitCode ?? 1;
  const sysexit = sysexitName(code);
  const named = sysexit ? { sysexit } : {};
  if (code === 0) return { outcome: "done", exitCode: 0, technical: false };
  if (code === 2) return { outcome: "blocked", exitCode: 2, statusLine: "└─ ✋ blocked by constraints", technical: false };
  if (code === EX_TEMPFAIL) return { outcome: "tempfail", exitCode: 75, statusLine: "└─ 🔁 temporary failure", technical: true, ...named };
  return { outcome: "error", exitCode: code, statusLine: "└─ 💥 failed with an error", technical: false, ...named };
}

/** Outcomes that leave a skip summary behind: the skill stopped without doing its work. */
export function leavesSummary(outcome: RunOutcome): boolean {
  return outcome === "blocked" || outcome === "tempfail" || outcome === "timeout";
}

/** Codes a retry may never be asked for: 2 (a policy block) and every sysexits code except 75. */
export function isNeverRetried(code: number): boolean {
  return code === 0 || code === 2 || isPermanentSysexit(code);
}

/** 250ms, 4s, 1.5s, 2m, 1m30s: how a delay reads in a status line. */
export function formatDelay(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) {
    const s = Math.round(ms / 100) / 10;
    return `${Number.isInteger(s) ? s : s.toFixed(1)}s`;
  }
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1_000);
  return s === 0 ? `${m}m` : `${m}m${s}s`;
}
