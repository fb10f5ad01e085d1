// The adversarial harness's "exit 70 only for bugs" cases (issue 24 item 3): hostile state planted in a workspace,
// then the CLI commands that meet it. no-exit-70.test.ts runs every case in ALL_CASES against the built CLI and fails
// on any exit 70, any "internal error", a hang, or a notice that did not go out.
//
// Extension point: a part adds its own list (a module of this folder exporting `Exit70Case[]`) and spreads it into
// ALL_CASES below; the runner needs no change. The hooks cases (concurrent `hooks install`, a settings file nested
// 100,000 deep, a duplicate "hooks" key, a linked .claude/) belong in such a list.
import { execFileSync } from "node:child_process";
import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { stopEvent } from "../helpers/claude-hooks.js";

export interface Exit70Run {
  /** The CLI's arguments; `ws` is the workspace, `config` a config whose notifier appends to a file. */
  readonly args: (ws: string, config: string) => string[];
  /** Piped to stdin (a hook event). */
  readonly input?: (ws: string) => string;
  /** Exit codes this run may end with (never 70). */
  readonly codes: readonly number[];
  /** A summary is planted before the run, and its notice must have gone out after it. @default false */
  readonly delivers?: boolean;
  /** A long-running command (watch): stopped with SIGTERM once this many notices went out. */
  readonly watchUntilDelivered?: boolean;
}

export interface Exit70Case {
  readonly name: string;
  /** Plants the hostile state in the workspace; run again before every run, since a run may set it aside. */
  readonly plant: (ws: string) => Promise<void>;
  readonly runs: readonly Exit70Run[];
}

const LEDGER = ".skip-summary-ledger";

// Every command that reads or writes the ledger, the journal or the silences, with the codes the docs give it.
const BOOKKEEPING_RUNS: readonly Exit70Run[] = [
  { args: (ws, config) => ["surface", "--workspace", ws, "--config", config], codes: [0], delivers: true },
  { args: (ws, config) => ["surface", "--hook-input", "--workspace", ws, "--config", config], input: (ws) => stopEvent(ws), codes: [0], delivers: true },
  { args: (ws, config) => ["surface", "--watch", "--json", "--workspace", ws, "--config", config], codes: [0], delivers: true, watchUntilDelivered: true },
  { args: (ws) => ["history", "--workspace", ws], codes: [0, 1] },
  { args: (ws) => ["history", "--workspace", ws, "--json", "--since", "7d"], codes: [0, 1] },
  { args: (ws) => ["silence", "list", "--workspace", ws], codes: [0, 1] },
  { args: (ws) => ["silence", "expire", "0123abcd", "--workspace", ws], codes: [1] },
  { args: (ws) => ["silence", "add", "--workspace", ws, "--skill", "other", "--for", "1d", "--comment", "known"], codes: [0, 1] },
];

const file = (rel: string, text: string) => async (ws: string) => {
  await mkdir(join(ws, LEDGER, rel, ".."), { recursive: true });
  await rm(join(ws, LEDGER, rel), { recursive: true, force: true });
  await writeFile(join(ws, LEDGER, rel), text);
};
const fifo = (rel: string) => async (ws: string) => {
  await mkdir(join(ws, LEDGER, rel, ".."), { recursive: true });
  await rm(join(ws, LEDGER, rel), { recursive: true, force: true });
  execFileSync("mkfifo", [join(ws, LEDGER, rel)]);
};
const BATCH = "_journal/1764000000000-host-1-abcdef.jsonl";

export const BOOKKEEPING_CASES: readonly Exit70Case[] = [
  { name: "_silences.json is not JSON", plant: file("_silences.json", "{ not json"), runs: BOOKKEEPING_RUNS },
  { name: "_silences.json has a null entry", plant: file("_silences.json", '{"version":1,"silences":[null]}'), runs: BOOKKEEPING_RUNS },
  { name: "a FIFO at _silences.json", plant: fifo("_silences.json"), runs: BOOKKEEPING_RUNS },
  {
    name: "a symlink at _silences.json",
    plant: async (ws) => {
      await mkdir(join(ws, LEDGER), { recursive: true });
      await rm(join(ws, LEDGER, "_silences.json"), { recursive: true, force: true });
      await symlink("/etc/passwd", join(ws, LEDGER, "_silences.json"));
    },
    runs: BOOKKEEPING_RUNS,
  },
  { name: "_silences.json of 300 KB", plant: file("_silences.json", JSON.stringify({ version: 1, silences: [{ id: "a", skill: "tessl__x", comment: "x".repeat(300_000), created_at: "2026-11-01T00:00:00Z", ends_at: "2026-12-01T00:00:00Z" }] })), runs: BOOKKEEPING_RUNS },
  { name: "a skill's ledger of 200 KB", plant: file("tessl__stress.json", JSON.stringify({ version: 1, skill: "tessl__stress", entries: {}, applied: [], muted_by: {}, pad: "x".repeat(200_000) })), runs: BOOKKEEPING_RUNS },
  { name: "a skill's ledger that is null", plant: file("tessl__stress.json", "null"), runs: BOOKKEEPING_RUNS },
  { name: "a journal batch that is a FIFO", plant: fifo(BATCH), runs: BOOKKEEPING_RUNS },
  { name: "a journal batch of 300 KB", plant: file(BATCH, `${"x".repeat(300_000)}\n`), runs: BOOKKEEPING_RUNS },
  {
    name: "a journal line with an unknown time zone",
    plant: file(BATCH, `${JSON.stringify({ skill: "tessl__stress", now: "2026-11-22T00:00:00Z", tz: "Mars/Olympus", o: { reasonKey: "k", reason: "r", step: 1, items: [], occurredAt: "2026-11-22T00:00:00Z", deliveryId: "d", disposition: "sent" } })}\n`),
    runs: BOOKKEEPING_RUNS,
  },
  {
    name: "a file at the ledger folder's name",
    plant: async (ws) => {
      await rm(join(ws, LEDGER), { recursive: true, force: true });
      await writeFile(join(ws, LEDGER), "not a folder");
    },
    runs: BOOKKEEPING_RUNS,
  },
  {
    name: "a 70 KB silence comment and 225 silence adds' worth of silences",
    plant: file("_silences.json", JSON.stringify({ version: 1, silences: Array.from({ length: 225 }, (_, i) => ({ id: `s${i}`, skill: `tessl__s${i}`, comment: "known", created_at: "2026-11-01T00:00:00Z", ends_at: "2027-01-01T00:00:00Z" })) }, null, 2)),
    runs: [
      ...BOOKKEEPING_RUNS.filter((r) => r.args("w", "c")[0] !== "silence" || r.args("w", "c")[1] !== "add"),
      { args: (ws) => ["silence", "add", "--workspace", ws, "--skill", "x", "--for", "1d", "--comment", "x".repeat(70_000)], codes: [2] },
      { args: (ws) => ["silence", "add", "--workspace", ws, "--skill", "x", "--for", "1d", "--comment", "one more"], codes: [1] },
    ],
  },
];

/** Every case the harness runs. Add a part's list here (see the top comment). */
export const ALL_CASES: readonly Exit70Case[] = [...BOOKKEEPING_CASES];
