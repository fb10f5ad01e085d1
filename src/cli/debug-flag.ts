// Whether stack traces were asked for, read before commander runs (the launcher, the fast path and the last-resort
// handler need it first). Words after `--` belong to the skill `run` starts, so its own `--debug` is not ours.

export function debugRequested(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): boolean {
  const end = argv.indexOf("--");
  return (end === -1 ? argv : argv.slice(0, end)).includes("--debug") || env.SKIP_SUMMARY_DEBUG === "1";
}
