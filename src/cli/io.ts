// Every command writes through this, so tests (and the library) can swap the process's streams and environment.

export interface CliIo {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  /** Read by iterating (process.stdin, or the hot path's fd reader): nothing else is asked of it. */
  readonly stdin: AsyncIterable<Buffer | string> & { readonly isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

export function processIo(): CliIo {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

/** Colour only on a TTY, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(stream: { readonly isTTY?: boolean }, env: CliIo["env"]): boolean {
  return Boolean(stream.isTTY) && !("NO_COLOR" in env && env.NO_COLOR !== "") && env.TERM !== "dumb";
}

export async function readAll(stream: AsyncIterable<Buffer | string>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}
