// Issue 10: `skip-summary surface --hook-input` fed a Stop event, with an empty workspace (the common case: most turns
// end with nothing waiting), against `node -e 0` in the same run. Target: at most 1.5x, in this machine's environment
// and in a clean one. Also a PostToolUse event on Bash (the "any tool" hook, which runs after every tool call).
// The event is piped by a shell, as Claude Code pipes it; `sh -c ':'` is measured too, so the shell's share shows.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, ENVIRONMENTS, compareCommands, report } from "./lib.mjs";

const ws = mkdtempSync(join(tmpdir(), "bench-hook-"));
const aux = mkdtempSync(join(tmpdir(), "bench-hook-events-"));
const base = { session_id: "s", transcript_path: "/dev/null", cwd: ws, permission_mode: "bypassPermissions" };
const stopFile = join(aux, "stop.json");
const bashFile = join(aux, "bash.json");
writeFileSync(stopFile, JSON.stringify({ ...base, hook_event_name: "Stop", stop_hook_active: false }));
writeFileSync(bashFile, JSON.stringify({ ...base, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: {}, tool_use_id: "t" }));
const viaShell = (file) => ["/bin/sh", ["-c", `exec "${process.execPath}" "${CLI}" surface --hook-input < "${file}"`]];
for (const { label, env } of ENVIRONMENTS) {
  const [baseline, shell, stop, bash] = compareCommands(
    [
      [process.execPath, ["-e", "0"], { env }],
      ["/bin/sh", ["-c", `exec "${process.execPath}" -e 0 < "${stopFile}"`], { env }],
      [...viaShell(stopFile), { env }],
      [...viaShell(bashFile), { env }],
    ],
    { runs: Number(process.env.BENCH_RUNS ?? 30) },
  );
  const ratio = (m, to = baseline) => `${m.median.toFixed(1)} ms (${(m.median / to.median).toFixed(2)}x)`;
  report(`surface --hook-input, empty workspace (median of interleaved runs), ${label}`, [
    ["node -e 0 (baseline)", `${baseline.median.toFixed(1)} ms`],
    ["sh -c 'exec node -e 0 < event' (the shell's share)", ratio(shell)],
    ["Stop event", `${ratio(stop)}, target <= 1.5x; ${(stop.median / shell.median).toFixed(2)}x of the same shell line`],
    ["PostToolUse event on Bash", ratio(bash)],
  ]);
}
rmSync(ws, { recursive: true, force: true });
rmSync(aux, { recursive: true, force: true });
