// Plan tests write a plan into a fresh folder and run the CLI on it (in process; `runSpawned` for the built CLI),
// with shell fixture steps recording a trace.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ROOT, runCli, tempDir, type CliResult } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";

export const STEPS = join(ROOT, "test", "fixtures", "plans", "steps");
export const step = (script: string) => join(STEPS, script);

export interface PlanSandbox {
  readonly dir: string;
  readonly workspace: string;
  readonly trace: string;
  readonly env: Record<string, string>;
  /** Writes `text` as plan.yaml (or another name) and returns its path. */
  write(text: string, name?: string): Promise<string>;
  run(args: readonly string[], options?: { env?: Record<string, string>; timeoutMs?: number }): Promise<CliResult>;
  /** As `run`, through the built CLI: for what only the real process shows (the steps' inherited stdout). */
  runSpawned(args: readonly string[], options?: { env?: Record<string, string>; timeoutMs?: number }): Promise<CliResult>;
  /** The lines the steps recorded, in order. */
  lines(): Promise<string[]>;
  failures(): Promise<Record<string, unknown>[]>;
  summary(skill?: string): Promise<Record<string, unknown> | undefined>;
}

export async function sandbox(): Promise<PlanSandbox> {
  const dir = await tempDir("skip-summary-plan-test-");
  const workspace = join(dir, "ws");
  const state = join(dir, "state");
  await mkdir(workspace);
  await mkdir(state);
  const trace = join(dir, "trace.txt");
  const env = { TRACE: trace, STATE_DIR: state, SKIP_SUMMARY_WORKSPACE: workspace };
  return {
    dir,
    workspace,
    trace,
    env,
    async write(text, name = "plan.yaml") {
      const path = join(dir, name);
      await writeFile(path, text);
      return path;
    },
    run: (args, options = {}) => runCliInProcess(["run", ...args], { cwd: dir, env: { ...env, ...options.env }, timeoutMs: options.timeoutMs ?? 20_000 }),
    runSpawned: (args, options = {}) => runCli(["run", ...args], { cwd: dir, env: { ...env, ...options.env }, timeoutMs: options.timeoutMs ?? 20_000 }),
    async lines() {
      try {
        return (await readFile(trace, "utf8")).split("\n").filter((l) => l !== "");
      } catch {
        return [];
      }
    },
    async failures() {
      try {
        return (await readFile(join(workspace, ".skip-summary-failures.jsonl"), "utf8"))
          .split("\n")
          .filter((l) => l !== "")
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      } catch {
        return [];
      }
    },
    async summary(skill = "tessl__plan-test") {
      try {
        return JSON.parse(await readFile(join(workspace, `.skip-summary-${skill}.json`), "utf8")) as Record<string, unknown>;
      } catch {
        return undefined;
      }
    },
  };
}

/** A step line for YAML: `{ name: X, run: [".../step.sh", X, ...args] }` plus extra fields. */
export function stepYaml(name: string, script: string, args: readonly string[] = [], extra = ""): string {
  const run = JSON.stringify([step(script), name, ...args]);
  return `{ name: ${name}, run: ${run}${extra ? `, ${extra}` : ""} }`;
}
