// PlanEvent is a discriminated union: these checks run in `npm run typecheck` (tsconfig includes test/), so a member
// that loses a field, gains an optional one where the event always carries it, or stops narrowing fails the build.
import { describe, expectTypeOf, it } from "vitest";
import type { PlanEvent, PlanEventFields, PlanEventName } from "../../src/runner/plan/events.js";
import type { Strategy } from "../../src/runner/plan/types.js";

type Of<N extends PlanEventName> = Extract<PlanEvent, { event: N }>;

describe("PlanEvent's type", () => {
  it("names exactly the events docs/plans.md lists", () => {
    expectTypeOf<PlanEventName>().toEqualTypeOf<
      "step_started" | "step_succeeded" | "step_failed" | "step_retried" | "step_healed" | "step_skipped" | "skill_failed" | "skill_succeeded"
    >();
  });

  it("narrows on event to the fields that event always carries", () => {
    const read = (e: PlanEvent) => {
      if (e.event === "step_retried") {
        expectTypeOf(e.delay_ms).toEqualTypeOf<number>();
        expectTypeOf(e.attempt).toEqualTypeOf<number>();
      } else if (e.event === "step_failed") {
        expectTypeOf(e.strategy).toEqualTypeOf<Strategy>();
        expectTypeOf(e.timed_out).toEqualTypeOf<true | undefined>();
      } else if (e.event === "skill_failed") {
        expectTypeOf(e.skipped).toEqualTypeOf<readonly string[]>();
        expectTypeOf(e.stderr_tail).toEqualTypeOf<string | undefined>();
      }
    };
    expectTypeOf(read).parameter(0).toEqualTypeOf<PlanEvent>();
  });

  it("gives no event a field it never carries", () => {
    expectTypeOf<Of<"skill_succeeded">>().not.toHaveProperty("step");
    expectTypeOf<Of<"step_started">>().not.toHaveProperty("exit_code");
    expectTypeOf<Of<"step_healed">>().not.toHaveProperty("delay_ms");
    expectTypeOf<Of<"step_skipped">>().not.toHaveProperty("attempt");
  });

  it("makes a producer give every field its event carries", () => {
    // @ts-expect-error step_retried always carries delay_ms
    const missing: PlanEventFields = { event: "step_retried", step: "fetch", attempt: 2, exit_code: 1 };
    // @ts-expect-error step_started carries no exit_code
    const extra: PlanEventFields = { event: "step_started", step: "fetch", attempt: 1, exit_code: 1 };
    const right: PlanEventFields = { event: "step_retried", step: "fetch", attempt: 2, exit_code: 1, delay_ms: 1000 };
    expectTypeOf([missing, extra, right]).toEqualTypeOf<PlanEventFields[]>();
  });
});
