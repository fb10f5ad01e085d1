// Watch mode under the CLI: run until SIGINT or SIGTERM, then stop taking files, finish those in flight, exit 0.
// A second signal cuts sends in flight short; their files stay on disk for the next surfacer.
import { EXIT_CODES } from "../../exit-codes.js";
import { usageError } from "../../usage-error.js";
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
  /** --metrics-listen, parsed. */
  readonly metricsListen?: { host: string; port: number } | undefined;
  /** --ready-file, absolute. */
  readonly readyFile?: string | undefined;
}

export async function watchUntilSignal(options: WatchCommandOptions): Promise<number> {
  const { setup, io } = options;
  let current: () => readonly string[] = () => [];
  // The signals are handled before anything starts: a SIGTERM at any moment of the start-up (the watch, the metrics
  // server, readiness) is a clean stop, never Node's default death by signal (a unit stopped while it starts).
  type Handle = Awaited<ReturnType<typeof startWatch>>;
  let handle: Handle | undefined;
  let refreshing: { stop(): Promise<void> } | undefined;
  let server: { port: number; close(): Promise<void> } | undefined;
  let readiness: Promise<{ clear(): Promise<void> }> | undefined;
  let signals = 0;
  let stopping: Promise<void> | undefined;
  let stopped!: () => void;
  const done = new Promise<void>((resolve) => (stopped = resolve));
  const off = () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
  const stop = () => {
    stopping ??= Promise.all([handle?.stop(), refreshing?.stop(), server?.close(), readiness?.then((r) => r.clear(), () => undefined)]).then(
      () => undefined,
      () => undefined,
    ).finally(() => {
      off();
      stopped();
    });
  };
  function onSignal(signal: NodeJS.Signals) {
    signals += 1;
    options.log({ level: "info", event: "signal", signal, action: signals === 1 ? "finishing files in flight" : "cutting sends short" });
    // Before the watch exists there is nothing in flight: the stop happens once it does (below).
    if (signals === 1) {
      if (handle !== undefined) stop();
    } else handle?.abort();
  }
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const metrics = options.metricsListen === undefined ? undefined : await (await import("../../../surfacer/metrics/registry.js")).createSurfaceMetrics({ workspaces: () => current() });
    handle = await startWatch({
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
        metrics?.observe(outcome);
        if (options.json) io.stdout.write(`${JSON.stringify(outcomeJson(outcome))}\n`);
      },
    });
    current = handle.workspaces;
    refreshing = startRefreshLoop(setup.refreshers(), handle.workspaces, options.log);
    if (signals > 0) stop();
    else await startServing(metrics);
  } catch (error) {
    off();
    await Promise.all([handle?.stop(), refreshing?.stop()]);
    throw error;
  }
  await done;
  return EXIT_CODES.surface.sent;

  async function startServing(metrics: Parameters<typeof import("../../../surfacer/metrics/server.js").startMetricsServer>[0] | undefined): Promise<void> {
    if (metrics !== undefined && options.metricsListen !== undefined) {
      const { startMetricsServer } = await import("../../../surfacer/metrics/server.js");
      const at = `${options.metricsListen.host}:${options.metricsListen.port}`;
      try {
        server = await startMetricsServer(metrics, options.metricsListen);
      } catch (error) {
        throw usageError(`--metrics-listen ${at}: cannot listen (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); choose a free port`);
      }
      // A signal that came while the server was starting found no server to close.
      if (signals > 0) await server.close();
      else options.log({ level: "info", event: "metrics_listening", url: `http://${at.replace(/:\d+$/, `:${server.port}`)}/metrics` });
    }
    if (signals === 0) {
      const { signalReady } = await import("../../../surfacer/readiness.js");
      // Ready once the watches are in place and the signals handled: a stop right after READY=1 is a clean stop.
      if (signals === 0) {
        readiness = signalReady({ env: io.env, readyFile: options.readyFile, pid: process.pid, now: new Date(), warn: (event, detail) => options.log({ level: "warn", event, detail }) });
        readiness.catch((error: Error) => options.log({ level: "warn", event: "ready_file_failed", detail: error.message }));
      }
    }
  }
}
