// Issue 4: `skip-summary surface` once mode (the after-skill hook) on an empty workspace, against `node -e 0`
// (target within 1.5x), plus a hook event for another tool, and one waiting summary through the stdout notifier.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, ENVIRONMENTS, compareCommands, report } from "./lib.mjs";

const ws = mkdtempSync(join(tmpdir(), "bench-surface-"));
const bashEvent = JSON.stringify({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" } });
const hookFile = join(ws, "..", `${ws.split("/").pop()}-event.json`);
writeFileSync(hookFile, bashEvent);
for (const { label, env } of ENVIRONMENTS) {
  const [baseline, empty, skill, hookOther, version] = compareCommands(
    [
      [process.execPath, ["-e", "0"], { env }],
      [process.execPath, [CLI, "surface", "--workspace", ws], { env }],
      [process.execPath, [CLI, "surface", "--workspace", ws, "--skill", "check-cfps"], { env }],
      ["/bin/sh", ["-c", `"${process.execPath}" "${CLI}" surface --hook-input --workspace "${ws}" < "${hookFile}"`], { env }],
      // The floor any command pays: node, the CLI entry and commander.
      [process.execPath, [CLI, "--version"], { env }],
    ],
    { runs: Number(process.env.BENCH_RUNS ?? 30) },
  );
  const ratio = (m) => `${m.median.toFixed(1)} ms (${(m.median / baseline.median).toFixed(2)}x)`;
  report(`skip-summary surface once mode, empty workspace (median of interleaved runs), ${label}`, [
    ["node -e 0 (baseline)", `${baseline.median.toFixed(1)} ms`],
    ["skip-summary --version (the CLI's floor)", ratio(version)],
    ["surface --workspace DIR", `${ratio(empty)}, target <= 1.5x`],
    ["surface --workspace DIR --skill ID", ratio(skill)],
    ["sh -c 'surface --hook-input < Bash event' (incl. sh)", ratio(hookOther)],
  ]);
}
rmSync(ws, { recursive: true, force: true });
rmSync(hookFile, { force: true });
