// The fast path and commander must agree on every invocation the fast path takes, or emit and surface would
// behave differently depending on how they were started. This checks them against each other, flag by flag.
import { Command } from "commander";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { declareFlags, parseFlagsFast, type FlagSpec } from "../../src/cli/flag-spec.js";
import { runCli, tempDir } from "../helpers/cli.js";

const SPECS: readonly FlagSpec[] = [
  { flags: "--skill <id>", description: "", required: true },
  { flags: "--item <id>", description: "", repeatable: true },
  { flags: "--items-from <file>", description: "" },
  { flags: "--technical", description: "" },
  { flags: "--log-format <format>", description: "", defaultValue: "pretty" },
];

function commanderParse(args: readonly string[]): Record<string, unknown> | "error" {
  const command = declareFlags(new Command("x").exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined }), SPECS);
  try {
    command.parse([...args], { from: "user" });
  } catch {
    return "error";
  }
  return { ...command.opts() };
}

const value = fc.constantFrom("a", "b c", "=x", "tessl__a", "", "--");
const flag = fc.oneof(
  value.map((v) => ["--skill", v]),
  value.map((v) => [`--skill=${v}`]),
  value.map((v) => ["--item", v]),
  value.map((v) => ["--items-from", v]),
  fc.constant(["--technical"]),
  value.map((v) => ["--log-format", v]),
  fc.constantFrom(["--help"], ["--unknown"], ["positional"], ["-x"], ["--item"]),
);

describe("parseFlagsFast", () => {
  it("either hands the invocation to commander or parses it exactly as commander does", () => {
    fc.assert(
      fc.property(fc.array(flag, { maxLength: 6 }), (groups) => {
        const args = groups.flat();
        const fast = parseFlagsFast(args, SPECS);
        if (fast === undefined) return; // commander takes it, and words any error
        expect(commanderParse(args)).toEqual(fast);
      }),
      { numRuns: 500 },
    );
  });

  it("takes the common invocations", () => {
    expect(parseFlagsFast(["--skill", "tessl__a", "--item", "x", "--item", "y", "--technical"], SPECS)).toEqual({
      skill: "tessl__a",
      item: ["x", "y"],
      technical: true,
      logFormat: "pretty",
    });
  });

  it("leaves help, unknown flags, positionals, and a missing required flag to commander", () => {
    for (const args of [["--skill", "a", "--help"], ["--skill", "a", "--bogus"], ["--skill", "a", "extra"], ["--item", "x"]]) {
      expect(parseFlagsFast(args, SPECS), args.join(" ")).toBeUndefined();
    }
  });
});

describe("the fast path through the built CLI", () => {
  it("emit gives the same result either way (--debug sends it through commander)", async () => {
    const ws = await tempDir();
    const args = ["emit", "--skill", "tessl__a", "--step", "7", "--reason", "r", "--item", "x", "--technical", "--workspace", ws, "--json"];
    const fast = await runCli(args);
    const full = await runCli([...args.slice(0, 1), "--debug", ...args.slice(1)]);
    expect(fast.code).toBe(0);
    expect(full.code).toBe(0);
    const strip = (out: string) => {
      const { summary, ...rest } = JSON.parse(out);
      const { occurred_at: _t, ...fields } = summary;
      return { ...rest, merged: undefined, fields };
    };
    expect(strip(fast.stdout)).toEqual(strip(full.stdout));
  });
});
