// The progress of a plan as typed events, so a host can forward them to a UI (`--events json`: one per line on stderr).
// One member per event, each with exactly the fields that event carries (docs/plans.md, "Events"): a listener that
// switches on `event` gets the fields it may read, and a producer cannot forget one or add one the docs do not name.
import type { Strategy } from "./types.js";

interface EventOf<Name extends string> {
  readonly event: Name;
  readonly time: string;
  readonly skill: string;
}

/** A step's attempt starts. */
export interface StepStartedEvent extends EventOf<"step_started"> {
  readonly step: string;
  /** 1 for the first run of a step. */
  readonly attempt: number;
}

/** The attempt exited 0. */
export interface StepSucceededEvent extends EventOf<"step_succeeded"> {
  readonly step: string;
  readonly attempt: number;
  readonly duration_ms: number;
}

/** An attempt failed; `strategy` is the step's on_error. */
export interface StepFailedEvent extends EventOf<"step_failed"> {
  readonly step: string;
  readonly attempt: number;
  readonly exit_code: number;
  /** Present only when a signal ended the step. */
  readonly signal?: string;
  /** Present only when the step ran out of time. */
  readonly timed_out?: true;
  /** The last non-empty line of the step's stderr; absent when it wrote none. */
  readonly stderr_tail?: string;
  readonly strategy: Strategy;
  /** Present only when the attempt was cancelled (a fail-fast sibling) or interrupted (SIGINT/SIGTERM). */
  readonly cancelled?: true;
}

/** A retry is scheduled; `attempt` is the next run's. */
export interface StepRetriedEvent extends EventOf<"step_retried"> {
  readonly step: string;
  readonly attempt: number;
  readonly delay_ms: number;
  readonly exit_code: number;
}

/** The heal command succeeded; the step runs again as `attempt`. */
export interface StepHealedEvent extends EventOf<"step_healed"> {
  readonly step: string;
  readonly attempt: number;
}

/** The step was recorded as skipped; `reason` starts with the cause (`continued: exit 1`, `caught: ...`). */
export interface StepSkippedEvent extends EventOf<"step_skipped"> {
  readonly step: string;
  readonly exit_code: number;
  readonly reason: string;
}

/** The plan failed; `step` is the failure that decided its exit code. */
export interface SkillFailedEvent extends EventOf<"skill_failed"> {
  readonly step: string;
  readonly exit_code: number;
  readonly reason: string;
  /** Absent when the failing step wrote nothing on stderr. */
  readonly stderr_tail?: string;
  /** The skipped steps, in the order they were skipped. */
  readonly skipped: readonly string[];
}

/** The plan ended with exit 0 (perhaps with skipped steps). */
export interface SkillSucceededEvent extends EventOf<"skill_succeeded"> {
  readonly exit_code: number;
  readonly skipped: readonly string[];
}

export type PlanEvent =
  | StepStartedEvent
  | StepSucceededEvent
  | StepFailedEvent
  | StepRetriedEvent
  | StepHealedEvent
  | StepSkippedEvent
  | SkillFailedEvent
  | SkillSucceededEvent;

export type PlanEventName = PlanEvent["event"];

/** What a producer gives: the event without the fields every event shares (distributed over the union). */
export type PlanEventFields = WithoutShared<PlanEvent>;
type WithoutShared<E> = E extends PlanEvent ? Omit<E, "time" | "skill"> : never;

export type PlanEventListener = (event: PlanEvent) => void;

/** One JSON object per line, the shape `--events json` prints. */
export function formatEventLine(event: PlanEvent): string {
  return `${JSON.stringify(event)}\n`;
}
