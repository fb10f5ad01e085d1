// A hot command's flags, declared once as data: commander declares them for --help and error messages, and the fast
// path parses well-formed invocations with node:util's parseArgs, so the two can never disagree on what a flag is.
import { parseArgs } from "node:util";
import type { Command } from "commander";

export interface FlagSpec {
  /** Commander's syntax: `--skill <id>` takes a value, `--technical` is a switch. */
  readonly flags: string;
  readonly description: string;
  readonly required?: boolean;
  /** May be given more than once; the values arrive as an array. */
  readonly repeatable?: boolean;
  readonly defaultValue?: string;
}

/** `--items-from <file>` → `itemsFrom`: the key commander (and the fast path) gives a flag's value. */
type OptionKey<Flags extends string> = Flags extends `--${infer Long} ${string}` ? Camel<Long> : Flags extends `--${infer Long}` ? Camel<Long> : never;
type Camel<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;
type OptionValue<S extends FlagSpec> = S["flags"] extends `${string} <${string}>` ? (S["repeatable"] extends true ? string[] : string) : boolean;
/** Always there: required, or given a default. */
type Present<S extends FlagSpec> = S["required"] extends true ? true : S["defaultValue"] extends string ? true : false;

/**
 * The options both parsers produce for `specs` (declared `as const`): required flags and flags with a default are
 * always there, the others only when given; repeatable values are arrays, switches booleans.
 */
export type FlagValues<Specs extends readonly FlagSpec[]> = {
  readonly [S in Specs[number] as Present<S> extends true ? OptionKey<S["flags"]> : never]: OptionValue<S>;
} & {
  readonly [S in Specs[number] as Present<S> extends true ? never : OptionKey<S["flags"]>]?: OptionValue<S>;
};

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function declareFlags(command: Command, specs: readonly FlagSpec[]): Command {
  for (const spec of specs) {
    if (spec.required) command.requiredOption(spec.flags, spec.description);
    else if (spec.repeatable) command.option(spec.flags, spec.description, collect);
    else if (spec.defaultValue !== undefined) command.option(spec.flags, spec.description, spec.defaultValue);
    else command.option(spec.flags, spec.description);
  }
  return command;
}

function parts(spec: FlagSpec): { name: string; takesValue: boolean } {
  const [long, value] = spec.flags.split(" ");
  return { name: long!.replace(/^--/, ""), takesValue: value !== undefined };
}

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The options commander would produce for `args`, or `undefined` when anything is unusual (an unknown
 * flag, a missing value or required flag, a positional argument, --help): commander then takes the invocation and
 * words the error.
 */
export function parseFlagsFast<const Specs extends readonly FlagSpec[]>(args: readonly string[], specs: Specs): FlagValues<Specs> | undefined {
  const options: Record<string, { type: "string" | "boolean"; multiple?: boolean }> = {};
  for (const spec of specs) {
    const { name, takesValue } = parts(spec);
    options[name] = { type: takesValue ? "string" : "boolean", ...(spec.repeatable ? { multiple: true } : {}) };
  }
  let values: Record<string, unknown>;
  try {
    values = parseArgs({ args: [...args], options, strict: true, allowPositionals: false }).values;
  } catch {
    return undefined;
  }
  const result: Record<string, unknown> = {};
  for (const spec of specs) {
    const { name } = parts(spec);
    const value = values[name];
    if (value === undefined && spec.required) return undefined;
    if (value !== undefined) result[camel(name)] = value;
    else if (spec.defaultValue !== undefined) result[camel(name)] = spec.defaultValue;
  }
  // The one cast: `result` is built from `specs` at run time by the same rules FlagValues states at compile time
  // (camelCase key, string/array/boolean, required or defaulted present), which the compiler cannot follow.
  return result as FlagValues<Specs>;
}
