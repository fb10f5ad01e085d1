// A lint of many tiles, or of one large tile on a busy machine, can take a while: past 2 s on a terminal, one stderr
// line says what is being linted, and is erased when the lint is done. Never on a pipe or a file, never in a
// machine-read format (the caller decides), so logs and --format json/sarif stay clean.
import type { CliIo } from "../io.js";

export const PROGRESS_DELAY_MS = 2000;

export interface Timers {
  setTimeout(fn: () => void, ms: number): { unref?(): unknown };
  setInterval(fn: () => void, ms: number): { unref?(): unknown };
  clearTimeout(handle: unknown): void;
  clearInterval(handle: unknown): void;
  now(): number;
}

export const REAL_TIMERS: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
  now: () => Date.now(),
};

export interface Progress {
  /** The lint starts tile `index` (0-based) of the run. */
  tile(index: number, dir: string): void;
  /** Erases the line if it was shown; call before the report is written. */
  done(): void;
}

const NONE: Progress = { tile() {}, done() {} };

export function startProgress(stream: CliIo["stderr"], total: number, timers: Timers = REAL_TIMERS, delayMs = PROGRESS_DELAY_MS): Progress {
  if (!stream.isTTY) return NONE;
  const started = timers.now();
  let at = { index: 0, dir: "" };
  let shown = false;
  let ticker: unknown;
  const render = () => {
    const seconds = Math.round((timers.now() - started) / 1000);
    const which = total === 1 ? at.dir : `tile ${at.index + 1} of ${total} (${at.dir})`;
    // \r and "erase line": the line is rewritten in place, and done() leaves nothing behind.
    stream.write(`\r\u001b[Kskip-summary: linting ${which}... ${seconds} s`);
  };
  const timer = timers.setTimeout(() => {
    shown = true;
    render();
    ticker = timers.setInterval(render, 1000);
    (ticker as { unref?(): unknown }).unref?.();
  }, delayMs);
  timer.unref?.();
  return {
    tile(index, dir) {
      at = { index, dir };
      if (shown) render();
    },
    done() {
      timers.clearTimeout(timer);
      if (ticker !== undefined) timers.clearInterval(ticker);
      if (shown) stream.write("\r\u001b[K");
      shown = false;
    },
  };
}
