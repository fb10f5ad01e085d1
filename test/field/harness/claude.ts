// The real Claude Code for a field test: the native binary of @anthropic-ai/claude-agent-sdk, installed apart from
// the project (`npm ci --prefix test/field`, ~450 MB), driven by test/field/driver.mjs against the scripted model, in a
// project whose settings our own `hooks install` (the built CLI) wrote.
//
// Claude Code refuses bypassPermissions as root, and CI runs as root: there the driver runs as `nobody` (setpriv) in
// a private mount namespace (unshare -m), where test/field is bind-mounted into the run's folder (a CI clone may sit
// in a folder only root can enter) and a scenario's read-only folders are read-only bind mounts. As any other user
// it runs as itself, without a namespace. Every run has a deadline: the whole process group is killed at it.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, chown, mkdir, readdir, writeFile } from "node:fs/promises";
import { arch, platform } from "node:os";
import { dirname, join } from "node:path";
import { describe } from "vitest";
import { ROOT, runCli, tempDir } from "../../helpers/cli.js";
import { needs } from "../../helpers/needs.js";
import { IS_ROOT, otherUserCli } from "../../helpers/unprivileged.js";

export const FIELD_DIR = join(ROOT, "test", "field");
const SDK = join(FIELD_DIR, "node_modules", "@anthropic-ai", "claude-agent-sdk", "sdk.mjs");
const BINARY = join(FIELD_DIR, "node_modules", "@anthropic-ai", `claude-agent-sdk-${platform()}-${arch()}`, "claude");
const NOBODY = 65534;
const INSTALL = "npm ci --prefix test/field (as .ci/run does; ~450 MB, the SDK and its native Claude Code binary)";

/** Why the field tests cannot run here, or undefined when they can. */
export function fieldUnavailable(): string | undefined {
  if (!existsSync(SDK)) return `@anthropic-ai/claude-agent-sdk is not installed under test/field: run ${INSTALL}`;
  if (!existsSync(BINARY)) return `the SDK's Claude Code binary for ${platform()}-${arch()} is missing (${BINARY}): run ${INSTALL}`;
  return undefined;
}

/**
 * A describe block for field scenarios: without the SDK its tests are registered as skipped, with one more test
 * naming what is missing and the install command (test/helpers/needs.ts): skipped outside CI, failing under CI=true.
 */
export function describeField(name: string, body: () => void): void {
  describe(name, () => {
    const has = needs("the real Claude Code", fieldUnavailable());
    describe.skipIf(!has)("with the real Claude Code", body);
  });
}

export interface Project {
  /** The run's folder: home/, project/, bin/, tmp/. */
  readonly root: string;
  /** The Claude Code project: the session's cwd, with .claude/settings.json from `hooks install`. */
  readonly dir: string;
  readonly home: string;
  readonly bin: string;
  readonly installOutput: string;
}

/** A fresh project the unprivileged user owns, its hooks installed by `skip-summary hooks install` (the built CLI). */
export async function makeProject(options: { install?: readonly string[] | false; config?: string; dirs?: readonly string[] } = {}): Promise<Project> {
  const root = await tempDir("skip-summary-field-");
  await chmod(root, 0o755);
  const dir = join(root, "project");
  const home = join(root, "home");
  const bin = join(root, "bin");
  for (const d of [dir, home, bin, join(root, "tmp"), join(root, "field"), ...(options.dirs ?? []).map((d) => join(root, d))]) await mkdir(d, { recursive: true });
  const { cli } = await otherUserCli();
  await writeFile(join(bin, "skip-summary"), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`, { mode: 0o755 });
  if (options.config !== undefined) await writeFile(join(dir, "skip-summary.config.json"), options.config);
  let installOutput = "";
  if (options.install !== false) {
    const r = await runCli(["hooks", "install", "--settings", join(dir, ".claude", "settings.json"), ...(options.install ?? [])], { cwd: dir });
    if (r.code !== 0) throw new Error(`hooks install exited ${r.code}: ${r.stderr}`);
    installOutput = r.stdout + r.stderr;
  }
  if (IS_ROOT) await chownTree(root, NOBODY);
  await chmod(join(root, "tmp"), 0o700);
  return { root, dir, home, bin, installOutput };
}

async function chownTree(path: string, uid: number): Promise<void> {
  await chown(path, uid, uid);
  for (const entry of await readdir(path, { withFileTypes: true })) {
    if (entry.isDirectory()) await chownTree(join(path, entry.name), uid);
    else await chown(join(path, entry.name), uid, uid);
  }
}

/** One line the driver printed: an SDK message, or the driver's own event. */
export interface DriverLine {
  readonly at: number;
  readonly kind: "sdk" | "driver";
  readonly type?: string;
  readonly subtype?: string;
  readonly event?: string;
  readonly hook_event?: string;
  readonly hook_id?: string;
  readonly stdout?: string;
  readonly stderr?: string;
  readonly exit_code?: number;
  readonly outcome?: string;
  readonly version?: string;
  readonly is_error?: boolean;
  readonly result?: string;
  readonly subagent?: boolean;
  readonly content?: unknown;
  readonly raw?: Record<string, unknown>;
  readonly error?: string;
}

export interface HookRun {
  readonly event: string;
  readonly started: number;
  readonly ended: number;
  readonly exitCode: number | undefined;
  readonly outcome: string | undefined;
  readonly stdout: string;
  readonly stderr: string;
}

export interface ClaudeRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly lines: DriverLine[];
  readonly stderr: string;
  readonly version: string | undefined;
  /** Each hook run Claude Code reported (hook_started, hook_response), in order of its end. */
  readonly hooks: HookRun[];
  readonly results: DriverLine[];
  /** When the driver pushed prompt n (1-based). */
  promptAt(n: number): number | undefined;
}

export interface RunOptions {
  readonly model: { readonly url: string };
  readonly prompts: readonly string[];
  readonly env?: Record<string, string>;
  /** End the session once these hooks reported (default: 300 ms after the last result), or when end() is called. */
  readonly endWhen?: { readonly hookEvents?: readonly string[] } | "end()";
  readonly holdOpenMs?: number;
  /** Folders mounted read-only for the agent (root only: a bind mount in its own mount namespace). */
  readonly readOnly?: readonly string[];
  readonly timeoutMs?: number;
  readonly options?: Record<string, unknown>;
}

/** Runs one session of the real Claude Code in `project`, to its end or its deadline. */
export async function runClaude(project: Project, run: RunOptions): Promise<ClaudeRun> {
  return (await startClaude(project, run)).done;
}

export interface LiveClaude {
  /** The driver's lines so far. */
  readonly lines: readonly DriverLine[];
  /** Ends the session's input, as a host does when it has nothing more to say (endWhen: "end()"). */
  end(): void;
  readonly done: Promise<ClaudeRun>;
}

/** Starts one session of the real Claude Code in `project`; it ends as `run.endWhen` says, or at its deadline. */
export async function startClaude(project: Project, run: RunOptions): Promise<LiveClaude> {
  if ((run.readOnly ?? []).length > 0 && !IS_ROOT) throw new Error("a read-only bind mount needs root (CI runs as root)");
  const fieldDir = IS_ROOT ? join(project.root, "field") : FIELD_DIR;
  const configFile = join(project.root, "driver-config.json");
  await writeFile(configFile, JSON.stringify({ cwd: project.dir, prompts: run.prompts, endWhen: run.endWhen === "end()" ? { stdin: true } : run.endWhen, holdOpenMs: run.holdOpenMs, options: run.options }));
  const env: Record<string, string> = {
    PATH: [project.bin, dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
    HOME: project.home,
    LANG: "C.UTF-8",
    TMPDIR: join(project.root, "tmp"),
    CLAUDE_CODE_TMPDIR: join(project.root, "tmp"),
    ANTHROPIC_BASE_URL: run.model.url,
    ANTHROPIC_API_KEY: "sk-ant-field-test-dummy",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    ...run.env,
  };
  const driver = [process.execPath, join(fieldDir, "driver.mjs"), configFile];
  const asNobody = ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "env", "-i", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...driver];
  // In the namespace: test/field on the run's own folder, each read-only folder bound onto itself read-only, then the
  // driver as nobody. "$@" carries the command, so no value is ever parsed by the shell.
  const mounts = [`mount --bind "$0" "${fieldDir}"`, ...(run.readOnly ?? []).map((d) => `mount --bind "${d}" "${d}" && mount -o remount,ro,bind "${d}"`)];
  const [command, args] = IS_ROOT
    ? ["unshare", ["-m", "--propagation", "private", "sh", "-ec", `${mounts.join("\n")}\nexec "$@"`, FIELD_DIR, ...asNobody]]
    : [driver[0]!, driver.slice(1)];
  const child = spawn(command as string, args as string[], { cwd: project.root, env: IS_ROOT ? { PATH: process.env.PATH ?? "/usr/bin:/bin" } : env, stdio: ["pipe", "pipe", "pipe"], detached: true });
  if (run.endWhen !== "end()") child.stdin.end();
  const lines: DriverLine[] = [];
  let buffered = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    buffered += d;
    for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
      const line = buffered.slice(0, i);
      buffered = buffered.slice(i + 1);
      try {
        lines.push(JSON.parse(line) as DriverLine);
      } catch {
        stderr += `(stdout) ${line}\n`;
      }
    }
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  let timedOut = false;
  const killGroup = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup();
  }, run.timeoutMs ?? 90_000);
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (c, s) => resolve({ code: c, signal: s }));
  }).then(({ code, signal }) => {
    clearTimeout(timer);
    killGroup(); // hooks or subagents left behind by the session end with it
    return summarize(lines, { code, signal, timedOut, stderr });
  });
  return { lines, end: () => child.stdin.end(), done };
}

function summarize(lines: DriverLine[], end: { code: number | null; signal: NodeJS.Signals | null; timedOut: boolean; stderr: string }): ClaudeRun {
  const started = new Map<string, number>();
  const hooks: HookRun[] = [];
  for (const l of lines) {
    if (l.subtype === "hook_started" && l.hook_id) started.set(l.hook_id, l.at);
    if (l.subtype === "hook_response") {
      hooks.push({ event: l.hook_event ?? "?", started: started.get(l.hook_id ?? "") ?? l.at, ended: l.at, exitCode: l.exit_code, outcome: l.outcome, stdout: l.stdout ?? "", stderr: l.stderr ?? "" });
    }
  }
  return {
    ...end,
    lines,
    hooks,
    version: lines.find((l) => l.subtype === "init")?.version,
    results: lines.filter((l) => l.type === "result"),
    promptAt: (n) => lines.find((l) => l.kind === "driver" && l.event === "prompt" && (l as { n?: number }).n === n)?.at,
  };
}

/** A readable account of a run, for an assertion's message. */
export function transcript(run: ClaudeRun): string {
  const t0 = run.lines[0]?.at ?? 0;
  const shown = run.lines.map((l) => `${String(l.at - t0).padStart(6)} ${JSON.stringify({ ...l, at: undefined }).slice(0, 400)}`);
  return [`exit ${run.code} signal ${run.signal}${run.timedOut ? " (timed out)" : ""}`, ...shown, `stderr: ${run.stderr.slice(-3000)}`].join("\n");
}
