// Watch mode's second timer: notifiers whose receivers forget what they took (Alertmanager keeps alerts in
// memory) are asked, on their own interval, to send again what still stands. One pass per notifier at a time;
// a failed pass is only logged, since the next one tries again and the summaries themselves are already delivered.
import type { Logger } from "../log/logger.js";
import type { Refresher } from "../notifiers/types.js";

export interface RefreshLoopHandle {
  /** Stops the timers and waits for passes in flight (cut short by the signal). */
  stop(): Promise<void>;
}

export function startRefreshLoop(refreshers: readonly Refresher[], workspaces: () => readonly string[], log: Logger): RefreshLoopHandle {
  const controller = new AbortController();
  const running = new Map<string, Promise<void>>();
  const pass = (r: Refresher) => {
    if (running.has(r.name) || controller.signal.aborted) return;
    const work = r
      .refresh(workspaces(), controller.signal)
      .then((report) => {
        if (report.standing > 0 || report.ended > 0 || report.problems.length > 0) {
          log({ level: report.problems.length > 0 ? "warn" : "debug", event: "reposted", notifier: r.name, ...report });
        }
      })
      .catch((error: Error) => log({ level: "error", event: "repost_failed", notifier: r.name, error: error.message }))
      .finally(() => running.delete(r.name));
    running.set(r.name, work);
  };
  // The first pass runs at once: after a restart of the surfacer, what stands is posted again without waiting.
  for (const r of refreshers) pass(r);
  const timers = refreshers.map((r) => setInterval(() => pass(r), r.intervalMs));
  return {
    async stop() {
      for (const t of timers) clearInterval(t);
      controller.abort(new Error("watch stopped"));
      await Promise.all(running.values());
    },
  };
}
