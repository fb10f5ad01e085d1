// The parts stand in layers, and an import across a layer the wrong way fails here:
// - the CLI stands above the parts: library folders never import from src/cli, so a part can be used (and tested)
//   without commander, process streams or exit codes;
// - src/fs, the durable-file layer (safe paths, the lock, the atomic writer), stands below every part that keeps a
//   file: it imports only the contract, and the surfacer and the notifiers take the lock and the writer from it, not
//   from src/owner;
// - src/secrets (which secrets exist, and their masking) stands below the notifiers that redact with it.
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = new URL("../../src/", import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

/** One rule: a file under `from` may not import anything under a folder `forbidden` names (both relative to src/). */
interface Rule {
  readonly from: string;
  readonly forbidden: (target: string) => boolean;
}

const RULES: readonly Rule[] = [
  { from: "", forbidden: (target) => target.startsWith("cli/") },
  { from: "fs/", forbidden: (target) => !target.startsWith("fs/") && !target.startsWith("contract/") },
  { from: "secrets/", forbidden: (target) => target.startsWith("notifiers/") },
  { from: "surfacer/", forbidden: (target) => target.startsWith("owner/") },
  { from: "notifiers/", forbidden: (target) => target.startsWith("owner/") },
];

/** "file imports spec" for every relative import (static, type-only, dynamic) that a rule forbids. */
function violations(sources: ReadonlyMap<string, string>, rules: readonly Rule[] = RULES): string[] {
  return [...sources].flatMap(([file, text]) => {
    const here = relative(SRC, file);
    return [...text.matchAll(/(?:from\s+|import\()\s*["']([^"']+)["']/g)]
      .map((m) => m[1]!)
      .filter((spec) => spec.startsWith("."))
      .filter((spec) => {
        const target = relative(SRC, join(file, "..", spec));
        return rules.some((rule) => here.startsWith(rule.from) && !here.startsWith("cli/") && rule.forbidden(target));
      })
      .map((spec) => `${here} imports ${spec}`);
  });
}

describe("layering", () => {
  it("no import crosses a layer the wrong way", () => {
    const sources = new Map(files(SRC).map((f) => [f, readFileSync(f, "utf8")]));
    expect(sources.size).toBeGreaterThan(100);
    expect(violations(sources)).toEqual([]);
  });

  it("the durable-file layer lives in src/fs: the lock and the atomic writer are there, not in src/owner", () => {
    const owner = readdirSync(join(SRC, "owner"));
    expect(owner.filter((name) => /lock|atomic/.test(name))).toEqual([]);
    expect(readdirSync(join(SRC, "fs"))).toEqual(expect.arrayContaining(["lock.ts", "lock-holder.ts", "atomic-write.ts", "safe-write.ts"]));
  });

  it("the check finds static, type-only and dynamic imports of what a rule forbids, and lets src/cli import the parts", () => {
    const planted = new Map([
      [join(SRC, "runner", "a.ts"), 'import type { CliIo } from "../cli/io.js";'],
      [join(SRC, "runner", "plan", "b.ts"), 'const m = await import("../../cli/exit-codes.js");'],
      [join(SRC, "owner", "c.ts"), 'import { x } from "../contract/index.js";'],
      [join(SRC, "cli", "commands", "d.ts"), 'import { emitSkip } from "../../owner/emit.js";'],
      [join(SRC, "fs", "e.ts"), 'import { emitSkip } from "../owner/emit.js";\nimport { x } from "../contract/errors.js";\nimport { y } from "./errors.js";'],
      [join(SRC, "secrets", "f.ts"), 'import { createRedactor } from "../notifiers/redact.js";'],
      [join(SRC, "surfacer", "ledger", "g.ts"), 'import { withFileLock } from "../../owner/lock.js";\nimport { withFileLock as w } from "../../fs/lock.js";'],
      [join(SRC, "notifiers", "h.ts"), 'import { createRedactor } from "../secrets/redact.js";'],
    ]);
    expect(violations(planted)).toEqual([
      "runner/a.ts imports ../cli/io.js",
      "runner/plan/b.ts imports ../../cli/exit-codes.js",
      "fs/e.ts imports ../owner/emit.js",
      "secrets/f.ts imports ../notifiers/redact.js",
      "surfacer/ledger/g.ts imports ../../owner/lock.js",
    ]);
  });
});
