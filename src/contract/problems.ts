// One shape for "what is wrong with this summary", so the CLI, the surfacer and the lint word problems alike.

/** One problem with a summary: the field path (`items[2]`, or `(root)` for the whole document) and plain words. */
export interface Problem {
  readonly path: string;
  readonly message: string;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    out += typeof key === "number" ? `[${key}]` : out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(root)" : out;
}

export function formatProblems(problems: readonly Problem[]): string {
  return problems.map((p) => `${p.path}: ${p.message}`).join("; ");
}

export class SummaryValidationError extends Error {
  override readonly name = "SummaryValidationError";
  readonly code = "INVALID_SUMMARY";
  constructor(readonly problems: readonly Problem[]) {
    super(`invalid skip summary: ${formatProblems(problems)}`);
  }
}
