// Every flag of every command and subcommand, listed from the program itself, is documented in README.md or the
// command's docs page; and every flag a docs page's flag table names exists. A flag added without docs, or a doc
// row left behind by a flag that was renamed or removed, fails here.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.js";
import { buildProgram } from "../../src/cli/program.js";
import { recordingStream } from "../helpers/in-process.js";

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");

// The page that documents each command (README.md is searched for all of them too).
const PAGES: Record<string, readonly string[]> = {
  emit: ["docs/owner.md"],
  validate: ["docs/skip-summary-schema.md"],
  schema: ["docs/skip-summary-schema.md"],
  run: ["docs/runner.md", "docs/plans.md"],
  surface: ["docs/surfacer.md"],
  history: ["docs/surfacer.md"],
  silence: ["docs/surfacer.md"],
  hooks: ["docs/integrations/claude-code.md"],
  check: ["docs/surfacer.md"],
  notify: ["docs/notifiers.md"],
  lint: ["docs/lint.md"],
  helper: ["docs/owner.md"],
};

function program() {
  const io = { stdout: recordingStream(), stderr: recordingStream(), stdin: { async *[Symbol.asyncIterator]() {} }, env: {}, cwd: "/" };
  return buildProgram(COMMANDS, { io, debug: false, argv: [] }, () => undefined, ["help"]);
}

/** Each command (and subcommand) with the long flags it takes, `--help` aside. */
function flagsByCommand(): [string, string, string[]][] {
  const out: [string, string, string[]][] = [];
  for (const command of program().commands) {
    const name = command.name();
    if (name === "help") continue;
    for (const c of [command, ...command.commands.filter((s) => s.name() !== "help")]) {
      const flags = c.options.map((o) => o.long!).filter((f) => f !== "--help");
      out.push([name, c === command ? name : `${name} ${c.name()}`, flags]);
    }
  }
  return out;
}

it("every command's flags are documented in README.md or the command's page", () => {
  const readme = read("README.md");
  const missing: string[] = [];
  const all = flagsByCommand();
  expect(all.map(([, path]) => path)).toEqual(expect.arrayContaining(["emit", "surface", "silence add", "hooks install", "run", "notify"]));
  for (const [name, path, flags] of all) {
    const pages = (PAGES[name] ?? []).map(read).join("\n");
    expect(PAGES[name], `${name} has no docs page in PAGES`).toBeDefined();
    for (const flag of flags) if (!new RegExp(`${flag}(?![a-z-])`).test(readme + pages)) missing.push(`${path} ${flag}`);
  }
  expect(all.flatMap(([, , flags]) => flags).length).toBeGreaterThan(80);
  expect(missing).toEqual([]);
});

it("every flag a docs page's flag table names is a flag of some command", () => {
  const known = new Set(flagsByCommand().flatMap(([, , flags]) => flags));
  known.add("--debug").add("--version");
  const unknown: string[] = [];
  let rows = 0;
  for (const page of new Set(Object.values(PAGES).flat())) {
    for (const m of read(page).matchAll(/^\| `(--[a-z][a-z-]*)/gm)) {
      rows += 1;
      if (!known.has(m[1]!)) unknown.push(`${page}: ${m[1]}`);
    }
  }
  expect(rows).toBeGreaterThan(50);
  expect(unknown).toEqual([]);
});
