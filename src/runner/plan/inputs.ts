// Input values come from defaults and --input NAME=VALUE; a missing or undeclared one stops the plan before any step runs.
import type { Plan, PlanProblem } from "./types.js";

export type InputsResult = { readonly ok: true; readonly values: Record<string, string> } | { readonly ok: false; readonly problems: PlanProblem[] };

export function resolveInputs(plan: Plan, given: Readonly<Record<string, string>>): InputsResult {
  const problems: PlanProblem[] = [];
  const values: Record<string, string> = {};
  for (const name of Object.keys(given)) {
    if (!(name in plan.inputs)) {
      const known = Object.keys(plan.inputs).join(", ") || "none";
      problems.push({ path: `inputs.${name}`, message: `the plan declares no input ${JSON.stringify(name)} (declared inputs: ${known})` });
    }
  }
  for (const [name, spec] of Object.entries(plan.inputs)) {
    const value = given[name] ?? spec.default;
    const at = spec.line !== undefined ? { line: spec.line, ...(spec.column !== undefined ? { column: spec.column } : {}) } : {};
    if (value === undefined) problems.push({ path: `inputs.${name}`, ...at, message: `is required (it has no default): pass --input ${name}=VALUE` });
    else values[name] = value;
  }
  return problems.length ? { ok: false, problems } : { ok: true, values };
}

/** `NAME=VALUE` pairs from the command line; the value may itself contain "=". */
export function parseInputFlags(pairs: readonly string[]): { values: Record<string, string>; problems: string[] } {
  const values: Record<string, string> = {};
  const problems: string[] = [];
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    const name = pair.slice(0, at);
    if (at <= 0) problems.push(`--input ${JSON.stringify(pair)}: expected NAME=VALUE`);
    else if (Object.hasOwn(values, name)) problems.push(`--input ${name} is given twice: give each input once`);
    else values[name] = pair.slice(at + 1);
  }
  return { values, problems };
}
