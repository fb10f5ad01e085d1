// The work of `skip-summary check`: flags to options, the library's checks, one line each, the exit code.
import { checkSetup, type CheckLine, type CheckReport } from "../../../check/index.js";
import { isSkipSummaryError } from "../../../contract/errors.js";
import { resolveWorkspace } from "../../../contract/workspace.js";
import { escapeControl } from "../../../notifiers/escape.js";
import type { CommandContext } from "../../action.js";
import { EXIT_CODES } from "../../exit-codes.js";
import { usageError } from "../../usage-error.js";
import type { CheckFlags } from "./index.js";

export async function runCheck(flags: CheckFlags, context: CommandContext): Promise<number> {
  const { io } = context;
  if (flags.notify?.some((value) => value.split(",").every((name) => name.trim() === ""))) throw usageError("--notify is empty; give a notifier name such as stdout, telegram or one defined in the config");
  const report = await checkSetup({
    configFile: flags.config,
    notify: flags.notify,
    workspaces: flags.workspace,
    settings: flags.settings,
    offline: flags.offline,
    defaultWorkspace: () => {
      try {
        return resolveWorkspace({ env: io.env, cwd: io.cwd });
      } catch (error) {
        if (isSkipSummaryError(error, "contract.workspace_not_found")) return undefined;
        throw error;
      }
    },
    env: io.env,
    cwd: io.cwd,
    stdoutIsTerminal: io.stdout.isTTY === true,
  });
  const code = checkExitCode(report);
  if (flags.json) io.stdout.write(`${JSON.stringify({ ok: code === 0, exit_code: code, worst: report.worst, checks: report.lines })}\n`);
  else for (const line of report.lines) io.stdout.write(`${formatLine(line)}\n`);
  return code;
}

export function checkExitCode(report: CheckReport): number {
  if (report.worst === "invalid") return EXIT_CODES.check["config-invalid"];
  return report.worst === "fail" ? EXIT_CODES.check.failed : EXIT_CODES.check.passed;
}

function formatLine(line: CheckLine): string {
  return `${line.status.padEnd(7)} ${line.area.padEnd(9)} ${escapeControl(line.subject)}: ${escapeControl(line.detail)}`;
}
