// The after-skill commands (emit, surface) write a line or two and read at most one hook event. Touching
// process.stdout or process.stdin builds a net/tty stream, about 12 M instructions of start-up each (a seventh of
// `node -e 0`, measured with callgrind), so the hot path uses the process's own descriptors directly, and loads
// node:tty only if someone asks whether one is a terminal.
import { fstatSync, readSync, writeSync } from "node:fs";
import { createRequire } from "node:module";

const pause = new Int32Array(new SharedArrayBuffer(4));

export interface FdSink {
  /** The descriptor, so a child process can inherit it. */
  readonly fd: number;
  readonly isTTY: boolean;
  /** Writes all of `text`; throws the system error (EPIPE when the reader went away). */
  write(text: string): true;
}

// A terminal is a character device, and a hook's pipe or a redirected file is not: fstat answers those without
// node:tty, which alone loads net and the streams (about 30 internal modules, 14 M instructions of a Stop hook).
function isatty(fd: number): boolean {
  try {
    if (!fstatSync(fd).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return (createRequire(import.meta.url)("node:tty") as typeof import("node:tty")).isatty(fd);
}

/** `isatty(fd)`, asked once and only when someone wants to know. */
function lazyIsatty(fd: number): () => boolean {
  let tty: boolean | undefined;
  return () => (tty ??= isatty(fd));
}

export function fdSink(fd: number): FdSink {
  const tty = lazyIsatty(fd);
  return {
    fd,
    get isTTY() {
      return tty();
    },
    write(text) {
      let bytes = Buffer.from(text, "utf8");
      while (bytes.length > 0) {
        try {
          bytes = bytes.subarray(writeSync(fd, bytes));
        } catch (error) {
          // A parent may have made a shared pipe non-blocking; wait for the reader instead of losing the text.
          if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
          Atomics.wait(pause, 0, 0, 1);
        }
      }
      return true;
    },
  };
}

export interface FdSource extends AsyncIterable<Buffer> {
  readonly fd: number;
  readonly isTTY: boolean;
}

/** Reads `fd` to its end in chunks; a hook's event arrives on a pipe that Claude Code closes after writing. */
export function fdSource(fd: number): FdSource {
  const tty = lazyIsatty(fd);
  return {
    fd,
    get isTTY() {
      return tty();
    },
    async *[Symbol.asyncIterator]() {
      const buffer = Buffer.alloc(65_536);
      for (;;) {
        let n: number;
        try {
          n = readSync(fd, buffer);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "EOF") return;
          if (code !== "EAGAIN") throw error;
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        if (n === 0) return;
        yield Buffer.from(buffer.subarray(0, n));
      }
    },
  };
}
