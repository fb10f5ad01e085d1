// The Claude Code hook wiring `hooks install` leaves: a settings file whose Stop/SubagentStop/PostToolUse hooks run
// `surface --hook-input`, with a timeout that leaves its delivery deadline time to end. Under --hook-input every
// delivery ends within surface.hook_budget_ms and what does not fit is put back; Claude Code kills a hook at its
// timeout (600 s when none is set), so a timeout shorter than that deadline kills the hook mid-send, and a deadline
// shorter than one attempt (notify.timeout_ms) cuts every slow send short.
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { readFileAtMost } from "../fs/read-bounded.js";
import { describeFsError } from "../fs/errors.js";
import type { CheckLine } from "./types.js";

/** Claude Code's default when a hook sets no `timeout`, in seconds. */
export const CLAUDE_HOOK_DEFAULT_TIMEOUT_S = 600;
/** Node's start-up and the config's reading, before the first attempt begins. */
const START_MARGIN_MS = 2_000;
const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

export interface DeliveryBudget {
  /** One attempt's deadline (notify.timeout_ms). */
  readonly attemptMs: number;
  /** Every attempt and every wait between them (notify.timeout_ms × (retries + 1) + max_delay_ms × retries). */
  readonly totalMs: number;
  /** The hook's own delivery deadline (surface.hook_budget_ms). */
  readonly hookMs: number;
}

export interface HookCheckOptions {
  /** Settings files to read: `--settings`, else each workspace's `.claude/settings.json`. */
  readonly files: readonly string[];
  /** Whether the files were named by the user (missing is then a failure, not a note). */
  readonly named: boolean;
  readonly budget: DeliveryBudget;
  readonly env: Readonly<Record<string, string | undefined>>;
}

interface HookEntry {
  readonly event: string;
  readonly command: string;
  readonly timeoutS: number | undefined;
}

export async function checkHooks(options: HookCheckOptions): Promise<CheckLine[]> {
  const lines: CheckLine[] = [];
  for (const file of options.files) {
    const line = (status: CheckLine["status"], detail: string) => lines.push({ area: "hook", subject: file, status, detail });
    let data: unknown;
    try {
      data = JSON.parse((await readFileAtMost(file, MAX_SETTINGS_BYTES)).toString("utf8"));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") {
        if (options.named) line("fail", "does not exist: run skip-summary hooks install --settings FILE");
        else line("warn", "no Claude Code settings here, so no hook surfaces this workspace (fine when a watcher or cron does; else run skip-summary hooks install)");
      } else line("fail", error instanceof SyntaxError ? `is not valid JSON (${error.message})` : `cannot be read (${describeFsError(error)})`);
      continue;
    }
    const entries = surfacerHooks(data);
    if (entries.length === 0) {
      line(options.named ? "fail" : "warn", "has no hook that runs `surface --hook-input`: run skip-summary hooks install");
      continue;
    }
    for (const e of entries) {
      const timeoutS = e.timeoutS ?? CLAUDE_HOOK_DEFAULT_TIMEOUT_S;
      const ms = timeoutS * 1000;
      const set = e.timeoutS === undefined ? `no timeout set (Claude Code's default, ${CLAUDE_HOOK_DEFAULT_TIMEOUT_S} s)` : `timeout ${timeoutS} s`;
      const program = await programProblem(e.command, options.env);
      const { attemptMs, hookMs, totalMs } = options.budget;
      if (ms < hookMs + START_MARGIN_MS) {
        line("fail", `${e.event}: ${set} is shorter than the hook's delivery deadline (surface.hook_budget_ms ${hookMs} ms + ${START_MARGIN_MS / 1000} s to start): Claude Code kills the hook mid-send; raise the hook's timeout to at least ${Math.ceil((hookMs + START_MARGIN_MS) / 1000)} s (hooks install writes the budget + 5 s), or lower hook_budget_ms`);
      } else if (hookMs < attemptMs) {
        line("warn", `${e.event}: surface.hook_budget_ms ${hookMs} ms is shorter than one delivery attempt (notify.timeout_ms ${attemptMs} ms): a slow receiver is cut short in the hook every time and its summary waits for a watcher or the next turn`);
      } else if (program !== undefined) {
        line("warn", `${e.event}: ${program}`);
      } else {
        const retries = hookMs < totalMs ? `; retries past it (a delivery with every retry takes up to ${Math.ceil(totalMs / 1000)} s) are put back for the next run` : "";
        line("ok", `${e.event}: runs \`${e.command}\`, ${set}, longer than its delivery deadline (${hookMs / 1000} s)${retries}`);
      }
    }
  }
  return lines;
}

function surfacerHooks(data: unknown): HookEntry[] {
  const hooks = (data as { hooks?: unknown } | null)?.hooks;
  if (typeof hooks !== "object" || hooks === null) return [];
  const found: HookEntry[] = [];
  for (const [event, groups] of Object.entries(hooks as Record<string, unknown>)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const list = (group as { hooks?: unknown } | null)?.hooks;
      if (!Array.isArray(list)) continue;
      for (const h of list as { type?: unknown; command?: unknown; timeout?: unknown }[]) {
        if (h?.type !== "command" || typeof h.command !== "string" || !/\bsurface\b.*--hook-input\b/.test(h.command)) continue;
        found.push({ event, command: h.command, timeoutS: typeof h.timeout === "number" && h.timeout > 0 ? h.timeout : undefined });
      }
    }
  }
  return found;
}

// The hook's first word must be a program the hook's shell finds: a global install's `skip-summary` on PATH, or a path.
async function programProblem(command: string, env: Readonly<Record<string, string | undefined>>): Promise<string | undefined> {
  const program = command.trim().split(/\s+/)[0] ?? "";
  if (program === "" || /[$`"'=]/.test(program)) return undefined; // a shell expression: not ours to judge
  const candidates = program.includes("/") ? [program] : (env.PATH ?? "").split(delimiter).filter(Boolean).map((d) => join(d, program));
  for (const file of candidates) {
    try {
      if ((await stat(file)).isFile()) {
        await access(file, constants.X_OK);
        return undefined;
      }
    } catch {
      // the next one
    }
  }
  return `the hook runs ${program}, which is ${program.includes("/") ? "not an executable file" : "not on PATH here"}: install skip-summary globally, or give its full path (hooks install --command)`;
}
