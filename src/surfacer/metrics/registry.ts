// Prometheus metrics for a watcher run as a service (`surface --watch --metrics-listen`), with prom-client. Loaded
// only in watch mode with metrics on (a dynamic import), so the after-skill hook and emit never pay for it.
// Counters move on each outcome; what waits now is counted from the workspaces when Prometheus scrapes.
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { SurfaceOutcome } from "../types.js";

export interface SurfaceMetrics {
  /** Counts one outcome: sent / failed / quarantined per notifier, and the last success time. */
  observe(outcome: SurfaceOutcome): void;
  /** The text format Prometheus scrapes, and its content type. */
  render(): Promise<{ readonly body: string; readonly contentType: string }>;
}

const SUMMARY = /^\.skip-summary-.+\.json$/;

export async function createSurfaceMetrics(options: { readonly workspaces: () => readonly string[]; readonly now?: () => Date }): Promise<SurfaceMetrics> {
  // prom-client is CommonJS: bundled, its exports may sit on the namespace's default.
  const loaded = (await import("prom-client")) as typeof import("prom-client") & { default?: typeof import("prom-client") };
  const client = loaded.Registry === undefined && loaded.default !== undefined ? loaded.default : loaded;
  const now = options.now ?? (() => new Date());
  const registry = new client.Registry();
  const sent = new client.Counter({ name: "skip_summary_sent_total", help: "Notices a notifier took (a digest member counts once per notifier).", labelNames: ["notifier"], registers: [registry] });
  const failed = new client.Counter({ name: "skip_summary_failed_total", help: "Notices a notifier did not take after its retries (the summary stays and is tried again).", labelNames: ["notifier"], registers: [registry] });
  const quarantined = new client.Counter({ name: "skip_summary_quarantined_total", help: "Unreadable summaries moved to quarantine after the notice about them went out, per notifier of that notice.", labelNames: ["notifier"], registers: [registry] });
  const lastSuccess = new client.Gauge({ name: "skip_summary_last_success_timestamp_seconds", help: "When a notifier last took a notice (Unix time).", labelNames: ["notifier"], registers: [registry] });
  let scanned: Promise<{ waiting: number; oldestAge: number }> | undefined;
  // One look at the workspaces per scrape, shared by the two gauges.
  const look = () => (scanned ??= waitingNow(options.workspaces(), now()).finally(() => setTimeout(() => (scanned = undefined), 0)));
  new client.Gauge({ name: "skip_summary_waiting", help: "Summaries waiting in the watched workspaces now (not yet claimed).", registers: [registry], async collect() { this.set((await look()).waiting); } });
  new client.Gauge({ name: "skip_summary_oldest_waiting_age_seconds", help: "How long the oldest waiting summary has waited (since its file was written); 0 when none waits.", registers: [registry], async collect() { this.set((await look()).oldestAge); } });
  return {
    observe(outcome) {
      for (const r of outcome.notifiers ?? []) {
        if (r.skipped) continue;
        if (!r.ok) failed.inc({ notifier: r.notifier });
        else if (outcome.kind === "quarantined") quarantined.inc({ notifier: r.notifier });
        else if (outcome.kind === "sent") sent.inc({ notifier: r.notifier });
        if (r.ok && (outcome.kind === "sent" || outcome.kind === "quarantined")) lastSuccess.set({ notifier: r.notifier }, now().getTime() / 1000);
      }
    },
    async render() {
      return { body: await registry.metrics(), contentType: registry.contentType };
    },
  };
}

async function waitingNow(workspaces: readonly string[], at: Date): Promise<{ waiting: number; oldestAge: number }> {
  let waiting = 0;
  let oldest = Number.POSITIVE_INFINITY;
  for (const ws of workspaces) {
    const names = await readdir(ws).catch(() => [] as string[]);
    for (const name of names.filter((n) => SUMMARY.test(n))) {
      const mtime = await stat(join(ws, name)).then((s) => s.mtimeMs, () => undefined);
      if (mtime === undefined) continue; // claimed or sent meanwhile
      waiting += 1;
      oldest = Math.min(oldest, mtime);
    }
  }
  return { waiting, oldestAge: waiting === 0 ? 0 : Math.max(0, (at.getTime() - oldest) / 1000) };
}
