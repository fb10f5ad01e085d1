// A parallel block runs its steps at once (up to max_concurrency); on_fail decides what a failure does to the rest.
import { abortedFailure, type Failure } from "./failure.js";
import { recordSkips, settle, type RunState, type Scope } from "./state.js";
import type { ParallelNode, PlanNode } from "./types.js";

type NodeRunner = (node: PlanNode, scope: Scope, state: RunState) => Promise<Failure | undefined>;

/** The reason given to siblings cancelled by fail-fast: not a signal name, so their groups get SIGTERM then SIGKILL. */
export const CANCELLED = "cancelled by a failed sibling";

export async function runParallel(node: ParallelNode, scope: Scope, state: RunState, runNode: NodeRunner): Promise<Failure | undefined> {
  const controller = new AbortController();
  const forward = () => controller.abort(scope.signal.reason);
  if (scope.signal.aborted) forward();
  else scope.signal.addEventListener("abort", forward, { once: true });
  const results: (Failure | undefined)[] = new Array(node.steps.length);
  let next = 0;
  const worker = async () => {
    while (next < node.steps.length) {
      const index = next++;
      const child = node.steps[index]!;
      if (controller.signal.aborted) {
        results[index] = { primary: abortedFailure(child.kind === "step" ? child.name : node.name, controller.signal.reason), failures: [] };
        continue;
      }
      const failure = await runNode(child, { ...scope, signal: controller.signal }, state);
      results[index] = failure;
      if (failure && node.onFail === "fail-fast" && !controller.signal.aborted) controller.abort(CANCELLED);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(node.maxConcurrency ?? node.steps.length, node.steps.length) }, worker));
  } finally {
    scope.signal.removeEventListener("abort", forward);
  }
  const failed = results.filter((r): r is Failure => r !== undefined);
  const interrupted = failed.find((f) => f.primary.interrupted);
  const real = failed.filter((f) => !f.primary.cancelled && !f.primary.interrupted);
  for (const f of failed) if (f.primary.cancelled) settle(state, f, "cancelled", false);
  if (interrupted) {
    for (const f of real) settle(state, f, "failed", false);
    return interrupted;
  }
  if (real.length === 0) return undefined;
  if (node.onFail === "ignore") {
    for (const f of real) {
      settle(state, f, "ignored", true);
      recordSkips(state, f, "ignored");
    }
    return undefined;
  }
  // fail-fast: the first failure in declaration order that was not a cancellation; continue: all of them, named.
  return { primary: real[0]!.primary, failures: real.flatMap((f) => f.failures) };
}
