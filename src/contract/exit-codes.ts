// The exit-code contract (docs/exit-codes.md) in one place: the runner, the owner side, the CLI and the command
// notifier all speak it, so its numbers and names live beside the file contract.

/** The skill stopped blocked: a policy skip, explained by the skill. */
export const EXIT_BLOCKED = 2;
export const EX_USAGE = 64;
export const EX_DATAERR = 65;
export const EX_SOFTWARE = 70;
export const EX_CANTCREAT = 73;
/** A transient or technical failure: the only sysexits code worth retrying. */
export const EX_TEMPFAIL = 75;
export const EXIT_NOT_EXECUTABLE = 126;
export const EXIT_NOT_FOUND = 127;

/** BSD sysexits(3): the codes 64–78 and their names. */
export const SYSEXITS: Readonly<Record<number, string>> = Object.freeze({
  64: "EX_USAGE",
  65: "EX_DATAERR",
  66: "EX_NOINPUT",
  67: "EX_NOUSER",
  68: "EX_NOHOST",
  69: "EX_UNAVAILABLE",
  70: "EX_SOFTWARE",
  71: "EX_OSERR",
  72: "EX_OSFILE",
  73: "EX_CANTCREAT",
  74: "EX_IOERR",
  75: "EX_TEMPFAIL",
  76: "EX_PROTOCOL",
  77: "EX_NOPERM",
  78: "EX_CONFIG",
});

export function sysexitName(code: number): string | undefined {
  return SYSEXITS[code];
}

/** A sysexits code that says the input or setup is wrong (64–78 except 75): retrying cannot help. */
export function isPermanentSysexit(code: number): boolean {
  return code >= 64 && code <= 78 && code !== EX_TEMPFAIL;
}
