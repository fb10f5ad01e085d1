// Skill plans: a declarative file of steps with on_error strategies, try/catch/finally and parallel blocks.
export { loadPlan, parsePlan, formatPlanProblems, type PlanLoadResult, type ParsePlanOptions } from "./parse.js";
export { runPlan, FAILURES_LOG_ENV, FAILURES_LOG_NAME, type RunPlanOptions, type PlanResult } from "./run-plan.js";
export { resolveInputs, parseInputFlags } from "./inputs.js";
export { substitute, substituteArgv } from "./template.js";
export { renderPlanClosingBlock } from "./render.js";
export type { PlanEvent, PlanEventName, PlanEventListener } from "./events.js";
export type { FailureEntry, FailureDisposition } from "./failures-log.js";
export type { SkipRecord, StepRunner, StepRequest } from "./state.js";
export type * from "./types.js";
