// Every row of docs/exit-codes.md's "Exit codes of each command" (src/cli/exit-codes.ts) is an exit a user can meet:
// one real invocation per row reaches it, in real folders. A row added to the table without a way to reach it, or a
// row no invocation can reach any more, fails here. The `bug` rows need a fault injected at the start of a built CLI
// process (a TypeError from fs.readFile, as a bug of ours would throw), so they run as child processes.
import { cp, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXIT_CODES, type CommandName } from "../../src/cli/exit-codes.js";
import { ROOT, runCli, tempDir, type CliResult } from "../helpers/cli.js";
import { runCliInProcess } from "../helpers/in-process.js";
import { startServer } from "../notifiers/helpers.js";
import { processFixture } from "../process/helpers.js";

const SUMMARY = { schema_version: 1, skill: "tessl__a", step: 1, reason: "r", items: [], technical_failure: false, occurred_at: "2026-11-22T18:04:05Z" };

/** A workspace with one waiting summary of tessl__a. */
async function waiting(): Promise<string> {
  const ws = await tempDir();
  await writeFile(join(ws, ".skip-summary-tessl__a.json"), JSON.stringify(SUMMARY));
  return ws;
}

async function config(content: unknown): Promise<string> {
  const file = join(await tempDir(), "skip-summary.config.json");
  await writeFile(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
}

/** The example tile (it passes the lint), with one more file. */
async function tileWith(name: string, content: string): Promise<string> {
  const dir = join(await tempDir(), "tile");
  await cp(join(ROOT, "examples", "tile"), dir, { recursive: true });
  await writeFile(join(dir, name), content);
  return dir;
}

const run = (args: readonly string[], options: Parameters<typeof runCliInProcess>[1] = {}) => runCliInProcess(args, options);
const emitArgs = (ws: string) => ["emit", "--skill", "tessl__a", "--step", "1", "--reason", "r", "--workspace", ws];

// command -> outcome (but bug) -> one invocation that ends on that row.
const REACH: { readonly [C in CommandName]: Readonly<Record<Exclude<keyof (typeof EXIT_CODES)[C], "bug">, () => Promise<CliResult>>> } = {
  emit: {
    written: async () => run(emitArgs(await tempDir())),
    usage: async () => run(["emit", "--step", "1", "--reason", "r", "--workspace", await tempDir()]),
    "bad-data": async () => run([...emitArgs(await tempDir()), "--reason", "two\nlines"]),
    "cannot-write": async () => {
      const ws = await tempDir();
      await mkdir(join(ws, ".skip-summary-tessl__a.json"));
      return run(emitArgs(ws));
    },
  },
  validate: {
    valid: async () => run(["validate", join(await waiting(), ".skip-summary-tessl__a.json")]),
    invalid: async () => {
      const ws = await tempDir();
      await writeFile(join(ws, ".skip-summary-tessl__a.json"), JSON.stringify({ ...SUMMARY, reason: "" }));
      return run(["validate", join(ws, ".skip-summary-tessl__a.json")]);
    },
    usage: () => run(["validate"]),
  },
  schema: { printed: () => run(["schema"]), usage: () => run(["schema", "extra"]) },
  surface: {
    sent: async () => run(["surface", "--workspace", await waiting(), "--notify", "stdout"]),
    // Nothing configured, stdout not a terminal, no NanoClaw host here: no notifier would reach a person.
    "not-sent": async () => run(["surface", "--workspace", await waiting()]),
    usage: async () => run(["surface", "--workspace", join(await tempDir(), "missing")]),
    "hook-usage": async () => run(["surface", "--hook-input", "--workspace", await tempDir()], { input: "not json" }),
  },
  history: {
    shown: async () => run(["history", "--workspace", await tempDir()]),
    "file-set-aside": async () => {
      const ws = await tempDir();
      await mkdir(join(ws, ".skip-summary-ledger"));
      await writeFile(join(ws, ".skip-summary-ledger", "tessl__a.json"), "{ not json");
      return run(["history", "--workspace", ws]);
    },
    usage: async () => run(["history", "--workspace", await tempDir(), "--since", "forever"]),
  },
  silence: {
    done: async () => run(["silence", "add", "--workspace", await tempDir(), "--skill", "a", "--for", "1d", "--comment", "known"]),
    "no-such-silence": async () => run(["silence", "expire", "f00dbabe", "--workspace", await tempDir()]),
    "file-set-aside": async () => {
      const ws = await tempDir();
      await mkdir(join(ws, ".skip-summary-ledger"));
      await writeFile(join(ws, ".skip-summary-ledger", "_silences.json"), "{ not json");
      return run(["silence", "list", "--workspace", ws]);
    },
    full: async () => {
      const ws = await tempDir();
      await mkdir(join(ws, ".skip-summary-ledger"));
      const now = new Date().toISOString();
      const ends = new Date(Date.now() + 86_400_000).toISOString();
      const silences = Array.from({ length: 100 }, (_, i) => ({ id: `s${String(i).padStart(7, "0")}`, skill: "tessl__a", comment: "c", created_at: now, ends_at: ends }));
      await writeFile(join(ws, ".skip-summary-ledger", "_silences.json"), JSON.stringify({ version: 1, silences }));
      return run(["silence", "add", "--workspace", ws, "--skill", "a", "--for", "1d", "--comment", "one more"]);
    },
    usage: async () => run(["silence", "add", "--workspace", await tempDir(), "--skill", "a", "--comment", "no period"]),
    // A folder where the silences' lock file goes: the durable-file layer refuses it (as root, a mode would not).
    "cannot-write": async () => {
      const ws = await tempDir();
      await mkdir(join(ws, ".skip-summary-ledger", "_silences.json.lock"), { recursive: true });
      return run(["silence", "add", "--workspace", ws, "--skill", "a", "--for", "1d", "--comment", "known"]);
    },
  },
  hooks: {
    done: async () => run(["hooks", "install", "--settings", join(await tempDir(), "settings.json")]),
    usage: async () => run(["hooks", "install", "--settings", join(await tempDir(), "settings.json"), "--event", "Bogus"]),
    "bad-settings": async () => {
      const settings = join(await tempDir(), "settings.json");
      await writeFile(settings, "{ not json");
      return run(["hooks", "install", "--settings", settings]);
    },
    "cannot-write": async () => run(["hooks", "install", "--settings", join(await tempDir(), "no", "such", "settings.json")]),
  },
  check: {
    passed: async () => run(["check", "--offline", "--workspace", await tempDir(), "--config", await config({ notify: { notifiers: { hook: { type: "webhook", url: "http://127.0.0.1:9/" } } } })]),
    failed: async () => run(["check", "--offline", "--workspace", join(await tempDir(), "*", "nothing-here"), "--notify", "stdout"]),
    usage: () => run(["check", "--bogus"]),
    "config-invalid": async () => run(["check", "--offline", "--workspace", await tempDir(), "--config", await config({ notfy: {} })]),
  },
  notify: {
    sent: async () => {
      const server = await startServer(() => ({ status: 200 }));
      return run(["notify", "--test", "--workspace", await tempDir(), "--config", await config({ notify: { notifiers: { hook: { type: "webhook", url: server.url } } } })]);
    },
    "not-sent": async () => {
      const server = await startServer(() => ({ status: 500, body: "down" }));
      return run(["notify", "--test", "--workspace", await tempDir(), "--config", await config({ notify: { retries: 0, notifiers: { hook: { type: "webhook", url: server.url } } } })]);
    },
    usage: () => run(["notify"]),
  },
  lint: {
    clean: () => run(["lint", join(ROOT, "examples", "tile")]),
    findings: async () => run(["lint", await tileWith(".skip-summary-tessl__check-cfps.json", JSON.stringify({ ...SUMMARY, skill: "tessl__check-cfps" }))]),
    usage: () => run(["lint", "--format", "bogus"]),
  },
  helper: { printed: () => run(["helper", "python"]), usage: () => run(["helper", "cobol"]) },
  run: {
    usage: () => run(["run", "--skill", "tessl__a", "true"]),
    "plan-invalid": async () => {
      const plan = join(await tempDir(), "plan.yaml");
      await writeFile(plan, "skill: tessl__a\nsteps: 3\n");
      return run(["run", "--plan", plan]);
    },
  },
  "skip-summary": { usage: () => run(["no-such-command"]) },
};

// What each invocation says, so a row is reached for the reason its case means (not by some other error).
const WHY: Record<string, string> = {
  "emit written": ".skip-summary-tessl__a.json",
  "emit usage": "required option '--skill <id>' not specified",
  "emit bad-data": "reason: must be one line",
  "emit cannot-write": "it is a directory, not a regular file",
  "validate valid": "ok ",
  "validate invalid": "invalid ",
  "validate usage": "missing required argument 'file'",
  "schema printed": '"$schema"',
  "schema usage": "too many arguments for 'schema'",
  "surface sent": "1 sent",
  "surface not-sent": "no notifier is configured",
  "surface usage": "missing: no such folder",
  "surface hook-usage": "--hook-input: stdin is not valid JSON",
  "history shown": "nothing in the ledger yet",
  "history file-set-aside": "tessl__a.json cannot be read",
  "history usage": '--since: "forever" is not a period',
  "silence done": "added: tessl__a muted until",
  "silence no-such-silence": 'no silence with id "f00dbabe"',
  "silence file-set-aside": "_silences.json cannot be read",
  "silence full": "100 silences are in effect or still to be reported already",
  "silence usage": "silence add needs --for PERIOD",
  "silence cannot-write": "_silences.json.lock: it is a directory",
  "hooks done": "installed skip-summary surface --hook-input",
  "hooks usage": '--event "Bogus" is not a hook event',
  "hooks bad-settings": "is not valid JSON",
  "hooks cannot-write": "cannot write",
  "check passed": "sections: notify",
  "check failed": "nothing-here",
  "check usage": "unknown option '--bogus'",
  "check config-invalid": "notfy: is not a section of the config",
  "notify sent": "sent via hook",
  "notify not-sent": "not sent via hook",
  "notify usage": "add --test",
  "lint clean": "no problems",
  "lint findings": "stale-summary-file",
  "lint usage": '--format: expected one of',
  "helper printed": "def emit_skip",
  "helper usage": 'no helper for "cobol"',
  "run usage": "put -- before the skill's command",
  "run plan-invalid": "invalid plan, nothing was run",
  "skip-summary usage": "unknown command 'no-such-command'",
};

const rows = Object.entries(EXIT_CODES).flatMap(([command, outcomes]) =>
  Object.entries(outcomes).map(([outcome, code]) => [command as CommandName, outcome, code] as const),
);

describe("every row of the exit-code table is reached", () => {
  it("REACH names exactly the table's rows but bug", () => {
    const reach = Object.entries(REACH).flatMap(([command, outcomes]) => Object.keys(outcomes).map((outcome) => `${command} ${outcome}`));
    expect(reach).toEqual(rows.filter(([, outcome]) => outcome !== "bug").map(([command, outcome]) => `${command} ${outcome}`));
  });

  it.concurrent.each(rows.filter(([, outcome]) => outcome !== "bug"))("%s %s: %i", async (command, outcome, code) => {
    const r = await (REACH[command] as Record<string, () => Promise<CliResult>>)[outcome]!();
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).not.toContain("internal error");
    expect(r.stdout + r.stderr, "why").toContain(WHY[`${command} ${outcome}`]);
  });

  // One invocation per command, in the built CLI, with fs.readFile turned into a bug: 70, "internal error", no stack.
  it("bug: every command ends a bug of ours with 70 and says so", async () => {
    const env = { NODE_OPTIONS: `--import=${processFixture("throw-in-fs.mjs")}`, INJECT_FS_THROW: "readFile" };
    const ws = await waiting();
    const invocations: Record<CommandName, string[]> = {
      emit: ["emit", "--skill", "tessl__a", "--step", "1", "--reason", "r", "--workspace", ws],
      validate: ["validate", join(ws, ".skip-summary-tessl__a.json")],
      schema: ["schema"],
      surface: ["surface", "--workspace", ws, "--dry-run", "--notify", "stdout"],
      history: ["history", "--workspace", ws],
      silence: ["silence", "list", "--workspace", ws],
      hooks: ["hooks", "install", "--settings", join(ws, "settings.json"), "--dry-run"],
      check: ["check", "--offline", "--workspace", ws, "--notify", "stdout"],
      notify: ["notify", "--test", "--notify", "stdout", "--workspace", ws],
      lint: ["lint", join(ROOT, "examples", "tile")],
      helper: ["helper", "python"],
      run: ["run", "--skill", "tessl__a", "--workspace", ws, "--", "true"],
      "skip-summary": ["--version"],
    };
    expect(Object.keys(invocations)).toEqual(rows.filter(([, outcome]) => outcome === "bug").map(([command]) => command));
    const entries = Object.entries(invocations);
    // Two at a time: each is a Node start.
    for (let i = 0; i < entries.length; i += 2) {
      const results = await Promise.all(entries.slice(i, i + 2).map(async ([command, args]) => [command, await runCli(args, { env })] as const));
      for (const [command, r] of results) {
        expect(r.code, `${command}: ${r.stderr}`).toBe(EXIT_CODES[command as CommandName].bug);
        expect(r.stderr, command).toMatch(/internal error: injected: readFile is not a function of this world/);
        expect(r.stderr, command).not.toMatch(/\n\s+at /);
      }
    }
  });
});
