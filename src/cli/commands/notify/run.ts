// The work of `skip-summary notify --test`: the surfacer's set-up (config, routes, notifiers), one test notice, the
// outcome per notifier, the exit code.
import { findWorkspace } from "../../../contract/workspace.js";
import { createLogger } from "../../../log/logger.js";
import { escapeControl } from "../../../notifiers/escape.js";
import { setUpSurfacer } from "../../../surfacer/setup.js";
import { sendTestNotice } from "../../../surfacer/test-notice.js";
import type { CommandContext } from "../../action.js";
import { cliClock } from "../../clock.js";
import { EXIT_CODES } from "../../exit-codes.js";
import { usageError } from "../../usage-error.js";
import { describeConfigError } from "../surface/config-words.js";
import { isSkipSummaryError } from "../../../contract/errors.js";
import type { NotifyFlags } from "./index.js";

export async function runNotify(flags: NotifyFlags, context: CommandContext): Promise<number> {
  const { io } = context;
  if (!flags.test) throw usageError("notify sends only test notices for now: add --test (skip-summary notify --test [--route technical])");
  if (flags.route !== "policy" && flags.route !== "technical") throw usageError(`--route must be policy or technical, got ${JSON.stringify(flags.route)}`);
  if (flags.notify?.some((value) => value.split(",").every((name) => name.trim() === ""))) throw usageError("--notify is empty; give a notifier name such as stdout, telegram or one defined in the config");
  const say = (text: string) => void io.stderr.write(`skip-summary notify: ${text}\n`);
  const log = createLogger({ format: "pretty", write: (text) => void io.stderr.write(text) });
  try {
    const setup = await setUpSurfacer({ configFile: flags.config, notify: flags.notify, env: io.env, cwd: io.cwd, log, stdout: flags.json ? io.stderr : io.stdout });
    await setup.load();
    const result = await sendTestNotice({ deliver: setup.deliver, route: flags.route, workspace: workspaceOf(flags, io), now: cliClock(io.env, io.stderr, "skip-summary notify")() });
    if (flags.json) {
      io.stdout.write(`${JSON.stringify({ ok: result.report.ok, delivery_id: result.deliveryId, route: flags.route, results: result.report.results })}\n`);
    } else {
      for (const r of result.report.results) say(`${r.ok ? "sent" : "not sent"} via ${escapeControl(r.notifier)}${r.ok ? "" : `: ${escapeControl(r.error ?? "failed")}`}`);
    }
    return result.report.ok ? EXIT_CODES.notify.sent : EXIT_CODES.notify["not-sent"];
  } catch (error) {
    if (isSkipSummaryError(error, "config.invalid")) {
      say(describeConfigError(error));
      return EXIT_CODES.notify.usage;
    }
    if (isSkipSummaryError(error, "notifiers.none_available")) {
      say(`nothing sent: ${error.data.why}`);
      return EXIT_CODES.notify["not-sent"];
    }
    throw error;
  }
}

// The workspace rule every command follows (a nanoclaw-host notifier routes by it), else the current folder: a test
// notice only needs a name for where it comes from, so no workspace is no reason to refuse it.
function workspaceOf(flags: NotifyFlags, io: CommandContext["io"]): string {
  try {
    return findWorkspace({ flag: flags.workspace, env: io.env, cwd: io.cwd }).path;
  } catch (error) {
    if (isSkipSummaryError(error, "contract.workspace_not_found")) return io.cwd;
    throw error;
  }
}
