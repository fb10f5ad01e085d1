// Turns the parsed YAML/JSON value into a typed plan, node by node, so every problem carries its exact path.
import { statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type * as z from "zod/mini";
import { check, type RawPath, type RawProblem } from "./zod-problems.js";
import { parseDuration as durationMs } from "../../retry/backoff.js";
import { HealSchema, INPUT_NAME, InputSchema, ParallelSchema, PlanHeadSchema, RetrySchema, StepSchema, ThrowSchema, TrySchema } from "./schema.js";
import { templateProblems } from "./template.js";
import { DEFAULT_RETRY_ON } from "../retry-policy.js";
import type { HealPolicy, Plan, PlanInput, PlanNode, RetryPolicy, StepNode } from "./types.js";

export type { RawPath, RawProblem } from "./zod-problems.js";

interface Context {
  readonly dir: string;
  readonly checkFolders: boolean;
  readonly inputs: ReadonlySet<string>;
  readonly problems: RawProblem[];
  readonly names: Map<string, RawPath>;
  parallelCount: number;
}

/** The typed plan, or every problem found (all of them, not just the first). */
export function validatePlan(raw: unknown, dir: string, checkFolders = false): { plan?: Plan; problems: RawProblem[] } {
  const problems: RawProblem[] = [];
  // A bad head field (say, the skill id) must not hide the problems in the steps: walk whatever has the right shape.
  const head = check(PlanHeadSchema, raw, [], problems) ?? salvageHead(raw);
  if (!head) return { problems };
  const inputs: Record<string, PlanInput> = {};
  for (const [name, spec] of Object.entries(head.inputs ?? {})) {
    if (!INPUT_NAME.test(name)) problems.push({ path: ["inputs", name], message: "an input name must start with a letter or '_' and use only letters, digits, '_' and '-'" });
    const parsed = check(InputSchema, spec ?? {}, ["inputs", name], problems);
    if (parsed) inputs[name] = parsed;
  }
  const context: Context = { dir, checkFolders, inputs: new Set(Object.keys(inputs)), problems, names: new Map(), parallelCount: 0 };
  const steps = nodes(head.steps, ["steps"], context, false);
  if (problems.length > 0) return { problems };
  return { plan: { skill: head.skill as string, ...(head.description ? { description: head.description } : {}), inputs, steps, dir }, problems };
}

function nodes(list: readonly unknown[], path: RawPath, context: Context, inCatch: boolean): PlanNode[] {
  const out: PlanNode[] = [];
  list.forEach((raw, index) => {
    const node = toNode(raw, [...path, index], context, inCatch);
    if (node) out.push(node);
  });
  return out;
}

function toNode(raw: unknown, path: RawPath, context: Context, inCatch: boolean): PlanNode | undefined {
  const { problems } = context;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    problems.push({ path, message: "must be a step (a mapping with name and run), a try block, a parallel block or a throw" });
    return undefined;
  }
  if ("try" in raw) {
    const block = check(TrySchema, raw, path, problems);
    if (!block) return undefined;
    if (block.catch === undefined && block.finally === undefined) problems.push({ path, message: "a try block needs a catch or a finally block (or both)" });
    return {
      kind: "try",
      body: nodes(block.try, [...path, "try"], context, inCatch),
      ...(block.catch ? { catchBody: nodes(block.catch, [...path, "catch"], context, true) } : {}),
      ...(block.finally ? { finallyBody: nodes(block.finally, [...path, "finally"], context, inCatch) } : {}),
    };
  }
  if ("parallel" in raw) {
    const block = check(ParallelSchema, raw, path, problems);
    if (!block) return undefined;
    const { parallel } = block;
    context.parallelCount += 1;
    return {
      kind: "parallel",
      name: parallel.name ?? `parallel-${context.parallelCount}`,
      onFail: parallel.on_fail ?? "fail-fast",
      ...(parallel.max_concurrency ? { maxConcurrency: parallel.max_concurrency } : {}),
      steps: nodes(parallel.steps, [...path, "parallel", "steps"], context, inCatch),
    };
  }
  if ("throw" in raw) {
    const node = check(ThrowSchema, raw, path, problems);
    if (!node) return undefined;
    if (node.throw === true && !inCatch) {
      problems.push({ path: [...path, "throw"], message: 'throw: true rethrows the caught error, so it belongs in a catch block; elsewhere give a message: throw: "why"' });
    }
    return { kind: "throw", rethrow: node.throw === true, ...(typeof node.throw === "string" ? { message: node.throw } : {}), ...(node.exit ? { exitCode: node.exit } : {}) };
  }
  return toStep(raw, path, context);
}

function toStep(raw: object, path: RawPath, context: Context): StepNode | undefined {
  const { problems } = context;
  const step = check(StepSchema, raw, path, problems);
  if (!step) return undefined;
  const earlier = context.names.get(step.name);
  if (earlier) problems.push({ path: [...path, "name"], message: `the step name ${JSON.stringify(step.name)} is already used; step names must be unique` });
  else context.names.set(step.name, path);
  step.run.forEach((arg, i) => templateProblems(arg, context.inputs).forEach((message) => problems.push({ path: [...path, "run", i], message })));
  step.heal?.run.forEach((arg, i) => templateProblems(arg, context.inputs).forEach((message) => problems.push({ path: [...path, "heal", "run", i], message })));
  const cwd = step.cwd ? (isAbsolute(step.cwd) ? step.cwd : resolve(context.dir, step.cwd)) : context.dir;
  // A missing folder would only surface at spawn time, as a misleading "command not found".
  if (context.checkFolders && step.cwd && !isFolder(cwd)) problems.push({ path: [...path, "cwd"], message: `there is no folder ${cwd}: a relative cwd starts at the plan file's folder` });
  const onError = step.on_error ?? "abort";
  if (step.retry && onError !== "retry") problems.push({ path: [...path, "retry"], message: "retry settings need on_error: retry" });
  if (step.heal && onError !== "auto_heal") problems.push({ path: [...path, "heal"], message: "heal settings need on_error: auto_heal" });
  if (onError === "auto_heal" && !step.heal) problems.push({ path: [...path, "on_error"], message: "on_error: auto_heal needs a heal block: heal: { when: { exit: [77] }, run: [\"./login.sh\"] }" });
  return {
    kind: "step",
    name: step.name,
    run: step.run,
    env: step.env ?? {},
    cwd,
    ...(step.timeout !== undefined ? { timeoutMs: durationMs(step.timeout) } : {}),
    ...(step.kill_grace !== undefined ? { killGraceMs: durationMs(step.kill_grace) } : {}),
    onError,
    ...(onError === "retry" ? { retry: retryPolicy(step.retry ?? {}) } : {}),
    ...(step.heal ? { heal: healPolicy(step.heal) } : {}),
  };
}

function retryPolicy(spec: z.output<typeof RetrySchema>): RetryPolicy {
  return {
    maxAttempts: spec.max_attempts ?? 3,
    initialDelayMs: spec.initial_delay !== undefined ? durationMs(spec.initial_delay) : 1000,
    maxDelayMs: spec.max_delay !== undefined ? durationMs(spec.max_delay) : 30_000,
    backoff: Array.isArray(spec.backoff) ? spec.backoff.map(durationMs) : (spec.backoff ?? "exponential"),
    jitter: spec.jitter ?? true,
    retryOn: spec.retry_on ?? DEFAULT_RETRY_ON,
    onExhausted: spec.on_exhausted ?? "abort",
  };
}

function healPolicy(spec: z.output<typeof HealSchema>): HealPolicy {
  return {
    ...(spec.when.exit ? { whenExit: spec.when.exit } : {}),
    ...(spec.when.stderr !== undefined ? { whenStderr: spec.when.stderr } : {}),
    run: spec.run,
    max: spec.max ?? 1,
    ...(spec.timeout !== undefined ? { timeoutMs: durationMs(spec.timeout) } : {}),
  };
}

function salvageHead(raw: unknown): { skill?: unknown; description?: string; inputs?: Record<string, unknown>; steps: unknown[] } | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const { steps, inputs } = raw as { steps?: unknown; inputs?: unknown };
  if (!Array.isArray(steps)) return undefined;
  const okInputs = typeof inputs === "object" && inputs !== null && !Array.isArray(inputs) ? (inputs as Record<string, unknown>) : {};
  return { steps, inputs: okInputs };
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
