// Watch mode's doorbell: one `fs.watch` per workspace folder, whose events only say "look at this workspace now"
// (the scan that follows is the truth, and the rescan catches whatever a watch misses or a dead watch drops).
// Why not chokidar: chokidar keeps the list of a watched folder's children and, on every event in the folder,
// re-reads the whole folder with an lstat per entry (chokidar 5.0.0 handler.js `_handleRead`, readdirp with
// `alwaysStat`; throttled to once a second but run again for as long as events keep coming). A doorbell needs none
// of that, and in a burst of 10,000 summaries that per-event re-read, 10,000 lstats each time, was most of the
// surfacer's CPU: after a digest went out its members were finished at about 2 per second. An `fs.watch` event
// costs the same whatever the folder holds.
import { watch, type FSWatcher } from "node:fs";

export interface Doorbell {
  /**
   * Starts watching `dir` (a no-op when already watched); false when it cannot be watched now (the rescan retries),
   * and always false once closed.
   */
  add(dir: string): boolean;
  /** Stops watching `dir` (it was removed or re-created: the old watch died with the old folder). */
  remove(dir: string): void;
  /** Ends every watch, for good: a rescan still in flight when watch mode stops must not leave a handle open. */
  close(): void;
}

export interface DoorbellOptions {
  /** An event in `dir`; `name` is the entry's name when the platform reports it. */
  readonly ring: (dir: string, name: string | undefined) => void;
  /** A watch that failed or died (the folder vanished, a watch limit); it is dropped and added again on the rescan. */
  readonly failed: (dir: string, error: NodeJS.ErrnoException) => void;
}

export function createDoorbell(options: DoorbellOptions): Doorbell {
  const watchers = new Map<string, FSWatcher>();
  // A persistent watch made after close would keep the process alive: `surface --watch` would never exit on SIGTERM.
  let closed = false;
  function drop(dir: string, watcher: FSWatcher): void {
    if (watchers.get(dir) === watcher) watchers.delete(dir);
    watcher.close();
  }
  return {
    add(dir) {
      if (closed) return false;
      if (watchers.has(dir)) return true;
      let watcher: FSWatcher;
      try {
        watcher = watch(dir, { persistent: true, encoding: "utf8" }, (_event, name) => options.ring(dir, name ?? undefined));
      } catch (error) {
        options.failed(dir, error as NodeJS.ErrnoException);
        return false;
      }
      watcher.on("error", (error: NodeJS.ErrnoException) => {
        drop(dir, watcher);
        options.failed(dir, error);
      });
      watchers.set(dir, watcher);
      return true;
    },
    remove(dir) {
      const watcher = watchers.get(dir);
      if (watcher) drop(dir, watcher);
    },
    close() {
      closed = true;
      for (const [dir, watcher] of watchers) drop(dir, watcher);
    },
  };
}
