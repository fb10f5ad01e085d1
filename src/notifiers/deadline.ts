// Every notifier keeps its own deadline as well as the caller's signal: deliver() enforces both, but a library user
// may call `send()` directly, and a send must still end at `timeoutMs` and stop when told to.
import type { NotifyRequest } from "./types.js";

/** Runs `work` with a signal that aborts when the caller's does or when `timeoutMs` has passed, whichever is first. */
export async function withDeadline<T>(request: Pick<NotifyRequest, "signal" | "timeoutMs">, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(request.signal.reason);
  if (request.signal.aborted) onAbort();
  else request.signal.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(
    () => controller.abort(new DOMException(`timed out after ${request.timeoutMs} ms`, "TimeoutError")),
    request.timeoutMs,
  );
  try {
    return await work(controller.signal);
  } finally {
    clearTimeout(timer);
    request.signal.removeEventListener("abort", onAbort);
  }
}

/** Why a signal aborted, in words: its deadline (`timed out after N ms`) or anything else (`stopped by shutdown`). */
export function abortWords(signal: AbortSignal): string {
  const reason = signal.reason as { name?: unknown; message?: unknown } | undefined;
  if (reason?.name === "TimeoutError") return typeof reason.message === "string" && reason.message !== "" ? reason.message : "timed out";
  return "stopped by shutdown";
}
