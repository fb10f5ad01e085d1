// A skill may write megabytes to stderr; the runner keeps only the newest bytes, so memory stays bounded
// while the end of the output (where the error usually is) survives.

/** 1 MiB of stderr is kept by default. */
export const DEFAULT_STDERR_CAP = 1024 * 1024;

export interface StderrBuffer {
  push(chunk: Buffer): void;
  /** The kept bytes as UTF-8, starting at a character boundary. */
  text(): string;
  droppedBytes(): number;
}

export function createStderrBuffer(cap: number): StderrBuffer {
  const chunks: Buffer[] = [];
  let size = 0;
  let dropped = 0;
  return {
    push(chunk) {
      chunks.push(chunk);
      size += chunk.length;
      while (size > cap && chunks.length > 0) {
        const first = chunks[0]!;
        const excess = size - cap;
        if (first.length <= excess) {
          chunks.shift();
          size -= first.length;
          dropped += first.length;
        } else {
          chunks[0] = first.subarray(excess);
          size -= excess;
          dropped += excess;
        }
      }
    },
    text() {
      let bytes = Buffer.concat(chunks, size);
      if (dropped > 0) {
        // The cut may have split a multi-byte character: skip its continuation bytes.
        let start = 0;
        while (start < bytes.length && start < 4 && (bytes[start]! & 0xc0) === 0x80) start++;
        bytes = bytes.subarray(start);
      }
      return bytes.toString("utf8");
    },
    droppedBytes: () => dropped,
  };
}
