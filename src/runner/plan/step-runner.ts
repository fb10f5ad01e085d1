// How a step's command runs by default: the runner's runChild, stdin closed, stdout passed through live.
import { runChild } from "../child.js";
import { sleep } from "../sleep.js";
import type { StepRunner } from "./state.js";

export function defaultRunner(options: { readonly onStdout?: (chunk: Buffer) => void; readonly onStderr?: (chunk: Buffer) => void }): StepRunner {
  return (request) =>
    runChild({
      ...request,
      stdin: "ignore",
      ...(options.onStdout ? { onStdout: options.onStdout } : { stdout: "inherit" }),
      ...(options.onStderr ? { onStderr: options.onStderr } : {}),
    });
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export async function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  await sleep(ms, signal);
  return !signal.aborted;
}
