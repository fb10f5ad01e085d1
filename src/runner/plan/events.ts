// The progress of a plan as typed events, so a host can forward them to a UI (`--events json`: one per line on stderr).

export type PlanEventName =
  | "step_started"
  | "step_failed"
  | "step_retried"
  | "step_healed"
  | "step_skipped"
  | "step_succeeded"
  | "skill_failed"
  | "skill_succeeded";

export interface PlanEvent {
  readonly event: PlanEventName;
  readonly time: string;
  readonly skill: string;
  readonly step?: string;
  /** 1 for the first run of a step. */
  readonly attempt?: number;
  readonly exit_code?: number;
  readonly signal?: string;
  readonly timed_out?: boolean;
  /** The last non-empty line of the step's stderr. */
  readonly stderr_tail?: string;
  readonly strategy?: string;
  readonly delay_ms?: number;
  readonly reason?: string;
  readonly cancelled?: boolean;
  readonly duration_ms?: number;
  readonly skipped?: readonly string[];
}

export type PlanEventListener = (event: PlanEvent) => void;

/** One JSON object per line, the shape `--events json` prints. */
export function formatEventLine(event: PlanEvent): string {
  return `${JSON.stringify(event)}\n`;
}
