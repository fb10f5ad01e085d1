// `lint --concurrency`: the files a parser reads are parsed on worker threads as well as on the lint's own thread, as
// ESLint's --concurrency lints on workers. Parsing and reading parse trees are most of a large tile's lint time
// (bench/lint.mjs), and each file's facts depend on that file alone, so they can be found anywhere and handed back.
// A worker costs a thread, its module and the grammars (measured in bench/lint.mjs), so "auto" starts one only for a
// tile with enough to parse, on a machine with more than one core. A worker that fails or exits hands its unfinished
// files back to this thread: the findings are those of a run without workers, never a crash or a hang.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Grammar, Parsers } from "../source/tree-sitter.js";
import { analyseFile } from "./analyse-file.js";
import type { CachedFacts } from "./facts-cache.js";
import type { TileFile } from "./files.js";

export type Concurrency = number | "auto" | "off";

export interface PoolJob {
  readonly file: TileFile;
  readonly test: boolean;
}

/** "auto" starts workers only above this much text to parse: below it, a worker's start-up costs more than it saves. */
export const AUTO_MIN_BYTES = 512 * 1024;
/** ...and then one worker per this much text, up to one fewer than the cores (this thread parses too). */
const AUTO_BYTES_PER_WORKER = 256 * 1024;
/** The most workers a number may ask for. */
export const MAX_WORKERS = 64;

/** How many workers to start for `bytes` of text to parse on a machine with `cores` cores. */
export function workerCount(concurrency: Concurrency, bytes: number, cores: number = availableParallelism()): number {
  if (bytes === 0 || concurrency === "off") return 0;
  if (concurrency !== "auto") return Math.min(concurrency, MAX_WORKERS);
  if (cores < 2 || bytes < AUTO_MIN_BYTES) return 0;
  return Math.max(1, Math.min(cores - 1, Math.floor(bytes / AUTO_BYTES_PER_WORKER)));
}

/** The built worker (dist/lint/facts-worker.mjs) next to this chunk, the library or the CLI; undefined when running from source. */
function workerFile(): string | undefined {
  for (const rel of ["./lint/facts-worker.mjs", "../lint/facts-worker.mjs"]) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return path;
  }
  return undefined;
}

interface Slot {
  readonly worker: Worker;
  readonly inFlight: Map<number, readonly PoolJob[]>;
  dead: boolean;
}

/**
 * Finds the facts of every job, on `workers` worker threads and this one (which already has `parsers` loaded).
 * Returns them by path; the order of the jobs does not matter to the result.
 */
export async function parseAll(jobs: readonly PoolJob[], workers: number, grammars: readonly Grammar[], parsers: () => Promise<Parsers>): Promise<Map<string, CachedFacts>> {
  const results = new Map<string, CachedFacts>();
  const file = workers > 0 ? workerFile() : undefined;
  if (file === undefined) {
    const p = await parsers();
    for (const job of jobs) results.set(job.file.path, analyseFile(job.file, job.test, p));
    return results;
  }
  const total = jobs.reduce((n, j) => n + (j.file.text?.length ?? 0), 0);
  // Small batches keep every thread busy to the end; large ones keep the messages few.
  const batchBytes = Math.min(256 * 1024, Math.max(16 * 1024, Math.floor(total / ((workers + 1) * 8))));
  const queue: (readonly PoolJob[])[] = [];
  let batch: PoolJob[] = [];
  let bytes = 0;
  for (const job of jobs) {
    batch.push(job);
    bytes += job.file.text?.length ?? 0;
    if (bytes >= batchBytes) {
      queue.push(batch);
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length > 0) queue.push(batch);

  let nextId = 0;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const slots: Slot[] = [];
  const send = (slot: Slot) => {
    // Two batches in flight, so a worker never waits on this thread while it parses a batch of its own.
    while (!slot.dead && slot.inFlight.size < 2 && queue.length > 0) {
      const jobsOut = queue.shift()!;
      const id = nextId++;
      slot.inFlight.set(id, jobsOut);
      slot.worker.postMessage({ id, jobs: jobsOut });
    }
  };
  const fail = (slot: Slot) => {
    if (slot.dead) return;
    slot.dead = true;
    // Its unfinished files go back to the queue; this thread parses them as it would have without workers.
    for (const jobsBack of slot.inFlight.values()) queue.push(jobsBack);
    slot.inFlight.clear();
    void slot.worker.terminate();
    notify();
  };
  for (let i = 0; i < workers; i++) {
    const slot: Slot = { worker: new Worker(file, { workerData: { grammars } }), inFlight: new Map(), dead: false };
    slot.worker.on("message", (msg: { id: number; results: CachedFacts[] }) => {
      const done = slot.inFlight.get(msg.id);
      if (!done) return;
      slot.inFlight.delete(msg.id);
      done.forEach((job, k) => results.set(job.file.path, msg.results[k]!));
      send(slot);
      notify();
    });
    slot.worker.on("error", () => fail(slot));
    slot.worker.on("exit", () => fail(slot));
    slot.worker.on("messageerror", () => fail(slot));
    slots.push(slot);
    send(slot);
  }
  try {
    const p = await parsers();
    for (;;) {
      const mine = queue.shift();
      if (mine) {
        for (const job of mine) results.set(job.file.path, analyseFile(job.file, job.test, p));
        // Let the workers' answers in, and send them more.
        await new Promise<void>((r) => setImmediate(r));
        for (const slot of slots) send(slot);
        continue;
      }
      if (slots.every((s) => s.dead || s.inFlight.size === 0)) break;
      await new Promise<void>((r) => (wake = r));
    }
  } finally {
    for (const slot of slots) {
      slot.dead = true;
      void slot.worker.terminate();
    }
  }
  return results;
}
