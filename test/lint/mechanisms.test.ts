// Every silent-skip mechanism's own examples (src/lint/skips/mechanisms.ts, which --explain and docs/lint.md show), in
// every language it is read in: the failing one is reported for that mechanism and no other, the passing one is not.
import { describe, expect, it } from "vitest";
import { lintTiles } from "../../src/lint/run-lint.js";
import { MECHANISM_META } from "../../src/lint/skips/mechanisms.js";
import { writeTile } from "./rule-tester.js";

const SKILL = "---\nname: a\n---\n# A\n\nRuns nightly from cron: run the script in `scripts/` and say what it printed.\n";

export async function mechanismsIn(file: string, code: string): Promise<string[]> {
  const files = file === "SKILL.md" ? { "skills/a/SKILL.md": `${SKILL}\n${code}` } : { "skills/a/SKILL.md": SKILL, [`skills/a/${file}`]: code };
  const dir = await writeTile(files);
  const summary = await lintTiles(["."], { cwd: dir, severities: new Map([["defer-without-summary", "warning"]]), settings: { allMechanisms: true } });
  return summary.files.flatMap((f) => f.findings).map((f) => /\(([a-z0-9-]+), \d+ place/.exec(f.message)?.[1] ?? f.message);
}

describe("silent-skip mechanisms: their own examples", () => {
  for (const meta of MECHANISM_META) {
    for (const example of meta.examples) {
      it(`${meta.id}: the failing ${example.file} example is reported as ${meta.id}`, async () => {
        expect(await mechanismsIn(example.file, example.fails)).toContain(meta.id);
      });
      it(`${meta.id}: the passing ${example.file} example is not reported`, async () => {
        expect(await mechanismsIn(example.file, example.passes)).toEqual([]);
      });
    }
  }
});

describe("which scripts a skill runs, and who watches", () => {
  const FAILS = mechanismMetaFails("log-only-skip");
  async function places(files: Record<string, string>): Promise<string[]> {
    const dir = await writeTile(files);
    const summary = await lintTiles(["."], { cwd: dir, severities: new Map([["defer-without-summary", "warning"]]), settings: { allMechanisms: true } });
    return summary.files.flatMap((f) => f.findings).flatMap((f) => [f, ...(f.related ?? [])].map((p) => `${f.skill} ${p.file}:${p.line}`));
  }

  it("reads a shared script the SKILL.md names, outside the skill's folder, under the first skill that runs it", async () => {
    const b = "---\nname: b\n---\n# B\n\nRuns nightly from cron: run `python skills/_scripts/fetch_all.py`.\n";
    expect(await places({ "skills/a/SKILL.md": b.replace("name: b", "name: a").replace("# B", "# A"), "skills/b/SKILL.md": b, "skills/_scripts/fetch_all.py": FAILS })).toEqual(["tessl__a skills/_scripts/fetch_all.py:5"]);
    expect(await places({ "skills/a/SKILL.md": "---\nname: a\n---\n# A\n\nRuns nightly from cron.\n", "skills/_scripts/fetch_all.py": FAILS })).toEqual([]);
  });

  it("reports a script copied into several skills once", async () => {
    const skill = (n: string) => `---\nname: ${n}\n---\n# ${n}\n\nRuns nightly from cron: run \`scripts/run.py\`.\n`;
    expect(await places({ "skills/a/SKILL.md": skill("a"), "skills/a/scripts/run.py": FAILS, "skills/b/SKILL.md": skill("b"), "skills/b/scripts/run.py": FAILS })).toEqual(["tessl__a skills/a/scripts/run.py:5"]);
  });

  it("judges a script's output only in a skill that runs with nobody watching (scheduled, background, a watcher)", async () => {
    const watched = "---\nname: a\n---\n# A\n\nWhen the user asks, run `scripts/run.py` and show them what it printed.\n";
    expect(await places({ "skills/a/SKILL.md": watched, "skills/a/scripts/run.py": FAILS })).toEqual([]);
    for (const unattended of ["Runs every 10 minutes from a scheduled task.", "A watcher: runs in the background and checks the inbox."]) {
      expect(await places({ "skills/a/SKILL.md": watched.replace("When the user asks", unattended), "skills/a/scripts/run.py": FAILS }), unattended).toEqual(["tessl__a skills/a/scripts/run.py:5"]);
    }
  });
});

describe("tool-missing in code: only a branch that stops leaves the step undone", () => {
  it("a branch that logs or passes falls through to the next way of doing it, or to the rest of the work", async () => {
    const chain = 'import subprocess, sys\ndef to_png(doc):\n    try:\n        subprocess.run(["libreoffice", "--convert-to", "png", doc], check=True)\n        return True\n    except FileNotFoundError:\n        pass\n    try:\n        subprocess.run(["convert", doc, "out.png"], check=True)\n        return True\n    except FileNotFoundError:\n        print("no converter found", file=sys.stderr)\n    raise SystemExit(f"cannot convert {doc}")\n';
    expect(await mechanismsIn("scripts/run.py", chain)).not.toContain("tool-missing");
    expect(await mechanismsIn("scripts/run.sh", 'if ! command -v jq >/dev/null; then\n  echo "jq not found, parsing with python" >&2\nfi\nparse_feed "$1"\n')).not.toContain("tool-missing");
  });

  it("the same branches report when they stop the step", async () => {
    expect(await mechanismsIn("scripts/run.py", 'import subprocess\ndef to_png(doc):\n    try:\n        subprocess.run(["libreoffice", "--convert-to", "png", doc], check=True)\n    except FileNotFoundError:\n        return\n    publish(doc)\n')).toContain("tool-missing");
    expect(await mechanismsIn("scripts/run.sh", 'if ! command -v jq >/dev/null; then\n  echo "jq not found" >&2\n  exit 0\nfi\nparse_feed "$1"\n')).toContain("tool-missing");
  });
});

describe("who watches, read from the tile's structure", () => {
  const FAILS = mechanismMetaFails("log-only-skip");
  const WATCHED = "---\nname: fetcher\n---\n# Fetcher\n\nRun `scripts/fetch_feeds.py` and show what it printed.\n";
  async function flagged(files: Record<string, string>): Promise<boolean> {
    const dir = await writeTile({ "skills/fetcher/SKILL.md": WATCHED, "skills/fetcher/scripts/fetch_feeds.py": FAILS, ...files });
    const summary = await lintTiles(["."], { cwd: dir, severities: new Map([["defer-without-summary", "warning"]]), settings: { allMechanisms: true } });
    return summary.files.some((f) => f.findings.some((x) => x.ruleId === "defer-without-summary"));
  }

  it("a scheduler's file in the tile that names the skill's script or the skill makes it unattended", async () => {
    expect(await flagged({})).toBe(false);
    expect(await flagged({ "deploy/crontab": "*/30 * * * * cd /srv/tile && python3 skills/fetcher/scripts/fetch_feeds.py\n" })).toBe(true);
    expect(await flagged({ "config/cron.jobs.json": '{"jobs": [{"schedule": {"kind": "cron", "expr": "0 8 * * *"}, "message": "Use the fetcher skill"}]}\n' })).toBe(true);
    expect(await flagged({ "systemd/feeds.timer": "[Timer]\nOnCalendar=hourly\nUnit=feeds.service\n", "systemd/feeds.service": "[Service]\nExecStart=python3 /srv/tile/skills/fetcher/scripts/fetch_feeds.py\n" })).toBe(true);
  });

  it("a schedule that names another skill, or a CI workflow that runs on push, does not", async () => {
    expect(await flagged({ "deploy/crontab": "0 6 * * * python3 skills/other/run_other.py\n" })).toBe(false);
    expect(await flagged({ ".github/workflows/tests.yml": "on: [push]\njobs:\n  test:\n    steps:\n      - run: python3 skills/fetcher/scripts/fetch_feeds.py --selftest\n" })).toBe(false);
    expect(await flagged({ ".github/workflows/nightly.yml": "on:\n  schedule:\n    - cron: '0 3 * * *'\njobs:\n  run:\n    steps:\n      - run: python3 skills/fetcher/scripts/fetch_feeds.py\n" })).toBe(true);
  });

  it("a scheduler's file that cannot be read as text (a binary plist) is listed without a finding", async () => {
    const dir = await writeTile({ "skills/fetcher/SKILL.md": WATCHED, "skills/fetcher/scripts/fetch_feeds.py": FAILS, "launchd/com.example.feeds.plist": Buffer.from([0x62, 0x70, 0x6c, 0x69, 0x73, 0x74, 0x30, 0x30, 0x00, 0xd1, 0x01, 0x02]) });
    const summary = await lintTiles(["."], { cwd: dir, settings: { allMechanisms: true } });
    expect(summary.files.flatMap((f) => f.findings).map((f) => f.ruleId)).toEqual([]);
  });

  it("a script that installs a schedule for the skill's script makes it unattended", async () => {
    expect(await flagged({ "install.sh": '(crontab -l; echo "0 * * * * python3 $PWD/skills/fetcher/scripts/fetch_feeds.py") | crontab -\n' })).toBe(true);
  });

  it("SKILL.md saying a scheduler runs it, not words that only name a kind of program", async () => {
    const said = (line: string) => ({ "skills/fetcher/SKILL.md": WATCHED.replace("Run `scripts", `${line}\n\nRun \`scripts`) });
    expect(await flagged(said("Designed to be invoked daily via `/loop 1d`."))).toBe(true);
    expect(await flagged(said("Cron runs it at `0 7 * * *`."))).toBe(true);
    expect(await flagged(said("Talks to the feed daemon and its watcher, which keep a heartbeat."))).toBe(false);
    expect(await flagged(said("Token lifetime is 24 * 60 * 60 seconds."))).toBe(false);
  });

  it("a schedule word that only names a file, lists what is scheduled, or is negated does not make it unattended", async () => {
    const said = (line: string) => ({ "skills/fetcher/SKILL.md": WATCHED.replace("Run `scripts", `${line}\n\nRun \`scripts`) });
    expect(await flagged(said("```\nvault/\n├── Scheduled Tasks.md  # dashboard\n└── Inbox.md\n```"))).toBe(false);
    expect(await flagged(said("Scheduled tasks write their results to the dashboard."))).toBe(true);
    expect(await flagged(said("Remove the dropper: `rm -f /etc/cron.hourly/gcc.sh`."))).toBe(false);
    expect(await flagged(said("Check what is installed with `crontab -l`."))).toBe(false);
    expect(await flagged(said("Install it with `crontab -e`."))).toBe(true);
    expect(await flagged(said("It does **not** fire automatically on a schedule; it runs when you ask."))).toBe(false);
    expect(await flagged(said("It fires automatically on a schedule."))).toBe(true);
  });

  it("a timer loop in a shared module the skill imports is not its schedule; a shared program its docs start is", async () => {
    const loop = "import time\n\ndef watch():\n    while True:\n        check()\n        time.sleep(30)\n";
    const importsIt = { "skills/fetcher/scripts/fetch_feeds.py": `from health import watch\n${FAILS}`, "lib/health.py": loop };
    expect(await flagged(importsIt)).toBe(false);
    const starts = "---\nname: fetcher\n---\n# Fetcher\n\nStart the poller with `python3 lib/health.py`, then run `scripts/fetch_feeds.py` and show what it printed.\n";
    expect(await flagged({ ...importsIt, "skills/fetcher/SKILL.md": starts })).toBe(true);
  });

  it("launchd by what schedules with it, not its name among system processes", async () => {
    const said = (line: string) => ({ "skills/fetcher/SKILL.md": WATCHED.replace("Run `scripts", `${line}\n\nRun \`scripts`) });
    expect(await flagged(said("WindowServer, launchd and kernel_task are essential system processes."))).toBe(false);
    expect(await flagged(said("The plist Label must match the one used in `launchctl` commands."))).toBe(false);
    expect(await flagged(said("Always run the listener under `systemd` or `launchd`."))).toBe(true);
    expect(await flagged(said("```xml\n<key>StartCalendarInterval</key>\n<dict><key>Hour</key><integer>8</integer></dict>\n```"))).toBe(true);
    expect(await flagged(said("Then `launchctl load ~/Library/LaunchAgents/com.example.fetcher.plist`."))).toBe(true);
  });

  it("a loop that polls one job and gives up after a time limit is a wait, not a timer", async () => {
    const poll = (check: string) => `import time\n\ndef wait(job):\n    start = time.time()\n    while True:\n${check}        if done(job):\n            return job\n        time.sleep(5)\n`;
    expect(await flagged({ "skills/fetcher/scripts/poll.py": poll("        elapsed = time.time() - start\n        if elapsed > MAX_WAIT:\n            raise TimeoutError(job)\n") })).toBe(false);
    expect(await flagged({ "skills/fetcher/scripts/poll.py": poll("") })).toBe(true);
  });

  it("the same said in Chinese: a scheduled task, every N minutes, every day at a time; not a given time span", async () => {
    const said = (line: string) => ({ "skills/fetcher/SKILL.md": WATCHED.replace("Run `scripts", `${line}\n\nRun \`scripts`) });
    expect(await flagged(said("每天 8:00 和 22:00 自动生成日报推送。"))).toBe(true);
    expect(await flagged(said("自动化心跳：工作日每5分钟触发一次。"))).toBe(true);
    expect(await flagged(said("## 定时任务设置"))).toBe(true);
    expect(await flagged(said("可按指定时间段查询日志。"))).toBe(false);
    expect(await flagged(said("日常心跳、自检、健康检查。"))).toBe(false);
  });

  it("a Windows scheduled task that runs the skill's PowerShell wrapper makes it unattended", async () => {
    const task = '$action = New-ScheduledTaskAction -Execute powershell.exe -Argument "-File run-fetch-daily.ps1"\nRegister-ScheduledTask -TaskName Feeds -Action $action -Trigger (New-ScheduledTaskTrigger -Daily -At 9am)\n';
    const wrapper = "python3 $PSScriptRoot/fetch_feeds.py *>> feeds.log\n";
    expect(await flagged({ "skills/fetcher/scripts/run-fetch-daily.ps1": wrapper })).toBe(false);
    expect(await flagged({ "skills/fetcher/scripts/run-fetch-daily.ps1": wrapper, "skills/fetcher/scripts/register-task.ps1": task })).toBe(true);
  });

  it("a program of the tile that loops on a timer and imports the skill's script makes it unattended; a usage text naming it does not", async () => {
    const daemon = (head: string) => `${head}\nimport time\n\nwhile True:\n    poll()\n    time.sleep(300)\n`;
    expect(await flagged({ "mail_daemon.py": daemon("from fetch_feeds import poll") })).toBe(true);
    expect(await flagged({ "bin/poll.sh": "while true; do\n  python3 skills/fetcher/scripts/fetch_feeds.py --once\n  sleep 300\ndone\n" })).toBe(true);
    expect(await flagged({ "monitor.py": daemon('"""Started by: fetch_feeds.py run monitoring --live"""\nfrom live import poll') })).toBe(false);
  });
});

function mechanismMetaFails(id: string): string {
  return MECHANISM_META.find((m) => m.id === id)!.examples[0]!.fails;
}
