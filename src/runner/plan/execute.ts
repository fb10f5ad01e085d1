// Walks the plan's blocks in order: a failure stops its block and propagates, try/catch handles it, finally always runs.
import { abortedFailure, single, thrownFailure, type Failure } from "./failure.js";
import { runParallel } from "./parallel.js";
import { errorEnv, recordSkips, settle, type RunState, type Scope } from "./state.js";
import { runStep } from "./strategies.js";
import type { PlanNode, ThrowNode, TryNode } from "./types.js";

/** Runs `nodes` one after another; the first failure stops the rest and is returned. */
export async function runNodes(nodes: readonly PlanNode[], scope: Scope, state: RunState): Promise<Failure | undefined> {
  for (const node of nodes) {
    if (scope.signal.aborted) return single(abortedFailure(nodeName(node), scope.signal.reason));
    const failure = await runNode(node, scope, state);
    if (failure) return failure;
  }
  return undefined;
}

export function runNode(node: PlanNode, scope: Scope, state: RunState): Promise<Failure | undefined> {
  switch (node.kind) {
    case "step":
      return runStep(node, scope, state);
    case "try":
      return runTry(node, scope, state);
    case "parallel":
      return runParallel(node, scope, state, runNode);
    case "throw":
      return Promise.resolve(runThrow(node, scope));
  }
}

async function runTry(node: TryNode, scope: Scope, state: RunState): Promise<Failure | undefined> {
  let failure = await runNodes(node.body, scope, state);
  // Cancellation and interruption are not errors a catch block handles; they only run finally blocks.
  if (failure && node.catchBody && !failure.primary.cancelled && !failure.primary.interrupted) {
    const caught = failure;
    const catchScope: Scope = { signal: scope.signal, caught, errorEnv: { ...scope.errorEnv, ...errorEnv(caught) } };
    const catchFailure = await runNodes(node.catchBody, catchScope, state);
    if (catchFailure !== caught) {
      settle(state, caught, "caught", catchFailure === undefined);
      if (!catchFailure) recordSkips(state, caught, "caught");
    }
    failure = catchFailure;
  }
  if (node.finallyBody) {
    // A finally block is cleanup: it runs to its end even after a cancel or the first SIGINT/SIGTERM.
    const finallyFailure = await runNodes(node.finallyBody, { ...scope, signal: state.hardSignal }, state);
    if (finallyFailure && !failure?.primary.interrupted) {
      if (failure) settle(state, failure, "failed", false);
      failure = finallyFailure;
    }
  }
  return failure;
}

/** `throw: true` hands the caught error on unchanged; a message raises a new error (exit 1 unless `exit` says). */
function runThrow(node: ThrowNode, scope: Scope): Failure {
  if (node.rethrow && scope.caught) return scope.caught;
  const step = scope.caught?.primary.step ?? "throw";
  return single(thrownFailure(step, node.message ?? "rethrown", node.exitCode ?? 1));
}

export function nodeName(node: PlanNode): string {
  if (node.kind === "step" || node.kind === "parallel") return node.name;
  if (node.kind === "try") return node.body[0] ? nodeName(node.body[0]) : "try";
  return "throw";
}
