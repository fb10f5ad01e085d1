// What `skip-summary check` reports: one line per check, each with a status, so a person reads it and CI gates on it.

/**
 * `ok` passed; `warn` works but may surprise (stdout nobody reads, a workspace on tmpfs); `fail` would keep a notice
 * from reaching someone (an unreachable webhook, an unwritable workspace, a hook that times out first); `invalid` is
 * a config error, which `surface` refuses with exit 2 (a mistyped notifier, a route to a missing one, an unset secret).
 */
export type CheckStatus = "ok" | "warn" | "fail" | "invalid";

export interface CheckLine {
  /** Which part: `config`, `route`, `notifier`, `workspace` or `hook`. */
  readonly area: "config" | "route" | "notifier" | "workspace" | "hook";
  /** What was checked: a file, a route, a notifier's name, a folder. */
  readonly subject: string;
  readonly status: CheckStatus;
  /** Why, in words; secrets never appear (the notifiers' probes are redacted). */
  readonly detail: string;
}

export interface CheckReport {
  readonly lines: readonly CheckLine[];
  /** The worst status found: `invalid` > `fail` > `warn` > `ok`. */
  readonly worst: CheckStatus;
}

const RANK: Record<CheckStatus, number> = { ok: 0, warn: 1, fail: 2, invalid: 3 };

export function worstOf(lines: readonly CheckLine[]): CheckStatus {
  return lines.reduce<CheckStatus>((w, l) => (RANK[l.status] > RANK[w] ? l.status : w), "ok");
}
