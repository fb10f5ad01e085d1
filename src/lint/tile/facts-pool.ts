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
  /** The grammars the file is parsed with (a worker loads each once). */
  readonly grammars: readonly Grammar[];
}

/** "auto" starts workers only for a tile with at least this many files a parser may read (code files and SKILL.md). */
export const AUTO_MIN_FILES = 1000;
/** ...and then one worker per this many, up to one fewer than the cores (this thread parses too). */
const AUTO_FILES_PER_WORKER = 500;
/** Batches of jobs found while the tile is read (the total is not known yet). */
const STREAM_BATCH_BYTES = 16 * 1024;
/** Files this thread parses between two looks at the workers' answers (run). */
const FILES_BETWEEN_YIELDS = 8;
/** The most workers a number may ask for (`--concurrency`, the config's `lint.concurrency`). */
export const MAX_WORKERS = 64;

/** A parser is CPU-bound: past this many workers per core, each more only adds its memory (~11 MB: a V8 isolate and
 * the grammars); `--concurrency 64` on 2 cores took 700 MB for no gain (issue 24 L10). */
export const WORKERS_PER_CORE = 2;

/** How many workers to start for `files` files a parser may read, on a machine with `cores` cores whose load average
 * (1 minute) is `load`. A number asked for is honoured up to one worker per file and WORKERS_PER_CORE per core (two at
 * least, so a test on one core still runs workers). "auto" starts none on a machine already busy (a load average of at
 * least its cores): a worker gains only from a core nothing else wants, and otherwise costs its start-up and a second
 * copy of the parsing code's warm-up (bench/lint.mjs: at load 4-5 on 2 cores, 2.63 s with one and 2.31 s without). */
export function workerCount(concurrency: Concurrency, files: number, cores: number = availableParallelism(), load = 0): number {
  if (files === 0 || concurrency === "off") return 0;
  if (concurrency !== "auto") return Math.min(concurrency, MAX_WORKERS, files, Math.max(2, WORKERS_PER_CORE * cores));
  if (cores < 2 || files < AUTO_MIN_FILES || load >= cores) return 0;
  return Math.max(1, Math.min(cores - 1, Math.floor(files / AUTO_FILES_PER_WORKER)));
}

/**
 * The built worker (dist/lint/facts-worker.mjs) next to this chunk, the library or the CLI. Running from source (the
 * tests' in-process lint, src/lint/tile/), the checkout's build: a worker is a separate module graph either way, and
 * without one the in-process tests could not show that workers change no finding. Undefined when there is none.
 */
function workerFile(): string | undefined {
  const fromSource = import.meta.url.endsWith(".ts") ? ["../../../dist/lint/facts-worker.mjs"] : [];
  for (const rel of ["./lint/facts-worker.mjs", "../lint/facts-worker.mjs", ...fromSource]) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return path;
  }
  return undefined;
}

interface Slot {
  readonly worker: Worker;
  readonly inFlight: Map<number, readonly PoolJob[]>;
  /** It has loaded its grammars: only then is it sent work, so a slow start never holds up this thread. */
  ready: boolean;
  dead: boolean;
}

/**
 * Workers started while the tile is listed (pool-start.ts: their start-up overlaps listing and reading the files), then
 * handed the files a parser reads. `run` finds the facts of every job on them and on this thread; `close` ends them.
 */
export class FactsPool {
  private readonly slots: Slot[] = [];
  private readonly results = new Map<string, CachedFacts>();
  private queue: (readonly PoolJob[])[] = [];
  private pending: PoolJob[] = [];
  private pendingBytes = 0;
  /** Jobs still arrive (`add`): the queue being short is not the end. */
  private streaming = true;
  private nextId = 0;
  private wake: (() => void) | undefined;
  /** Read when the pool starts, not when the module loads: the in-process tests set it for one run. */
  private readonly workersFirst = process.env.SKIP_SUMMARY_TEST_LINT_WORKER !== undefined;

  private constructor(
    private readonly file: string,
    workers: number,
    grammars: readonly Grammar[],
  ) {
    this.grow(workers, grammars);
  }

  /**
   * Starts `workers` workers that preload `grammars`; undefined when there are none to start or no built worker file.
   * Throws what `new Worker` throws (no thread to be had); the caller parses on its own thread then (pool-start.ts).
   */
  static start(workers: number, grammars: readonly Grammar[]): FactsPool | undefined {
    const file = workers > 0 ? workerFile() : undefined;
    return file === undefined ? undefined : new FactsPool(file, workers, grammars);
  }

  /**
   * Starts more workers, up to `workers` in all (the tile turned out larger than when the pool started). Once one runs,
   * a worker that cannot start is only one fewer.
   */
  grow(workers: number, grammars: readonly Grammar[]): void {
    try {
      while (this.slots.length < Math.min(workers, MAX_WORKERS)) this.slots.push(this.startWorker(grammars));
    } catch (error) {
      if (this.slots.length === 0) throw error;
    }
  }

  private startWorker(grammars: readonly Grammar[]): Slot {
    // Test-only: a worker that cannot start, as Node reports it when the system refuses a thread.
    if (process.env.SKIP_SUMMARY_TEST_LINT_WORKER === "start-fails") throw Object.assign(new Error("EAGAIN"), { code: "ERR_WORKER_INIT_FAILED" });
    const slot: Slot = { worker: new Worker(this.file, { workerData: { grammars } }), inFlight: new Map(), ready: false, dead: false };
    slot.worker.on("message", (msg: { id: number; results: CachedFacts[] } | "ready") => {
      if (msg === "ready") {
        slot.ready = true;
        this.send(slot);
        return;
      }
      const done = slot.inFlight.get(msg.id);
      if (!done) return;
      slot.inFlight.delete(msg.id);
      done.forEach((job, k) => this.results.set(job.file.path, msg.results[k]!));
      this.send(slot);
      this.notify();
    });
    slot.worker.on("error", () => this.fail(slot));
    slot.worker.on("exit", () => this.fail(slot));
    slot.worker.on("messageerror", () => this.fail(slot));
    return slot;
  }

  /**
   * The facts of every job by path, found on the workers and on this thread (which loads `parsers` for its share).
   * `meanwhile` is this thread's other work, done first while the workers parse: each call does a slice of it and says
   * whether more is left, and between slices the workers' answers come in and they are sent more. The queue is shared,
   * so this thread parses what the workers have not taken when it is done.
   */
  async run(jobs: readonly PoolJob[], parsers: () => Promise<Parsers>, meanwhile?: () => boolean): Promise<Map<string, CachedFacts>> {
    const total = jobs.reduce((n, j) => n + (j.file.text?.length ?? 0), 0);
    // Small batches keep every thread busy to the end; large ones keep the messages few.
    const batchBytes = Math.min(128 * 1024, Math.max(8 * 1024, Math.floor(total / ((this.slots.length + 1) * 24))));
    for (const job of jobs) this.batch(job, batchBytes);
    this.flush();
    this.streaming = false;
    for (const slot of this.slots) this.send(slot);
    while (meanwhile?.()) await this.yieldToWorkers();
    const p = await parsers();
    for (;;) {
      const mine = this.parsesHere() ? this.queue.shift() : undefined;
      if (mine) {
        // The workers' answers come in (and they are sent more) every few files, not only after the batch: a worker
        // that finishes its batch meanwhile would otherwise wait for this thread's whole batch.
        for (let k = 0; k < mine.length; k++) {
          const job = mine[k]!;
          this.results.set(job.file.path, analyseFile(job.file, job.test, p));
          if ((k + 1) % FILES_BETWEEN_YIELDS === 0) await this.yieldToWorkers();
        }
        await this.yieldToWorkers();
        continue;
      }
      if (this.queue.length === 0 && this.slots.every((s) => s.dead || s.inFlight.size === 0)) break;
      // Files a failed worker handed back go to another.
      for (const slot of this.slots) this.send(slot);
      await new Promise<void>((r) => (this.wake = r));
    }
    return this.results;
  }

  /**
   * A job found while the tile is still being read: it goes to a worker that is ready, so the workers parse while this
   * thread reads (the reader lets their messages in now and then: files.ts).
   */
  add(job: PoolJob): void {
    this.batch(job, STREAM_BATCH_BYTES);
    for (const slot of this.slots) this.send(slot);
  }

  private batch(job: PoolJob, batchBytes: number): void {
    this.pending.push(job);
    this.pendingBytes += job.file.text?.length ?? 0;
    if (this.pendingBytes >= batchBytes) this.flush();
  }

  private flush(): void {
    if (this.pending.length > 0) this.queue.push(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
  }

  /**
   * This thread takes batches too, except under the tests' fault injection (facts-worker.ts), where every file goes to
   * a worker while one is alive, so a test knows which thread met the fault.
   */
  private parsesHere(): boolean {
    return !this.workersFirst || this.slots.every((s) => s.dead);
  }

  /** Ends the workers; the pool's owner calls it once the facts are in, or the tile failed (load-tile.ts). */
  close(): void {
    for (const slot of this.slots) {
      if (slot.dead) continue;
      slot.dead = true;
      void slot.worker.terminate();
    }
  }

  /** Lets the workers' answers in, and sends them more. */
  private async yieldToWorkers(): Promise<void> {
    await new Promise<void>((r) => setImmediate(r));
    for (const slot of this.slots) this.send(slot);
  }

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  private send(slot: Slot): void {
    // Two batches in flight, so a worker never waits on this thread while it parses a batch of its own (three while the
    // tile is read: between the reading and the parsing this thread does ~25 ms of other work without looking at the
    // workers); one near the end, so this thread does not wait on a batch a worker has not begun.
    while (!slot.dead && slot.ready && slot.inFlight.size < (this.streaming ? 3 : this.queue.length > 4 ? 2 : 1) && this.queue.length > 0) {
      const jobs = this.queue.shift()!;
      const id = this.nextId++;
      slot.inFlight.set(id, jobs);
      slot.worker.postMessage({ id, jobs, grammars: [...new Set(jobs.flatMap((j) => j.grammars))] });
    }
  }

  private fail(slot: Slot): void {
    if (slot.dead) return;
    slot.dead = true;
    // Its unfinished files go back to the queue; this thread parses them as it would have without workers.
    for (const jobs of slot.inFlight.values()) this.queue.push(jobs);
    slot.inFlight.clear();
    void slot.worker.terminate();
    this.notify();
  }
}
