// The after-skill commands (emit, surface) write a line or two. Touching process.stdout builds a net/tty stream,
// about 12 M instructions of start-up (a seventh of `node -e 0`; bench/startup-profile.md), so the hot path writes
// the process's own descriptors synchronously instead, and loads node:tty only if someone asks whether it is one.
import { writeSync } from "node:fs";
import { createRequire } from "node:module";

const pause = new Int32Array(new SharedArrayBuffer(4));

export interface FdSink {
  /** The descriptor, so a child process can inherit it. */
  readonly fd: number;
  readonly isTTY: boolean;
  /** Writes all of `text`; throws the system error (EPIPE when the reader went away). */
  write(text: string): true;
}

export function fdSink(fd: number): FdSink {
  let tty: boolean | undefined;
  return {
    fd,
    get isTTY() {
      tty ??= (createRequire(import.meta.url)("node:tty") as typeof import("node:tty")).isatty(fd);
      return tty;
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
