// docs/errors.md, "At the CLI's edge": four of `emit --json`'s error names and codes are the Python helper's
// exception classes, so a skill's check reads the same from either writer. Each case fails both writers the same
// way in real folders (the built CLI and python3) and compares what they name it; the three CLI-only names have no
// Python class, and a bad link, which the CLI calls LinkUrlError, is Python's SummaryValidationError.
import { symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../helpers/cli.js";
import { pythonAvailable, runPython } from "./helpers.js";

const HAS_PYTHON = pythonAvailable();

/** The error Python raises for emit_skip(<args>), as {name, code, exit_code, kind}, or "ok". */
async function pythonError(args: string, env: Record<string, string> = {}): Promise<unknown> {
  const r = await runPython(
    [
      "import json, skip_summary",
      "try:",
      `    skip_summary.emit_skip(${args})`,
      "    print('ok')",
      "except skip_summary.SkipSummaryError as e:",
      "    print(json.dumps({'name': type(e).__name__, 'code': e.code, 'exit_code': e.exit_code, 'kind': getattr(e, 'kind', None)}))",
    ].join("\n"),
    { env },
  );
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout);
}

async function cliError(args: string[], env: Record<string, string> = {}): Promise<unknown> {
  const r = await runCli(["emit", ...args, "--json"], { env });
  const out = JSON.parse(r.stdout) as { exit_code: number; error: { name: string; code: string; kind?: string } };
  expect(out.exit_code).toBe(r.code);
  return { name: out.error.name, code: out.error.code, exit_code: out.exit_code, kind: out.error.kind ?? null };
}

describe.skipIf(!HAS_PYTHON).concurrent("emit --json and the Python helper name an error alike", () => {
  it("an invalid summary, a bad skill id, no workspace, a link at the summary's name", async () => {
    const ws = await tempDir();
    await symlink("/etc/hostname", join(ws, ".skip-summary-tessl__linked.json"));
    // No workspace: neither flag nor env, and a cwd that is no workspace (/workspace/* do not exist on test machines).
    const cases: [string, string, string[]][] = [
      ["INVALID_SUMMARY", `"tessl__a", step=1, reason="two\\nlines", workspace=${JSON.stringify(ws)}`, ["--skill", "tessl__a", "--step", "1", "--reason", "two\nlines", "--workspace", ws]],
      ["INVALID_SKILL_ID", `"bad/id", step=1, reason="r", workspace=${JSON.stringify(ws)}`, ["--skill", "bad/id", "--step", "1", "--reason", "r", "--workspace", ws]],
      ["NO_WORKSPACE", `"tessl__a", step=1, reason="r"`, ["--skill", "tessl__a", "--step", "1", "--reason", "r"]],
      ["SUMMARY_WRITE_FAILED", `"tessl__linked", step=1, reason="r", workspace=${JSON.stringify(ws)}`, ["--skill", "tessl__linked", "--step", "1", "--reason", "r", "--workspace", ws]],
    ];
    for (const [code, py, cli] of cases) {
      const [fromPython, fromCli] = await Promise.all([pythonError(py), cliError(cli)]);
      expect(fromCli, code).toEqual(fromPython);
      expect(fromCli, code).toMatchObject({ code });
    }
  });

  it("a link the notice may not carry: the CLI's LinkUrlError, Python's SummaryValidationError, both 65", async () => {
    const ws = await tempDir();
    const fromPython = await pythonError(`"tessl__a", step=1, reason="r", links=[("Fix", "javascript:alert(1)")], workspace=${JSON.stringify(ws)}`);
    const fromCli = await cliError(["--skill", "tessl__a", "--step", "1", "--reason", "r", "--link", "Fix=javascript:alert(1)", "--workspace", ws]);
    expect(fromPython).toEqual({ name: "SummaryValidationError", code: "INVALID_SUMMARY", exit_code: 65, kind: null });
    expect(fromCli).toEqual({ name: "LinkUrlError", code: "INVALID_LINK", exit_code: 65, kind: null });
  });
});
