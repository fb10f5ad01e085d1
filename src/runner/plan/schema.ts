// The plan file's shape, one zod/mini schema per node kind, so each error names the field and says how to fix it.
import * as z from "zod/mini";
import { skillNameProblem } from "../../contract/ids.js";
import { durationProblem } from "../../retry/backoff.js";
import { retryOnProblem, type RetryOn } from "../retry-policy.js";

export const STRATEGIES = ["abort", "continue", "retry", "auto_heal"] as const;
export const PARALLEL_POLICIES = ["fail-fast", "continue", "ignore"] as const;
export const BACKOFF_KINDS = ["exponential", "linear", "fixed"] as const;
export const INPUT_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
export const STEP_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

// z.custom<string>: only a string can be a duration (a bare number has no unit), so the check that accepts a value
// is the one that makes it a string; every other input gets this message rather than zod's "expected string".
const duration = z.custom<string>((value) => durationProblem(value) === undefined, {
  error: (issue) =>
    typeof issue.input === "number"
      ? `must be a duration with a unit: add one, "${issue.input}s" for seconds or "${issue.input}ms" for milliseconds`
      : `must be a duration: ${durationProblem(issue.input)}`,
});

const exitCode = z.int({ error: "must be an integer exit code (0-255)" }).check(z.gte(0, "must be 0-255"), z.lte(255, "must be 0-255"));
const exitCodes = z.array(exitCode, { error: "must be a list of exit codes, for example [1, 75]" });

export const argv = z
  .array(z.string({ error: 'must be a string: quote it ("true", "7"), as YAML reads an unquoted true, number or null as another type; each argument is one string, there is no shell' }), {
    error: 'must be an argv array such as ["./fetch.sh", "--since", "{{ inputs.since }}"] (no shell is used)',
  })
  .check(z.minLength(1, "must name a command: it is empty"), z.refine((list) => list.length === 0 || list[0] !== "", "the command (first element) must not be empty"));

export const RetrySchema = z.strictObject(
  {
    max_attempts: z.optional(z.int({ error: "must be an integer >= 1 (attempts in all, the first one included)" }).check(z.gte(1, "must be >= 1"))),
    initial_delay: z.optional(duration),
    max_delay: z.optional(duration),
    backoff: z.optional(
      z.union([z.enum(BACKOFF_KINDS), z.array(duration).check(z.minLength(1, "must list at least one delay"))], {
        error: 'must be exponential, linear, fixed, or a list of delays such as ["1s", "5s", "30s"]',
      }),
    ),
    jitter: z.optional(z.boolean({ error: "must be true (the default) or false" })),
    retry_on: z.optional(
      z.array(
        z.union([z.int(), z.literal("timeout")], { error: 'must be an exit code or "timeout"' }).check(
          z.refine((value) => retryOnProblem(value) === undefined, { error: (issue) => `${retryOnProblem(issue.input as RetryOn)}` }),
        ),
        { error: 'must be a list of exit codes and/or "timeout", for example [1, 75, timeout]' },
      ),
    ),
    on_exhausted: z.optional(z.enum(["abort", "continue"], { error: "must be abort (the default) or continue" })),
  },
  { error: "must be a mapping with max_attempts, initial_delay, max_delay, backoff, jitter, retry_on, on_exhausted" },
);

export const HealSchema = z.strictObject(
  {
    when: z.strictObject(
      {
        exit: z.optional(exitCodes),
        stderr: z.optional(
          z.string({ error: "must be a regular expression (a string) matched against the step's stderr" }).check(
            z.refine((source) => regexProblem(source) === undefined, { error: (issue) => `${regexProblem(issue.input as string)}` }),
          ),
        ),
      },
      { error: 'must be a mapping with exit (a list of codes) and/or stderr (a pattern), for example { exit: [77], stderr: "token expired" }' },
    ).check(z.refine((when) => when.exit !== undefined || when.stderr !== undefined, "must set exit, stderr or both")),
    run: argv,
    max: z.optional(z.int({ error: "must be an integer >= 1 (heals per step)" }).check(z.gte(1, "must be >= 1"))),
    timeout: z.optional(duration),
  },
  { error: "must be a mapping with when, run and optionally max and timeout" },
);

export const StepSchema = z.strictObject({
  name: z.string({ error: "must be a string naming the step" }).check(
    z.regex(STEP_NAME, "must start with a letter or digit and use only letters, digits, '_', '-', '.' and ':'"),
  ),
  run: argv,
  env: z.optional(z.record(z.string(), z.string({ error: "must be a string (quote numbers)" }), { error: "must be a mapping of NAME: value" })),
  cwd: z.optional(z.string({ error: "must be a directory path, relative to the plan file" }).check(z.minLength(1, "must not be empty"))),
  timeout: z.optional(duration),
  kill_grace: z.optional(duration),
  on_error: z.optional(z.enum(STRATEGIES, { error: "must be abort (the default), continue, retry or auto_heal" })),
  retry: z.optional(RetrySchema),
  heal: z.optional(HealSchema),
});

export const ThrowSchema = z.strictObject({
  throw: z.union([z.literal(true), z.string().check(z.minLength(1, "must not be empty"))], {
    error: 'must be true (rethrow the caught error) or a message such as "publishing failed"',
  }),
  exit: z.optional(exitCode.check(z.gte(1, "must be a failing code, 1-255"))),
});

export const TrySchema = z.strictObject({
  try: z.array(z.unknown(), { error: "must be a list of steps" }).check(z.minLength(1, "must hold at least one step")),
  catch: z.optional(z.array(z.unknown(), { error: "must be a list of steps" })),
  finally: z.optional(z.array(z.unknown(), { error: "must be a list of steps" })),
});

export const ParallelSchema = z.strictObject({
  parallel: z.strictObject(
    {
      name: z.optional(z.string().check(z.regex(STEP_NAME, "must start with a letter or digit and use only letters, digits, '_', '-', '.' and ':'"))),
      on_fail: z.optional(z.enum(PARALLEL_POLICIES, { error: "must be fail-fast (the default), continue or ignore" })),
      max_concurrency: z.optional(z.int({ error: "must be an integer >= 1" }).check(z.gte(1, "must be >= 1"))),
      steps: z.array(z.unknown(), { error: "must be a list of steps" }).check(z.minLength(1, "must hold at least one step")),
    },
    { error: "must be a mapping with steps and optionally on_fail, max_concurrency, name" },
  ),
});

export const InputSchema = z.strictObject(
  {
    default: z.optional(z.string({ error: 'must be a string (quote it: "7d")' })),
    description: z.optional(z.string({ error: "must be a string" })),
  },
  { error: 'must be a mapping such as { default: "7d" } (an input without a default is required)' },
);

export const PlanHeadSchema = z.strictObject(
  {
    skill: z.string({ error: "must be the full skill id, for example tessl__check-cfps" }).check(
      z.refine((id) => skillNameProblem(id) === undefined, { error: (issue) => `is not a valid skill id: ${skillNameProblem(issue.input)}` }),
    ),
    description: z.optional(z.string({ error: "must be a string" })),
    inputs: z.optional(z.record(z.string(), z.unknown(), { error: "must be a mapping of input names" })),
    steps: z.array(z.unknown(), { error: "must be a list of steps" }).check(z.minLength(1, "must hold at least one step")),
  },
  { error: "must be a mapping with skill (the full skill id, such as tessl__check-cfps) and steps (a list of steps); see docs/plans.md" },
);

function regexProblem(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (error) {
    return `is not a valid regular expression (${(error as Error).message})`;
  }
}
