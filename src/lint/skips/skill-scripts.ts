// Which scripts a skill runs, wherever they live, and whether it runs unattended. A skill's own folder is not the
// whole story: a shared `skills/_scripts/` or `bin/` folder at the tile root holds code its SKILL.md tells the agent to
// run, and a script copied into several skills is one piece of code. Each script is judged once: a shared one under
// the first skill that runs it, a copy under the first skill that has it.
import { createHash } from "node:crypto";
import { posix } from "node:path";
import { isCode, isScheduleConfig } from "../tile/classify-path.js";
import type { TileFile } from "../tile/files.js";
import type { Skill, Tile } from "../tile/tile.js";

/** Names too common to tie a script to a skill without its folder (`scripts/run.py`, not `run.py`). */
const GENERIC = /^(run|main|index|cli|app|utils?|common|helpers?|lib|setup|install|__init__|__main__|config|test|build|start|server|client|api)\.\w+$/;

/** How many import or call steps from a skill's docs and own scripts a shared script can be and still be the skill's. */
const SHARED_DEPTH = 3;

interface TileScripts {
  /** Path → the skill that reports it (the first that runs it). */
  readonly owner: Map<string, Skill>;
  /** Path → every script the skill runs, in the order found. */
  readonly runs: Map<Skill, TileFile[]>;
}

const cache = new WeakMap<Tile, TileScripts>();

/** `importsOnly`: only an import of the module counts, not its name in any text (a usage line, an echo). */
function mentions(text: string, file: TileFile, importsOnly = false): boolean {
  const base = posix.basename(file.path);
  // An import names a module, not a file: `from src.core.base_watcher import X`, `require("../lib/sync")`.
  const stem = base.replace(/\.[^.]+$/, "");
  if (!GENERIC.test(base) && stem.length > 2 && /^[\w-]+$/.test(stem)) {
    if (/\.py$/.test(base) && new RegExp(`\\b(?:from|import)\\s+[\\w.]*\\b${stem}\\b`).test(text)) return true;
    if (/\.[cm]?[jt]sx?$/.test(base) && new RegExp(`(?:require\\(|from\\s+|import\\()\\s*['"][^'"]*\\b${stem}(?:\\.[cm]?[jt]sx?)?['"]`).test(text)) return true;
  }
  if (importsOnly) {
    // Run by an interpreter with a path that ends in the script's folder and name: `bash "$DIR/daily-digest/skill.sh"`.
    const key = escapeRegExp(`${posix.basename(posix.dirname(file.path))}/${base}`);
    return text.includes(base) && new RegExp(`\\b(?:bash|sh|zsh|python[\\d.]*|node|tsx|bun)\\s+["']?[^\\s"']*\\b${key}\\b`).test(text);
  }
  // A module run: `python3 -m herald.cli` runs herald/cli.py (or herald/cli/__main__.py).
  if (/\.py$/.test(base) && text.includes("-m ") && /\bpython[\d.]*\s+(?:-\w+\s+)*-m\s/.test(text)) {
    const parts = file.path.replace(/\.py$/, "").replace(/\/__main__$/, "").split("/");
    for (let i = parts.length - 1; i >= 0; i--) {
      const mod = parts.slice(i).join(".");
      if ((i < parts.length - 1 || !GENERIC.test(base)) && /^[\w.]+$/.test(mod) && new RegExp(`-m\\s+${mod.replace(/\./g, "\\.")}(?![\\w.])`).test(text)) return true;
    }
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
    // A Python package run as `-m pkg.cli` reaches its collectors through a pipeline module: a few steps, not one.
    for (let depth = 0; depth < SHARED_DEPTH && texts.length > 0; depth++) {
      // Past the second step only an import counts: a name in a usage text (`echo "run ./tui.sh"`) runs nothing.
      const added = shared.filter((f) => !list.includes(f) && texts.some((t) => mentions(t, f, depth >= 2)));
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
 * The skill runs with nobody watching: a scheduler starts it, or it loops on a timer. Then a line on stderr reaches no
 * one; in a skill a person runs and watches, the same line is seen. Read by structure where the tile shows one:
 * - a schedule in the tile that names the skill or one of its scripts: a scheduler's own file (a crontab, a systemd
 *   timer, a launchd plist, a CI workflow, a jobs or schedule file) or a script that installs one (`crontab`,
 *   `launchctl load`, `systemctl enable`, a plist's `StartInterval`, `OnCalendar=`, a Windows scheduled task);
 * - its SKILL.md or a linked reference says a scheduler runs it: a cron expression, `/loop 1d`, "run by cron",
 *   "invoked daily via ...", "a scheduled task", "runs nightly", "every 10 minutes", a precheck or wake cycle (in
 *   English or Chinese);
 * - one of its scripts loops on a timer (`setInterval`, `while True:` with `time.sleep`, a cron library) or answers a
 *   scheduler (`wake_agent`), or a timer loop elsewhere in the tile imports one of its own scripts.
 * Words that only name a kind of program ("daemon", "watcher", "heartbeat", "in the background") are not enough: an
 * interactive CLI's docs use them for what it talks to.
 */
const SCHEDULED_PROSE = new RegExp(
  [
    String.raw`\bcron(?:tab|job)?\b`,
    // A cron expression: five fields, one of them a star ("0 8 * * *"); not arithmetic ("24 * 60 * 60").
    String.raw`(?:^|[\s\`"'])(?=[\d*/,\t -]*\*)(?!\d+ \* \d+ \* \d)(?:[\d*][\d*/,-]*[ \t]+){4}[\d*][\d*/,-]*(?=[\s\`"']|$)`,
    String.raw`/loop\s+\d+\s*[smhd]\b`,
    String.raw`\bscheduled (?:task|job|run|trigger|agent|workflow)s?\b`,
    String.raw`\bon a schedule\b`,
    String.raw`\b(?:run|runs|ran|invoked|triggered|fired|started|called|executed) (?:\w+ ){0,4}(?:by|from|via|through|under) (?:a |the |an )?[\x60"']?(?:cron|crontab|launchd|systemd|scheduler|timer|/loop|heartbeat|scheduled task)`,
    String.raw`\b(?:runs?|invoked|triggered|fires?|executed) (?:\w+ )?(?:nightly|hourly|daily|weekly|every \d+ (?:minutes?|hours?|mins?)|every (?:morning|night|evening|hour|day)|each (?:morning|night|day)|unattended|periodically|automatically|in the background)\b`,
    String.raw`\bnightly\b`,
    String.raw`\bevery \d+ (?:minutes?|hours?|mins?)\b`,
    String.raw`\bunattended\b`,
    // launchd by what schedules with it (a plist's interval, `launchctl load`), not its name in a list of system
    // processes or a writing guide; "run it under `systemd` or `launchd`" is read by the "run ... under" form above.
    String.raw`\blaunchctl\s+(?:load|bootstrap|kickstart)\b|\bStart(?:Calendar)?Interval\b|\bOnCalendar=|\bsystemd timer\b`,
    String.raw`\b(?:every |each )?wake(?: cycle|_agent)\b|\bpre-?check\b|\bbackground (?:job|task)s?\b`,
    // The same in Chinese, which has no word breaks: a scheduled task or run (定时任务, 定时推送; not 指定时间, "a given
    // time"), every N minutes or hours, every day at a time, unattended. Not 计划任务: 计划 is as often "a plan".
    String.raw`(?<!指)定时(?:任务|运行|执行|推送|备份|触发|调度|检查|检测|同步)|每\s*\d+\s*(?:分钟|小时)|每(?:天|日|晚|周[一二三四五六日天]?)\s*\d{1,2}\s*[:：点]|无人值守`,
  ].join("|"),
  "i",
);
const SCHEDULED_GLOBAL = new RegExp(SCHEDULED_PROSE.source, "gi");
/**
 * A schedule word that says how something runs, not one that only names a file or reads a scheduler: part of a path or
 * a file name (`/etc/cron.hourly/gcc.sh`, "Scheduled Tasks.md" in a tree listing), a command that lists what is
 * scheduled (`crontab -l`, `launchctl list`; `launchd` alone stays: "run it under systemd or launchd"), or a clause that says it is not scheduled ("does not fire automatically
 * on a schedule", "rather than a scheduled job").
 */
function saysScheduled(text: string): boolean {
  SCHEDULED_GLOBAL.lastIndex = 0;
  for (let m = SCHEDULED_GLOBAL.exec(text); m !== null; m = SCHEDULED_GLOBAL.exec(text)) {
    const at = m.index;
    const word = m[0].trim();
    const before = text.slice(Math.max(0, at - 60), at);
    const after = text.slice(at + m[0].length, at + m[0].length + 12);
    if (/[\w-]/.test(word.at(-1) ?? "") && /^(?:[.\w-]*\.[A-Za-z]{1,5}\b|\/|\.\w)/.test(after)) continue;
    if (/[\w-]/.test(word[0] ?? "") && /[/.]$/.test(before)) continue;
    if (/^crontab$/i.test(word) && /^\s+-l\b/.test(after)) continue;
    if (/^launchctl$/i.test(word) && /^\s+list\b/.test(after)) continue;
    // The clause before the word negates it: "not", "never", "rather than", "instead of", "without" (same sentence).
    const clause = before.split(/[.;:!?\n]\s|[(\u3002]/).at(-1) ?? "";
    if (/\b(?:not|never|no|rather than|instead of|without)\b[^,]{0,40}$/i.test(clause) && !/\b(?:not|never)\s+(?:only|just)\b/i.test(clause)) continue;
    return true;
  }
  return false;
}
const TIMER_CODE = /\bwake_?agent\b|wakeAgent|\bsetInterval\(|node-cron|\bcron\.schedule\(|\bschedule\.every\b|APScheduler|BlockingScheduler|\bwhile True:[\s\S]{0,2000}?\btime\.sleep\(|\bwhile (?:true|:)\b[\s\S]{0,2000}?\bsleep \d/;
const TIMER_GLOBAL = new RegExp(TIMER_CODE.source, "g");
/** A loop that gives up once a time limit has passed (`if elapsed > MAX_TIMEOUT: raise`), then raises, returns or breaks. */
const DEADLINE = /(?:\b(?:elapsed|waited)\w*|\btime\.(?:time|monotonic)\(\)(?:\s*-\s*\w+)?)\s*[<>]=?\s*[\w.]+[^\n]*\n(?:[^\n]*\n){0,3}?\s*(?:raise|return|break)\b/;
/**
 * A program that loops on a timer: a scheduler library, `setInterval`, or an endless loop that sleeps between rounds.
 * Not a loop that waits for one result and gives up after a time limit (polling a job until it is done): a caller
 * waits on that loop, it runs no schedule.
 */
function loopsOnTimer(text: string): boolean {
  TIMER_GLOBAL.lastIndex = 0;
  for (let m = TIMER_GLOBAL.exec(text); m !== null; m = TIMER_GLOBAL.exec(text)) if (!/^while/.test(m[0]) || !DEADLINE.test(m[0])) return true;
  return false;
}

// Both are read per skill, and a tile's docs and shared scripts are read by many skills: once per file.
const scheduledCache = new WeakMap<TileFile, boolean>();
const timerLoopCache = new WeakMap<TileFile, boolean>();
function docSaysScheduled(f: TileFile): boolean {
  let r = scheduledCache.get(f);
  if (r === undefined) scheduledCache.set(f, (r = saysScheduled(f.text ?? "")));
  return r;
}
function fileLoopsOnTimer(f: TileFile): boolean {
  let r = timerLoopCache.get(f);
  if (r === undefined) timerLoopCache.set(f, (r = loopsOnTimer(f.text ?? "")));
  return r;
}
/** A script that puts something on a schedule. */
const INSTALLS_SCHEDULE = /\bcrontab\b|\blaunchctl\s+(?:load|bootstrap|kickstart)|\bsystemctl\s+(?:--user\s+)?(?:enable|start)\b|StartCalendarInterval|StartInterval|OnCalendar=|OnUnitActiveSec=|\bschtasks\b|\b(?:Register-ScheduledTask|New-ScheduledTaskTrigger)\b/;
/** Windows scripts the lint does not parse, read only because they may install a scheduled task (files.ts). */
const WINDOWS_SCRIPT = /\.(?:ps1|cmd|bat)$/i;

/** What a scheduler's file holds: a cron expression or field, a timer, an interval, a service that runs unattended. */
const SCHEDULE_FORM = /\bcron\b|\bschedule\b|StartCalendarInterval|StartInterval|KeepAlive|OnCalendar|OnUnitActiveSec|ExecStart=|\binterval\b|(?:^|[\s"'])(?:[\d*][\d*\/,-]*[ \t]+){4}[\d*][\d*\/,-]*(?=[\s"']|$)/i;

function schedules(tile: Tile): TileFile[] {
  let found = scheduleCache.get(tile);
  if (!found) {
    // A workflow that runs on push runs tests, not the skill: only one with a `schedule:` trigger counts.
    const config = (f: TileFile) => isScheduleConfig(f.path) && (/\.ya?ml$/.test(f.path) && f.path.includes(".github/") ? /^\s*schedule:/m.test(f.text!) : SCHEDULE_FORM.test(f.text!));
    found = tile.files.filter((f) => f.text !== undefined && (config(f) || ((isCode(f.language) || WINDOWS_SCRIPT.test(f.path)) && INSTALLS_SCHEDULE.test(f.text))));
    scheduleCache.set(tile, found);
  }
  return found;
}
const scheduleCache = new WeakMap<Tile, TileFile[]>();

/**
 * Whether a schedule's text names the skill (its name or folder) or one of the scripts it runs (a name that is not
 * generic), a Windows script of its folder among them (a scheduled task that runs `run-daily.ps1`).
 */
function namesSkill(text: string, skill: Skill, scripts: readonly TileFile[]): boolean {
  const runs = [...scripts, ...skill.files.filter((f) => WINDOWS_SCRIPT.test(f.path))];
  const words = [skill.name, posix.basename(skill.dir), ...runs.map((f) => posix.basename(f.path)).filter((b) => !GENERIC.test(b))].filter((w) => w.length > 2);
  return words.some((w) => new RegExp(`(^|[^\\w-])${escapeRegExp(w)}(?![\\w-])`).test(text));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** How docs and schedules name a script: its file name, or with its folder when the name is generic (`backup/run.sh`). */
function scriptKey(file: TileFile): string {
  const base = posix.basename(file.path);
  return GENERIC.test(base) ? `${posix.basename(posix.dirname(file.path))}/${base}` : base;
}

/** Text that starts a program with an interpreter (`python3 bin/poller.py`, `node ./lib/daemon.js`), not an import of it. */
function startsProgram(text: string, file: TileFile): boolean {
  const base = posix.basename(file.path);
  if (!text.includes(base)) return false;
  const key = escapeRegExp(scriptKey(file));
  return new RegExp(`\\b(?:bash|sh|zsh|python[\\d.]*|node|tsx|bun|deno run)\\s+(?:-\\S+\\s+)*["']?(?:[^\\s"']*/)?${key}\\b`).test(text);
}

export function runsUnattended(tile: Tile, skill: Skill, docs: readonly TileFile[], scripts: readonly TileFile[]): boolean {
  if (docs.some(docSaysScheduled)) return true;
  // A timer loop in the skill's own code, or in a shared program its docs start with an interpreter (`python3
  // bin/poller.py`). Not one in a shared module it only names or imports: a library's health-check `setInterval`, or a
  // bot's main loop named by a skill about editing that code, runs none of this skill's work on a schedule.
  if (scripts.some((s) => fileLoopsOnTimer(s) && (skill.scripts.includes(s) || docs.some((d) => startsProgram(d.text ?? "", s))))) return true;
  if (schedules(tile).some((f) => !docs.includes(f) && namesSkill(f.text!, skill, scripts))) return true;
  // A program elsewhere in the tile that loops on a timer and imports or runs one of the skill's own scripts (a root
  // daemon doing `from imap_fetch import fetch` every five minutes) runs that script with nobody watching. Not a
  // shared module the skill also uses: a server importing `lib/store.ts` does not run this skill's work.
  const own = skill.scripts.filter((s) => s !== skill.skillMd);
  return own.length > 0 && timerPrograms(tile).some((p) => !own.includes(p.file) && own.some((s) => imports(p, s)));
}

/**
 * The scheduler starts this very script: a schedule file or an installer names it, a timer loop elsewhere in the tile
 * runs it, or a paragraph of the skill's docs that says it is scheduled names it ("Every 6 hours: run
 * `skills/x/update.sh`", "use the cron tool to run the `sync.sh` script"). Then its exit status and its last line are
 * the run's own. A helper the agent calls now and then (a row in a table of tools) is not, even in a scheduled skill.
 */
export function scheduledEntry(tile: Tile, docs: readonly TileFile[], file: TileFile): boolean {
  const key = scriptKey(file);
  // Named by its file name, or by its folder when that folder holds no other script ("run the script in `scripts/`").
  const dir = posix.basename(posix.dirname(file.path));
  const alone = dir !== "." && dir !== "" && !tile.scripts.some((s) => s.file !== file && posix.dirname(s.file.path) === posix.dirname(file.path) && isCode(s.file.language));
  const named = new RegExp(`(?:^|[^\\w.-])(?:${escapeRegExp(key)}\\b${alone ? `|${escapeRegExp(dir)}/(?![\\w.-])` : ""})`);
  if (docs.some((d) => (d.text ?? "").split(/\n\s*\n/).some((para) => named.test(para) && saysScheduled(para)))) return true;
  if (schedules(tile).some((f) => f !== file && named.test(f.text!))) return true;
  return timerPrograms(tile).some((p) => p.file !== file && imports(p, file));
}

interface TimerProgram {
  readonly file: TileFile;
  /** What it imports or runs: `py:imap_fetch`, `js:sync`, `run:fetch.sh`. */
  readonly runs: ReadonlySet<string>;
}

/**
 * What a program imports or runs with an interpreter: `from imap_fetch import x`, `require("./sync")`,
 * `python3 scripts/fetch.py`. Not a name in a usage text ("ont_experiments.py run ..." printed by a monitor). Read
 * once per program, so a tile with many skills and many timer loops costs one pass over each loop's text.
 */
function runsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/^[ \t]*from\s+([\w.]+)\s+import\b/gm)) out.add(`py:${m[1]!.split(".").pop()}`);
  for (const m of text.matchAll(/^[ \t]*import\s+([\w.]+(?:\s*,\s*[\w.]+)*)[ \t]*$/gm)) for (const mod of m[1]!.split(",")) for (const part of mod.trim().split(".")) out.add(`py:${part}`);
  for (const m of text.matchAll(/(?:\brequire\(|\bfrom\s+|\bimport\(|^[ \t]*import\s+)\s*['"]([^'"]+)['"]/gm)) out.add(`js:${posix.basename(m[1]!).replace(/\.[cm]?[jt]sx?$/, "")}`);
  for (const m of text.matchAll(/\b(?:python[\d.]*|node|tsx|bun|deno run|bash|sh|zsh)\s+(?:-\S+\s+)*["']?(\S+?\.(?:py|[cm]?[jt]sx?|sh))\b/g)) out.add(`run:${posix.basename(m[1]!)}`);
  for (const m of text.matchAll(/(?:^|[\s"'])\S*\/([\w.-]+\.sh)\b/gm)) out.add(`run:${m[1]}`);
  return out;
}

function imports(program: TimerProgram, file: TileFile): boolean {
  const base = posix.basename(file.path);
  if (GENERIC.test(base)) return false;
  if (program.runs.has(`run:${base}`)) return true;
  const stem = base.replace(/\.[^.]+$/, "");
  if (/\.py$/.test(base)) return program.runs.has(`py:${stem}`);
  return /\.[cm]?[jt]sx?$/.test(base) && program.runs.has(`js:${stem}`);
}

const timerCache = new WeakMap<Tile, TimerProgram[]>();

function timerPrograms(tile: Tile): TimerProgram[] {
  let found = timerCache.get(tile);
  if (!found) {
    const loops = tile.scripts.map((s) => s.file).filter((f) => isCode(f.language) && fileLoopsOnTimer(f));
    timerCache.set(tile, (found = loops.map((file) => ({ file, runs: runsOf(file.text ?? "") }))));
  }
  return found;
}

/**
 * Skills and scripts that run with nobody watching because an unattended skill runs them: a skill whose own docs
 * describe no schedule is still run by cron when a scheduled skill hands over to it (its docs link the other skill's
 * SKILL.md) or a scheduled skill's script imports its scripts (`from imap_fetch import ...`, `require("../todo/tasks")`). Followed from skill to skill until nothing new is reached.
 */
export function reachedUnattended(tile: Tile, docsOf: (skill: Skill) => readonly TileFile[]): { skills: ReadonlySet<Skill>; files: ReadonlySet<string> } {
  let found = reachedCache.get(tile);
  if (found) return found;
  const skills = new Set<Skill>();
  const files = new Set<string>();
  const runsOf = (s: Skill) => {
    let t = cache.get(tile);
    if (!t) cache.set(tile, (t = build(tile, docsOf)));
    return t.runs.get(s) ?? [];
  };
  const queue = tile.skills.filter((s) => runsUnattended(tile, s, docsOf(s), runsOf(s)));
  for (const s of queue) skills.add(s);
  const watched = () => tile.skills.filter((s) => !skills.has(s));
  while (queue.length > 0) {
    const u = queue.shift()!;
    const texts = [...docsOf(u), ...runsOf(u)].map((f) => f.text ?? "").filter((t) => t.length > 0);
    // A script is run by what imports it; a name in a comment or a schema note ("written by append-watchlist.py") runs nothing.
    const code = runsOf(u).filter((f) => isCode(f.language)).map((f) => f.text ?? "");
    for (const s of watched()) {
      const md = s.skillMd.path;
      const rel = posix.relative(u.dir, md);
      if (s.dir !== "" && texts.some((t) => t.includes(rel) || (rel !== md && t.includes(md)))) {
        skills.add(s);
        queue.push(s);
        continue;
      }
      for (const f of s.scripts) {
        if (f === s.skillMd || files.has(f.path)) continue;
        const stem = posix.basename(f.path).replace(/\.[^.]+$/, "");
        if (code.some((t) => t.includes(stem) && mentions(t, f, true))) files.add(f.path);
      }
    }
  }
  reachedCache.set(tile, (found = { skills, files }));
  return found;
}
const reachedCache = new WeakMap<Tile, { skills: ReadonlySet<Skill>; files: ReadonlySet<string> }>();
