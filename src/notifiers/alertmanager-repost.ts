// Alertmanager keeps alerts in memory only: a replica that restarts forgets every alert it had
// (prometheus/alertmanager#2370), and its clients are expected to post again until `endsAt`, as Prometheus does.
// In watch mode each alert that every replica took is recorded in the workspace's journal folder, and re-posted
// to every replica on an interval until it ends; then its record is removed. The records survive a restart of the
// surfacer itself. Re-posting is idempotent: the same labels merge into the same alert.
import { readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomically } from "../fs/atomic-write.js";
import { checkWithinLimit, readWithinLimit } from "../fs/size-contract.js";
import type { PostableAlert } from "./alertmanager-alert.js";
import { postToReplicas } from "./alertmanager-notifier.js";
import type { Refresher, RefreshReport } from "./types.js";

/** Inside each workspace, beside `.skip-summary-quarantine/`. */
export const REPOST_DIR_NAME = ".skip-summary-alertmanager";
export const DEFAULT_REPOST_INTERVAL_MS = 60_000;
/** Alerts per POST when re-posting; Alertmanager takes an array. */
const BATCH = 500;

interface RepostRecord {
  readonly notifier: string;
  readonly delivery_id: string;
  readonly ends_at: string;
  readonly alert: PostableAlert;
}

function recordName(notifier: string, deliveryId: string): string {
  return `${notifier}~${deliveryId}.json`;
}

/** Writes (or replaces) the re-post record of one alert. */
export async function recordAlert(workspace: string, notifier: string, deliveryId: string, alert: PostableAlert): Promise<void> {
  const { mkdir } = await import("node:fs/promises");
  const dir = join(workspace, REPOST_DIR_NAME);
  await mkdir(dir, { recursive: true });
  const record: RepostRecord = { notifier, delivery_id: deliveryId, ends_at: alert.endsAt, alert };
  const path = join(dir, recordName(notifier, deliveryId));
  // alertFor fitted the alert (ALERT_MAX_BYTES), so the record fits the reader's limit below.
  await writeFileAtomically(path, checkWithinLimit("alertmanagerRecord", path, `${JSON.stringify(record)}\n`));
}

export interface RepostOptions {
  readonly notifier: string;
  readonly urls: readonly string[];
  readonly headers: Record<string, string>;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  /** @default () => new Date() */
  readonly now?: (() => Date) | undefined;
}

/** The watch-mode side: re-posts every standing alert of this notifier, removes the records of ended ones. */
export function createAlertmanagerRefresher(options: RepostOptions): Refresher {
  const now = options.now ?? (() => new Date());
  return {
    name: options.notifier,
    intervalMs: options.intervalMs,
    async refresh(workspaces, signal): Promise<RefreshReport> {
      const standing: PostableAlert[] = [];
      let ended = 0;
      const problems: string[] = [];
      for (const workspace of workspaces) {
        const dir = join(workspace, REPOST_DIR_NAME);
        let names: string[];
        try {
          names = await readdir(dir);
        } catch {
          continue; // no record here yet
        }
        const prefix = `${options.notifier}~`;
        for (const name of names.filter((n) => n.startsWith(prefix) && n.endsWith(".json"))) {
          const path = join(dir, name);
          let record: RepostRecord;
          try {
            record = JSON.parse(await readWithinLimit("alertmanagerRecord", path)) as RepostRecord;
          } catch (error) {
            problems.push(`${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
            continue;
          }
          const endsAt = Date.parse(record?.ends_at);
          if (!Number.isFinite(endsAt) || typeof record.alert !== "object" || record.alert === null) {
            problems.push(`${path}: not a re-post record; removed`);
            await unlink(path).catch(() => undefined);
          } else if (endsAt <= now().getTime()) {
            await unlink(path).catch(() => undefined);
            ended += 1;
          } else standing.push(record.alert);
        }
      }
      let reposted = 0;
      for (let i = 0; i < standing.length && !signal.aborted; i += BATCH) {
        const batch = standing.slice(i, i + BATCH);
        const result = await postToReplicas(options.urls, batch, options.headers, { signal, timeoutMs: options.timeoutMs });
        if (result.ok) reposted += batch.length;
        else problems.push(result.error);
      }
      return { standing: standing.length, reposted, ended, problems };
    },
  };
}
