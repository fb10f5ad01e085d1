// Small real notifiers for the surfacer's tests: one appends to a file, one fails a set number of times.
import { appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Notifier, NotifyResult } from "../../src/notifiers/types.js";
import type { Deliver } from "../../src/surfacer/index.js";

export interface Delivered {
  readonly notifier: string;
  readonly deliveryId: string;
  readonly skill: string;
  readonly route: string;
  readonly text: string;
  readonly html: string;
  readonly summary: unknown;
}

/** Appends one JSON line per notice to `path`. */
export function fileNotifier(path: string, name = "file"): Notifier {
  return {
    name,
    async send(req) {
      const line: Delivered = { notifier: name, deliveryId: req.deliveryId, skill: req.skill, route: req.route, text: req.message.text, html: req.message.html, summary: req.summary };
      await appendFile(path, `${JSON.stringify(line)}\n`);
      return { ok: true };
    },
  };
}

/** Fails `failures` times (retryable), then succeeds; counts calls. */
export function flakyNotifier(failures: number, name = "flaky", permanent = false): Notifier & { calls: number } {
  const n = {
    name,
    calls: 0,
    async send(): Promise<NotifyResult> {
      n.calls += 1;
      return n.calls <= failures ? { ok: false, permanent, error: `${name} is down (call ${n.calls})` } : { ok: true };
    },
  };
  return n;
}

/** A minimal delivery: every notifier once, in order; ok when all succeeded. The real one (retries, routes) is src/notifiers. */
export function deliverTo(notifiers: readonly Notifier[]): Deliver {
  return async (request, { exclude, signal }) => {
    const results = [];
    for (const n of notifiers) {
      if (exclude.has(n.name)) continue;
      const r = await n.send({ ...request, signal, timeoutMs: 5000 });
      results.push(r.ok ? { notifier: n.name, ok: true, attempts: 1 } : { notifier: n.name, ok: false, attempts: 1, error: r.error, permanent: r.permanent });
    }
    return { ok: results.every((r) => r.ok), results };
  };
}

/**
 * The deliveries the file notifier recorded. A surfacer SIGKILLed in the middle of the notifier's append leaves a
 * torn line: that send never completed (its summary stays claimed and is sent again), so the line is not counted,
 * and the next record, which may start on the same line, is still found.
 */
export async function readDelivered(path: string): Promise<Delivered[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const records: Delivered[] = [];
  for (const line of text.split("\n")) {
    // The earliest start that parses is the last whole record on the line; a torn prefix never parses.
    for (let start = line.indexOf("{"); start >= 0; start = line.indexOf("{", start + 1)) {
      try {
        records.push(JSON.parse(line.slice(start)) as Delivered);
        break;
      } catch {
        // the torn tail of a killed append, or a brace inside it
      }
    }
  }
  return records;
}

export function summary(skill: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { schema_version: 1, skill, step: 3, reason: "nightly budget spent", items: ["cfp-1", "cfp-2"], technical_failure: false, occurred_at: "2026-11-22T18:04:05.000Z", ...extra };
}

/** Writes a summary the way the owner does (complete, under its final name). */
export async function putSummary(workspace: string, skill: string, extra: Record<string, unknown> = {}): Promise<string> {
  const path = join(workspace, `.skip-summary-${skill}.json`);
  await writeFile(`${path}.tmp-test`, JSON.stringify(summary(skill, extra)));
  const { rename } = await import("node:fs/promises");
  await rename(`${path}.tmp-test`, path);
  return path;
}

/**
 * Writes several summaries that land together, as a burst does: each is written under a temp name first, then all
 * are renamed into place at once. A test of a grouping window then waits a short window, not one wide enough for
 * the writes themselves on a loaded machine.
 */
export async function putSummariesAtOnce(entries: readonly (readonly [workspace: string, skill: string])[]): Promise<string[]> {
  const { rename } = await import("node:fs/promises");
  const paths = entries.map(([workspace, skill]) => join(workspace, `.skip-summary-${skill}.json`));
  await Promise.all(entries.map(([, skill], i) => writeFile(`${paths[i]}.tmp-test`, JSON.stringify(summary(skill)))));
  await Promise.all(paths.map((path) => rename(`${path}.tmp-test`, path)));
  return paths;
}

export const FILE_NOTIFIER = fileURLToPath(new URL("../fixtures/surfacer/file-notifier.mjs", import.meta.url));

/** A config whose only notifier is the file-backed test module; returns the config path. */
export async function fileNotifierConfig(dir: string, options: { path: string; downFile?: string; delayMs?: number; startedFile?: string; releaseFile?: string; builtFile?: string; perWorkspace?: boolean }, extra: Record<string, unknown> = {}): Promise<string> {
  const config = {
    notify: { notifiers: { file: { type: "module", path: FILE_NOTIFIER, options } }, retries: 0, timeout_ms: 5000, ...((extra.notify as object) ?? {}) },
    ...(extra.surface ? { surface: extra.surface } : {}),
  };
  const path = join(dir, "skip-summary.config.json");
  await writeFile(path, JSON.stringify(config));
  return path;
}
