// `{{ inputs.NAME }}` is replaced inside one argument, as text: there is no shell and nothing is ever evaluated.

const TEMPLATE = /\{\{([^}]*)\}\}/g;
const INPUT_REF = /^\s*inputs\.([A-Za-z_][A-Za-z0-9_-]*)\s*$/;

/** What is wrong with the templates in one argument, given the declared input names. */
export function templateProblems(arg: string, inputs: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const match of arg.matchAll(TEMPLATE)) {
    const ref = INPUT_REF.exec(match[1] ?? "");
    if (!ref) {
      problems.push(`${JSON.stringify(match[0])} is not a template this runner knows; only {{ inputs.NAME }} is replaced`);
    } else if (!inputs.has(ref[1] as string)) {
      const known = [...inputs].join(", ") || "none";
      problems.push(`unknown input ${JSON.stringify(ref[1])} (declared inputs: ${known}); declare it under inputs:`);
    }
  }
  return problems;
}

/** The argument with every `{{ inputs.NAME }}` replaced by the value, verbatim. Unknown names were rejected at load. */
export function substitute(arg: string, values: Readonly<Record<string, string>>): string {
  return arg.replace(TEMPLATE, (whole, inner: string) => {
    const ref = INPUT_REF.exec(inner);
    const value = ref ? values[ref[1] as string] : undefined;
    if (value === undefined) throw new Error(`unresolved template ${whole}`);
    return value;
  });
}

export function substituteArgv(argv: readonly string[], values: Readonly<Record<string, string>>): string[] {
  return argv.map((arg) => substitute(arg, values));
}
