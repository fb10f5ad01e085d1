// emit's hot entry gets this module for node:fs/promises (scripts/build.mjs swaps it in for dist/hot/emit.js only).
// An emit process does a dozen small file operations one after another and exits: through fs/promises each is a
// round trip to libuv's thread pool, and loading fs/promises (with the readline modules it pulls in) is code Node's
// built-in cache does not hold: together ~5-8 M instructions and the waits of ~20 hand-offs (bench/startup.mjs).
// The same calls, synchronous, behind the promise API the owner's code is written against; the errors are the same
// errno errors. The library, the surfacer and the runner keep fs/promises: a long-lived process must not block on
// an fsync. Only what the owner's write path uses is here; the build fails if emit's bundle needs more.
import * as fs from "node:fs";

export class FileHandle {
  #fd: number | undefined;

  constructor(fd: number) {
    this.#fd = fd;
  }

  get fd(): number {
    if (this.#fd === undefined) throw Object.assign(new Error("file closed"), { code: "EBADF", syscall: "fd" });
    return this.#fd;
  }

  /** Options as FileHandle.writeFile takes them: an encoding, or an object (passed as they are). */
  async writeFile(data: string | Uint8Array, options?: BufferEncoding | fs.WriteFileOptions): Promise<void> {
    fs.writeFileSync(this.fd, data, options);
  }

  async readFile(): Promise<Buffer> {
    return fs.readFileSync(this.fd);
  }

  async read(buffer: Buffer, offset: number, length: number, position: number | null): Promise<{ bytesRead: number; buffer: Buffer }> {
    return { bytesRead: fs.readSync(this.fd, buffer, offset, length, position), buffer };
  }

  async stat(): Promise<fs.Stats> {
    return fs.fstatSync(this.fd);
  }

  async sync(): Promise<void> {
    fs.fsyncSync(this.fd);
  }

  async utimes(atime: Date, mtime: Date): Promise<void> {
    fs.futimesSync(this.fd, atime, mtime);
  }

  /** Like FileHandle.close: closing twice is not an error. */
  async close(): Promise<void> {
    const fd = this.#fd;
    this.#fd = undefined;
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export async function open(path: string, flags: number | string, mode?: number): Promise<FileHandle> {
  return new FileHandle(fs.openSync(path, flags, mode));
}

export async function stat(path: string): Promise<fs.Stats> {
  return fs.statSync(path);
}

export async function lstat(path: string): Promise<fs.Stats> {
  return fs.lstatSync(path);
}

export async function readlink(path: string): Promise<string> {
  return fs.readlinkSync(path);
}

export async function link(existingPath: string, newPath: string): Promise<void> {
  fs.linkSync(existingPath, newPath);
}

export async function rename(oldPath: string, newPath: string): Promise<void> {
  fs.renameSync(oldPath, newPath);
}

export async function unlink(path: string): Promise<void> {
  fs.unlinkSync(path);
}

export async function mkdir(path: string, options?: fs.MakeDirectoryOptions & { recursive?: false }): Promise<void> {
  fs.mkdirSync(path, options);
}

export async function statfs(path: string): Promise<fs.StatsFs> {
  return fs.statfsSync(path);
}
