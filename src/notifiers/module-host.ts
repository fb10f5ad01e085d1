// The surfacer's side of a `module` notifier on its own worker thread (module-worker-code.ts says why): loading
// under a deadline, sends that end at their deadline even when the module's code never yields, and a thread that
// ends on its own (process.exit inside send, an uncaught error) counted as a failed send, never as a success.
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import { MODULE_WORKER_CODE } from "./module-worker-code.js";

/** What the worker sends back: a settled send, or what it threw. */
export type SendAnswer = { readonly kind: "settled"; readonly result: unknown } | { readonly kind: "threw"; readonly error: WorkerError } | { readonly kind: "ended"; readonly why: string };
export interface WorkerError {
  readonly name: string;
  readonly message: string;
  readonly cause?: string;
}
export type LoadAnswer =
  | { readonly kind: "loaded"; readonly host: ModuleHost }
  | { readonly kind: "failed"; readonly stage: "import" | "create" | "create-shape" | "exports"; readonly error?: WorkerError; readonly exports?: readonly string[] }
  | { readonly kind: "timed-out" }
  | { readonly kind: "never-loaded"; readonly code: number };

/** How long a send whose signal aborted may take to return before its thread is stopped. */
const ABORT_GRACE_MS = 1_000;
/** How long `destination()` waits for the thread; past it, the answer is "depends on the workspace". */
const DESTINATION_WAIT_MS = 1_000;

export interface ModuleHost {
  send(request: Record<string, unknown>, signal: AbortSignal): Promise<SendAnswer>;
  /** The module's own destination(route, workspace), asked synchronously; `undefined` when it has none or is stuck. */
  readonly destination: ((route: string, workspace: string) => string | undefined) | undefined;
}

/** Starts the module's thread and waits (at most `timeoutMs`) for its import and createNotifier. */
export function startModuleHost(url: string, options: Record<string, unknown>, timeoutMs: number): Promise<LoadAnswer> {
  const channel = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(MODULE_WORKER_CODE, { eval: true, workerData: { url, options, port: channel.port2, flag }, transferList: [channel.port2] });
  const pending = new Map<number, (answer: SendAnswer) => void>();
  let ended: string | undefined;
  let next = 0;
  const endAll = (why: string) => {
    ended ??= why;
    for (const resolve of pending.values()) resolve({ kind: "ended", why: ended });
    pending.clear();
  };
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      resolve({ kind: "timed-out" });
      void worker.terminate();
    }, timeoutMs);
    worker.on("error", (error) => endAll(`its thread threw ${error.name}: ${error.message}`));
    worker.on("exit", (code) => {
      clearTimeout(timer);
      endAll(`its thread ended (exit code ${code}: process.exit() in the module, or an uncaught error)`);
      // Before it said loaded or failed: an await nothing will ever resolve leaves the thread nothing to run (it ends
      // with 0 or 13), or the module called process.exit while loading. Either way loading never finished.
      resolve({ kind: "never-loaded", code });
    });
    // After the listeners (adding a 'message' listener refs a port again): the thread, and the port to it, never keep
    // the surfacer alive; once its own work is done, the process ends and takes the thread along.
    queueMicrotask(() => {
      worker.unref();
      channel.port1.unref();
    });
    worker.on("message", (m: { type: string; id: number; result?: unknown; error?: WorkerError; stage?: never; exports?: string[]; hasDestination?: boolean }) => {
      if (m.type === "settled" || m.type === "threw") {
        const done = pending.get(m.id);
        pending.delete(m.id);
        done?.(m.type === "settled" ? { kind: "settled", result: m.result } : { kind: "threw", error: m.error! });
        return;
      }
      clearTimeout(timer);
      if (m.type === "load-failed") {
        resolve({ kind: "failed", stage: m.stage!, error: m.error, exports: m.exports });
        void worker.terminate();
        return;
      }
      const host: ModuleHost = {
        send(request, signal) {
          if (ended !== undefined) return Promise.resolve({ kind: "ended", why: ended });
          const id = next++;
          return new Promise<SendAnswer>((done) => {
            let grace: NodeJS.Timeout | undefined;
            const onAbort = () => {
              worker.postMessage({ type: "abort", id });
              // A send that ignores its signal, or a thread stuck in a loop: stopped, so it can do nothing later.
              grace = setTimeout(() => {
                if (!pending.has(id)) return;
                void worker.terminate();
                endAll("it did not return after its signal aborted (a synchronous loop, or a send that ignores request.signal); its thread was stopped");
              }, ABORT_GRACE_MS);
            };
            pending.set(id, (answer) => {
              clearTimeout(grace);
              signal.removeEventListener("abort", onAbort);
              done(answer);
            });
            signal.addEventListener("abort", onAbort, { once: true });
            worker.postMessage({ type: "send", id, request });
            if (signal.aborted) onAbort();
          });
        },
        destination: m.hasDestination
          ? (route, workspace) => {
              if (ended !== undefined) return undefined;
              const seq = next++;
              Atomics.store(flag, 0, 0);
              channel.port1.postMessage({ seq, route, workspace });
              Atomics.wait(flag, 0, 0, DESTINATION_WAIT_MS);
              // A late answer to an earlier question may be queued first: only this question's answer counts.
              for (let m = receiveMessageOnPort(channel.port1); m !== undefined; m = receiveMessageOnPort(channel.port1)) {
                const { seq: answered, answer } = m.message as { seq: number; answer: string | null };
                if (answered === seq) return typeof answer === "string" ? answer : undefined;
              }
              return undefined;
            }
          : undefined,
      };
      resolve({ kind: "loaded", host });
    });
  });
}
