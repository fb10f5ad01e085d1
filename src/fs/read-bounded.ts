// A file named on the command line (--items-from, --config, a plan) can be /dev/zero, a 1 GB sparse file or a
// pipe that never ends: reading it whole first and checking its size after would hold it all in memory. These
// read at most `limit` bytes (plus one, to know there was more) and then stop.
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { SkipSummaryError } from "../contract/errors.js";
import { describeKind, kindOf } from "./inspect.js";

/** `fs.input_too_large`: `source` had more than `limit` bytes. */
export function inputTooLarge(source: string, limit: number): SkipSummaryError<"fs.input_too_large"> {
  return new SkipSummaryError("fs.input_too_large", `${source} is larger than ${limit} bytes; reading stopped there`, { source, limit });
}

const CHUNK = 64 * 1024;

/** The bytes of the file at `path`, or `fs.input_too_large` once more than `limit` bytes have come. */
export async function readFileAtMost(path: string, limit: number): Promise<Buffer> {
  return readOpened(await open(path, "r"), path, limit);
}

/**
 * A file a person named (`--items-from`) that must be a regular file: a FIFO with no writer would block the open
 * forever, so the open does not wait (O_NONBLOCK) and anything but a regular file is ENOTREG, with what it is.
 */
export async function readRegularFileAtMost(path: string, limit: number): Promise<Buffer> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    throw Object.assign(new Error(`${path} is ${describeKind(kindOf(stats))}, not a regular file`), { code: "ENOTREG", kind: kindOf(stats) });
  }
  return readOpened(handle, path, limit);
}

/**
 * A record the tools wrote themselves in a workspace (a `.partial` journal): never read through a link, never
 * blocked on a FIFO, only a regular file (ENOTREG otherwise), at most `limit` bytes.
 */
export async function readOwnRecord(path: string, limit: number): Promise<Buffer> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  if (!(await handle.stat()).isFile()) {
    await handle.close();
    throw Object.assign(new Error(`${path} is not a regular file`), { code: "ENOTREG" });
  }
  return readOpened(handle, path, limit);
}

async function readOpened(handle: import("node:fs/promises").FileHandle, path: string, limit: number): Promise<Buffer> {
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buffer = Buffer.alloc(Math.min(CHUNK, limit + 1 - total));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return Buffer.concat(chunks, total);
      chunks.push(buffer.subarray(0, bytesRead));
      total += bytesRead;
      if (total > limit) throw inputTooLarge(path, limit);
    }
  } finally {
    await handle.close();
  }
}

/** The bytes of `stream` (stdin), or `fs.input_too_large` once more than `limit` bytes have come; it is not read further. */
export async function readStreamAtMost(stream: AsyncIterable<Buffer | string> & { destroy?(): void }, limit: number, source = "stdin"): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(buffer);
    total += buffer.length;
    if (total > limit) {
      stream.destroy?.();
      throw inputTooLarge(source, limit);
    }
  }
  return Buffer.concat(chunks, total);
}
