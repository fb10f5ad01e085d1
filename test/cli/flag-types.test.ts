// The run command's flag types tell the truth: checked by `npm run typecheck` (tsconfig includes test/), so an index
// signature or a cast that lets any name through fails the build, not a run.
import { describe, expectTypeOf, it } from "vitest";
import type { RunCommandFlags } from "../../src/cli/commands/run/index.js";
import { parseRunFlags, type ParsedRunFlags } from "../../src/cli/commands/run/flags.js";

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
});
