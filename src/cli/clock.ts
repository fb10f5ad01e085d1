// Tests of the built CLI need a clock they control (silences that end, quiet hours, nights in a row).
// SKIP_SUMMARY_NOW is honoured only under NODE_ENV=test (vitest sets it), so a stray variable in a real
// environment can never move an owner's silences or quiet hours.
export const NOW_ENV = "SKIP_SUMMARY_NOW";

export function cliClock(env: Readonly<Record<string, string | undefined>>): () => Date {
  const fixed = env[NOW_ENV];
  if (fixed !== undefined && env.NODE_ENV === "test") {
    const at = Date.parse(fixed);
    if (!Number.isNaN(at)) return () => new Date(at);
  }
  return () => new Date();
}
