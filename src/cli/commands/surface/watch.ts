// Watch mode under the CLI: run until SIGINT or SIGTERM, then stop taking files, finish those in flight, exit 0.
// A second signal cuts sends in flight short; their files stay on disk for the next surfacer.
import { EXIT_CODES } from "../../exit-codes.js";
import type { CliIo } from "../../io.js";
import type { Logger } from "../../../log/logger.js";
import type { SurfaceSetup } from "../../../surfacer/setup.js";
import { startRefreshLoop } from "../../../surfacer/refresh-loop.js";
import { startWatch } from "../../../surfacer/watch.js";
import { outcomeJson } from "../../../surfacer/report-json.js";

export interface WatchCommandOptions {
  readonly patterns: readonly string[];
  readonly cwd: string;
  readonly skill: string | undefined;
  readonly setup: SurfaceSetup;
  readonly log: Logger;
  readonly json: boolean;
  readonly io: CliIo;
}

export async function watchUntilSignal(options: WatchCommandOptions): Promise<number> {
  const { setup, io } = options;
  const handle = await startWatch({
    patterns: options.patterns,
    cwd: options.cwd,
    skill: options.skill,
    deliver: setup.deliver,
    leaseMs: setup.leaseMs(),
    rescanMs: setup.settings.rescanMs,
    concurrency: setup.settings.concurrency,
    log: options.log,
    notices: setup.settings.notices,
    onOutcome: (outcome) => {
      if (options.json) io.stdout.write(`${JSON.stringify(outcomeJson(outcome))}\n`);
    },
  });
  const refreshing = startRefreshLoop(setup.refreshers(), handle.workspaces, options.log);
  await new Promise<void>((resolve) => {
    let signals = 0;
    const onSignal = (signal: NodeJS.Signals) => {
      signals += 1;
      options.log({ level: "info", event: "signal", signal, action: signals === 1 ? "finishing files in flight" : "cutting sends short" });
      if (signals === 1) {
        void Promise.all([handle.stop(), refreshing.stop()]).finally(() => {
          process.off("SIGINT", onSignal);
          process.off("SIGTERM", onSignal);
          resolve();
        });
      } else handle.abort();
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
  return EXIT_CODES.surface.sent;
}
