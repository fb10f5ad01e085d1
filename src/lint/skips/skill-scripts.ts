// Which scripts a skill runs, wherever they live, and whether it runs unattended. A skill's own folder is not the
// whole story: a shared `skills/_scripts/` or `bin/` folder at the tile root holds code its SKILL.md tells the agent to
// run, and a script copied into several skills is one piece of code. Each script is judged once: a shared one under
// the first skill that runs it, a copy under the first skill that has it.
import { createHash } from "node:crypto";
import { posix } from "node:path";
import type { TileFile } from "../tile/files.js";
import type { Skill, Tile } from "../tile/tile.js";

/** Names too common to tie a script to a skill without its folder (`scripts/run.py`, not `run.py`). */
const GENERIC = /^(run|main|index|cli|app|utils?|common|helpers?|lib|setup|install|__init__|__main__|config|test|build|start|server|client|api)\.\w+$/;

interface TileScripts {
  /** Path → the skill that reports it (the first that runs it). */
  readonly owner: Map<string, Skill>;
  /** Path → every script the skill runs, in the order found. */
  readonly runs: Map<Skill, TileFile[]>;
}

const cache = new WeakMap<Tile, TileScripts>();

function mentions(text: string, file: TileFile): boolean {
  const base = posix.basename(file.path);
  // An import names a module, not a file: `from src.core.base_watcher import X`, `require("../lib/sync")`.
  const stem = base.replace(/\.[^.]+$/, "");
  if (!GENERIC.test(base) && stem.length > 2 && /^[\w-]+$/.test(stem)) {
    if (/\.py$/.test(base) && new RegExp(`\\b(?:from|import)\\s+[\\w.]*\\b${stem}\\b`).test(text)) return true;
    if (/\.[cm]?[jt]sx?$/.test(base) && new RegExp(`(?:require\\(|from\\s+|import\\()\\s*['"][^'"]*\\b${stem}(?:\\.[cm]?[jt]sx?)?['"]`).test(text)) return true;
  }
  const key = GENERIC.test(base) ? `${posix.basename(posix.dirname(file.path))}/${base}` : base;
  for (let at = text.indexOf(key); at !== -1; at = text.indexOf(key, at + 1)) {
    const before = at === 0 ? "" : text[at - 1]!;
    const after = text[at + key.length] ?? "";
    if (!/[\w-]/.test(before) && !/[\w]/.test(after)) return true;
  }
  return false;
}

function build(tile: Tile, docsOf: (skill: Skill) => readonly TileFile[]): TileScripts {
  const shared = tile.scripts.filter((s) => s.skill === undefined).map((s) => s.file);
  const owner = new Map<string, Skill>();
  const runs = new Map<Skill, TileFile[]>();
  const firstCopy = new Map<string, string>();
  for (const skill of tile.skills) {
    const own = skill.scripts.filter((f) => f !== skill.skillMd);
    const list = [...own];
    // Shared scripts its SKILL.md (or linked references) names, then the shared scripts those name: one step further.
    let texts = [...docsOf(skill), ...own].map((f) => f.text ?? "");
    for (let depth = 0; depth < 2; depth++) {
      const added = shared.filter((f) => !list.includes(f) && texts.some((t) => mentions(t, f)));
      list.push(...added);
      texts = added.map((f) => f.text ?? "");
    }
    runs.set(skill, list);
    for (const f of list) {
      if (!owner.has(f.path)) {
        const hash = createHash("sha1").update(f.text ?? "").digest("hex");
        // A copy of a script another skill already has is that script: it is reported there.
        if (firstCopy.has(hash) && firstCopy.get(hash) !== f.path) continue;
        firstCopy.set(hash, f.path);
        owner.set(f.path, skill);
      }
    }
  }
  return { owner, runs };
}

/** The scripts whose silent skips this skill reports: those it runs that no earlier skill reports. */
export function scriptsToJudge(tile: Tile, skill: Skill, docsOf: (skill: Skill) => readonly TileFile[]): TileFile[] {
  let t = cache.get(tile);
  if (!t) cache.set(tile, (t = build(tile, docsOf)));
  return (t.runs.get(skill) ?? []).filter((f) => t!.owner.get(f.path) === skill);
}

/**
 * The skill runs with nobody watching: scheduled (cron, nightly, every N minutes), in the background, as a watcher or
 * a daemon. Then a line on stderr reaches no one; in a skill a person runs and watches, the same line is seen.
 */
const UNATTENDED_PROSE = /\b(cron(?:tab|job)?|scheduled (?:task|job|run|trigger|agent|workflow)s?|on a schedule|runs? (?:nightly|daily|hourly|weekly|every|each|periodically|automatically|unattended|in the background)|nightly|hourly|every \d+ (?:minutes?|hours?|mins?)|every (?:morning|night|evening|hour)|each (?:morning|night)|in the background|background (?:job|task|process|service|worker|run)|daemon|watchdog|watcher|unattended|periodic(?:ally)?|heartbeat|launchd|launchctl|systemd timer|every (?:wake|cycle|tick)(?: cycle)?|wake cycle|pre-?check)\b/i;
const UNATTENDED_CODE = /\bwake_?agent\b|wakeAgent|\bsetInterval\(|\bcron\b|node-cron|\bschedule\.every\b|APScheduler|BlockingScheduler|\bwhile True:[\s\S]{0,2000}?\btime\.sleep\(|\bwhile (?:true|:)\b[\s\S]{0,2000}?\bsleep \d|crontab|launchctl|systemctl/;

export function runsUnattended(skill: Skill, docs: readonly TileFile[], scripts: readonly TileFile[]): boolean {
  return docs.some((d) => UNATTENDED_PROSE.test(d.text ?? "")) || scripts.some((s) => UNATTENDED_CODE.test(s.text ?? ""));
}
