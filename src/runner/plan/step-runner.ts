// How a step's command runs by default: the runner's runChild, stdin closed, stdout passed through live.
import { runChild } from "../../process/run-child.js";
import { killGroup } from "../../process/kill-group.js";
import { createSecretMasker } from "../../secrets/mask.js";
import { sleep } from "../../retry/sleep.js";
import type { StepRunner } from "./state.js";

export interface DefaultRunnerOptions {
  readonly onStdout?: (chunk: Buffer) => void;
  readonly onStderr?: (chunk: Buffer) => void;
  /** The second SIGINT/SIGTERM: a step still running after the first one was forwarded is killed outright. */
  readonly hardSignal?: AbortSignal;
}

export function defaultRunner(options: DefaultRunnerOptions): StepRunner {
  return async (request) => {
    let pid: number | undefined;
    // Steps of a finally block run under the hard signal itself, so runChild forwards it to them; the rest
    // already had the first signal forwarded and ignored it.
    const watch = options.hardSignal && request.signal !== options.hardSignal ? options.hardSignal : undefined;
    const kill = () => pid !== undefined && killGroup(pid, "SIGKILL");
    watch?.addEventListener("abort", kill, { once: true });
    try {
      return await runChild({
        ...request,
        stdin: "ignore",
        redact: createSecretMasker(request.env),
        onSpawn: (spawned) => {
          pid = spawned;
          if (watch?.aborted) kill();
        },
        ...(options.onStdout ? { onStdout: options.onStdout } : { stdout: "inherit" }),
        ...(options.onStderr ? { onStderr: options.onStderr } : {}),
      });
    } finally {
      watch?.removeEventListener("abort", kill);
    }
  };
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export async function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  await sleep(ms, signal);
  return !signal.aborted;
}
