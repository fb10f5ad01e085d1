// The run command's flag types tell the truth: checked by `npm run typecheck` (tsconfig includes test/), so an index
// signature or a cast that lets any name through fails the build, not a run.
import { describe, expectTypeOf, it } from "vitest";
import type { RunCommandFlags } from "../../src/cli/commands/run/index.js";
import { parseRunFlags, type ParsedRunFlags } from "../../src/cli/commands/run/flags.js";
import type { EmitFlags } from "../../src/cli/commands/emit/index.js";
import type { SurfaceFlags } from "../../src/cli/commands/surface/index.js";

describe("the run flags' types", () => {
  it("have no index signature: a flag commander does not declare is not a key", () => {
    expectTypeOf<string extends keyof RunCommandFlags ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<string extends keyof ParsedRunFlags ? true : false>().toEqualTypeOf<false>();
    expectTypeOf<RunCommandFlags>().not.toHaveProperty("bogus");
    expectTypeOf<RunCommandFlags["plan"]>().toEqualTypeOf<string | undefined>();
  });

  it("parseRunFlags returns ParsedRunFlags, with the fields every run has required", () => {
    expectTypeOf(parseRunFlags).returns.toEqualTypeOf<ParsedRunFlags>();
    expectTypeOf<ParsedRunFlags["skill"]>().toEqualTypeOf<string>();
    expectTypeOf<ParsedRunFlags["retries"]>().toEqualTypeOf<number>();
    expectTypeOf<ParsedRunFlags["timeoutMs"]>().toEqualTypeOf<number | undefined>();
  });

  it("emit's and surface's options are read off their flag specs (FlagValues)", () => {
    expectTypeOf<EmitFlags["skill"]>().toEqualTypeOf<string>();
    expectTypeOf<EmitFlags["reasonKey"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<EmitFlags["item"]>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<EmitFlags["technical"]>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<keyof EmitFlags>().toEqualTypeOf<"skill" | "step" | "reason" | "item" | "itemsFrom" | "reasonKey" | "link" | "occurredAt" | "technical" | "workspace" | "json">();
    // A flag with a default is always there.
    expectTypeOf<SurfaceFlags["logFormat"]>().toEqualTypeOf<string>();
    expectTypeOf<SurfaceFlags["dryRun"]>().toEqualTypeOf<boolean | undefined>();
  });
});
