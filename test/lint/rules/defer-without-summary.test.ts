// One tile per mechanism, each with a near miss that must not fire: the check reads behaviour, not words.
import { expect, it } from "vitest";
import { lintOnly, ruleTester } from "../rule-tester.js";

const SKILL = "---\nname: a\n---\n# A\n\nRuns nightly from cron: run `scripts/run.py` and report what it prints.\n";

const LOG_ONLY = `import sys
for url in urls:
    try:
        fetch(url)
    except Exception as exc:
        print(f"skipped {url}: {exc}", file=sys.stderr)
        continue
`;
const BUDGET = `import time
start = time.monotonic()
for item in items:
    if time.monotonic() - start > BUDGET_S:
        break
    handle(item)
`;
const CATCH_ALL = `import sys
def main():
    work()

if __name__ == "__main__":
    try:
        main()
    except Exception:
        sys.exit(0)
`;
const COLLECTION = `import sys
failed = []
for op in ops:
    if not apply(op):
        failed.append(op)
print(f"{len(failed)} ops failed", file=sys.stderr)
`;

// The code form of stamped-unverified: every entry is stamped verified, but only the API entries were checked.
const STAMP_LOOP = `import json, sys
entries = json.load(open(sys.argv[1]))
for entry in entries:
    if entry.get("source") == "api":
        if not verify_live(entry):
            continue
    entry["_verified_this_run"] = True
json.dump(entries, sys.stdout)
`;
// ... and a branch where the check is skipped but the stamp is not.
const STAMP_BRANCH = `def refresh(entry, offline):
    if offline:
        entry["last_verified"] = today()
        return entry
    check_url(entry["url"])
    entry["last_verified"] = today()
    return entry
`;

// Two scripts: run.py puts its failed ops into a `failed` field; skip.py answers with a `failed` flag of its own.
const RELAY_SKILL = (runSection: string) =>
  `---\nname: a\n---\n# A\n\nRuns nightly from cron.\n\n## Apply\n\nRun \`scripts/run.py\`. It prints JSON.${runSection}\n\n## Skip\n\nRun \`scripts/skip.py NAME\`. If \`failed\` is true, tell the owner the skip could not be recorded.\n`;
const RELAY_FILES = (runSection: string) => ({
  "skills/a/SKILL.md": RELAY_SKILL(runSection),
  "skills/a/scripts/run.py": COLLECTION.replace('print(f"{len(failed)} ops failed", file=sys.stderr)', 'print(json.dumps({"failed": failed}))'),
  "skills/a/scripts/skip.py": 'import json\nprint(json.dumps({"failed": False}))\n',
});

ruleTester("defer-without-summary", {
  valid: [
    { name: "a near miss of log-only-skip: the failed item goes to a list that is emitted", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": LOG_ONLY.replace('print(f"skipped {url}: {exc}", file=sys.stderr)\n        continue', "failed.append(url)") + "if failed:\n    emit_skip(skill='tessl__a', step=1, reason='fetch failed', items=failed)\n    sys.exit(2)\n" } },
    { name: "a near miss of log-only-skip: the script writes a skip summary by hand", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": LOG_ONLY + 'tmp = os.path.join(ws, ".skip-summary-tessl__a.json.tmp")\nwith open(tmp, "w") as f:\n    json.dump(summary, f)\nos.replace(tmp, os.path.join(ws, ".skip-summary-tessl__a.json"))\n' } },
    { name: "a near miss of log-only-skip: the failure branch sends a message", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": LOG_ONLY.replace('print(f"skipped {url}: {exc}", file=sys.stderr)', 'send_message(f"skipped {url}: {exc}")') } },
    { name: "a near miss of log-only-skip: the words are only in comments and docstrings", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": '"""Skip nothing; defer nothing; the budget is a timeout."""\n# skip the rest later\nfor url in urls:\n    fetch(url)  # skipped? never\n' } },
    { name: "a near miss of log-only-skip: a loop that skips what does not parse is filtering its input", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": "for raw in rows:\n    try:\n        n = int(raw)\n    except ValueError:\n        continue\n    total += n\n" } },
    { name: "a near miss of log-only-skip: the failure branch raises", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": LOG_ONLY.replace("continue", "raise") } },
    { name: "a near miss of budget-stop: a `deadline` that is data, not a clock", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": "for cfp in cfps:\n    if cfp.deadline < today:\n        continue\n    keep(cfp)\n" } },
    { name: "a near miss of budget-stop: the stop writes a skip summary", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": BUDGET.replace("break", "emit_skip(skill='tessl__a', step=1, reason='budget spent', items=items)\n        sys.exit(2)") } },
    { name: "a near miss of catch-all-exit-0: it exits 1", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": CATCH_ALL.replace("sys.exit(0)", "sys.exit(1)") } },
    { name: "a near miss of unrelayed-collection: the list is a result field SKILL.md tells the agent to relay", files: { "skills/a/SKILL.md": SKILL + "\nIf `failed` is not empty, send it to the owner with send_message.\n", "skills/a/scripts/run.py": COLLECTION.replace('print(f"{len(failed)} ops failed", file=sys.stderr)', 'print(json.dumps({"failed": failed}))') } },
    { name: "a near miss of stamped-unverified in code: the stamp only after a successful check", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": STAMP_LOOP.replace('    if entry.get("source") == "api":\n        if not verify_live(entry):\n            continue\n    entry["_verified_this_run"] = True', '    ok = verify_live(entry)\n    if ok:\n        entry["_verified_this_run"] = True') } },
    { name: "a near miss of stamped-unverified in code: the stamp in the branch of the check, the skipped branch stamps nothing", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": 'def refresh(entry, offline):\n    if offline:\n        entry["last_verified_skipped"] = today()\n        return entry\n    if check_url(entry["url"]):\n        entry["last_verified"] = today()\n    return entry\n' } },
    { name: "a near miss of stamped-unverified in code: an evidence-gated stamp (a verification result decides)", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": 'def main():\n    advance, reason = verification_state(evidence, today)\n    if advance:\n        state["_last_checked"] = now\n    else:\n        state["_last_checked_skipped"] = now\n        return 1\n' } },
    { name: "a near miss of a relayed field: the section about the script that writes `failed` tells the agent to send it", files: RELAY_FILES(" If `failed` is not empty, send it to the owner with send_message.") },
    { name: "a near miss of stamped-unverified: the stamp follows a live check", files: { "skills/a/SKILL.md": SKILL + "\nAfter the live API call succeeds, set `last_verified` to today.\n" } },
    {
      name: "a near miss of the wrapper: it relays the inner skill's `warnings` itself",
      files: {
        "skills/inner/SKILL.md": "---\nname: inner\n---\nRun the fetch. Surface `warnings` at the top of output.\n",
        "skills/nightly/SKILL.md": "---\nname: nightly\n---\nRun `Skill(skill: \"tessl__inner\")`.\n\nConsume its output internally; do not forward it, but send its `warnings` with send_message.\n",
      },
    },
    { name: "a near miss of instructed-skip: a negated prohibition", files: { "skills/a/SKILL.md": SKILL + "\nDo not skip ahead. There is no permitted budget-skip path that drops candidates.\n" } },
    { name: "a near miss of instructed-skip: the skip is reported", files: { "skills/a/SKILL.md": SKILL + "\nIf the fetch fails, skip the item and send a note via send_message.\n" } },
    { name: "a near miss of instructed-skip: a missing file is nothing to read", files: { "skills/a/SKILL.md": SKILL + "\n- **Missing files**: skip silently and continue.\n" } },
    { name: "a near miss of instructed-skip: a description of what something else does, not an instruction", files: { "skills/a/SKILL.md": SKILL + "\nOn an error, a different model drops them from the prompt (typically silently); the drop happens before pricing, so dropped blocks are not billed.\n" } },
    { name: "a near miss of log-only-skip: a bare `except ValueError: pass` filters values", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": "for rel in rels:\n    try:\n        seen.add(rel.relative_to(root))\n    except ValueError:\n        pass\n" } },
    {
      name: "a tile of coding skills that never defers work (Swift guidance with the words skip, later, budget)",
      files: {
        "skills/swiftui-lists/SKILL.md": "---\nname: swiftui-lists\ndescription: List and ForEach patterns\n---\n# Lists\n\nSkip `AnyView`; it defeats diffing. Load images later, in `.task`, and keep the frame budget under 16 ms.\nIf decoding fails, show a placeholder row.\n\n```swift\nList(items) { item in\n    Row(item)  // skip empty rows later\n}\n```\n",
        "skills/concurrency/SKILL.md": "---\nname: concurrency\n---\n# Concurrency\n\nDo not skip actor isolation. Defer cleanup with `defer { }`.\n",
      },
    },
    {
      name: "a tile of coding skills that describes how a platform behaves (fails silently, instead of an error, retries, a system budget)",
      files: {
        "skills/ios-strings/SKILL.md": "---\nname: ios-strings\n---\n# Strings\n\nA framework needs an explicit `bundle:`; without one the lookup fails silently and the key is shown.\nA type mismatch in the payload causes the update to fail silently.\n",
        "skills/ios-intents/SKILL.md": "---\nname: ios-intents\n---\n# Intents\n\n1. **Throwing for missing entities.** Omit missing entities from the returned array instead of throwing an error.\n2. **Missing display name.** Omitting it causes a compiler error.\n",
        "skills/ios-network/SKILL.md": "---\nname: ios-network\n---\n# Retry\n\nRespect cancellation between attempts. Skip retries for cancellation and 4xx client errors.\n",
        "skills/ios-widget/SKILL.md": "---\nname: ios-widget\n---\n# Widgets\n\n- The system grants a few dozen reloads a day.\n- Reloads requested more often than the budget allows are silently deferred.\n",
      },
    },
    { name: "the skip is declared intentional in the front matter, with a reason", files: { "skills/a/SKILL.md": "---\nname: a\nintentional-skips:\n  log-only-skip: a dead link is dropped by design; the weekly link report lists them\n---\n", "skills/a/scripts/run.py": LOG_ONLY } },
    { name: "a shell near miss: the failure is recorded with skip-summary emit", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.sh": 'for f in *.csv; do\n  if ! load "$f"; then\n    skip-summary emit --skill tessl__a --step 1 --reason "load failed" --item "$f"\n    exit 2\n  fi\ndone\n' } },
  ],
  invalid: [
    { name: "log-only-skip: a failure branch that only logs, then continues", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": LOG_ONLY }, errors: [{ messageId: "silent", file: "skills/a/scripts/run.py", line: 5, message: /skill tessl__a drops an item when it fails.*log-only-skip, 1 place.*emit_skip\(skill="tessl__a".*docs\/owner\.md#python/ }] },
    { name: "budget-stop: a wall-clock budget ends the loop", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": BUDGET }, errors: [{ messageId: "silent", line: 4, message: /budget-stop/ }] },
    { name: "catch-all-exit-0: a broad catch at the top exits 0", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": CATCH_ALL }, errors: [{ messageId: "silent", line: 8, message: /catch-all-exit-0/ }] },
    { name: "unrelayed-collection: failed items only reach stderr as a count", files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": COLLECTION }, errors: [{ messageId: "silent", line: 2, message: /unrelayed-collection/ }] },
    {
      name: "stamped-unverified: a verification field stamped without a check",
      files: { "skills/a/SKILL.md": SKILL + "\nFor feed sources there is no live API call. Mark `_verified_this_run: true` on every entry so Step 8 advances `last_verified`.\n" },
      errors: [{ messageId: "silent", file: "skills/a/SKILL.md", line: 8, message: /stamped-unverified.*skip-summary emit --skill tessl__a/ }],
    },
    {
      name: "stamped-unverified in Python code: a loop stamps every entry verified while only some were checked",
      files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": STAMP_LOOP },
      errors: [{ messageId: "silent", file: "skills/a/scripts/run.py", line: 7, message: /stamps a verification field on entries it did not verify.*stamped-unverified, 1 place/ }],
    },
    {
      name: "stamped-unverified in Python code: the branch that skips the check still stamps",
      files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": STAMP_BRANCH },
      errors: [{ messageId: "silent", file: "skills/a/scripts/run.py", line: 3, message: /stamped-unverified, 1 place/ }],
    },
    {
      name: "unrelayed-collection: a field of the same name relayed in a section about another script does not count",
      files: RELAY_FILES(""),
      errors: [{ messageId: "silent", file: "skills/a/scripts/run.py", line: 2, message: /unrelayed-collection/ }],
    },
    {
      name: "unrelayed-collection: the paragraph that names `failed` with a notification also says not to surface the output",
      files: RELAY_FILES(" Treat a non-empty `failed` list as expected and proceed to the notification below; do not surface it, proceed silently."),
      errors: [{ messageId: "silent", file: "skills/a/scripts/run.py", line: 2, message: /unrelayed-collection/ }],
    },
    {
      name: "instructed-skip: a linked references/*.md says to drop silently on failure",
      files: { "skills/a/SKILL.md": SKILL + "\nThe failure protocol is in `references/contracts.md`.\n", "skills/a/references/contracts.md": "# Contracts\n\nWhen verification fails:\n\n- New candidates: drop silently from this run's pool.\n" },
      errors: [{ messageId: "silent", file: "skills/a/references/contracts.md", line: 5, message: /instructed-skip/ }],
    },
    {
      name: "instructed-skip: a wrapper keeps another skill's output internal, and with it the warnings that skill surfaces there",
      files: {
        "skills/inner/SKILL.md": "---\nname: inner\n---\nRun the fetch. Surface `warnings` at the top of output.\n",
        "skills/nightly/SKILL.md": "---\nname: nightly\n---\nRun `Skill(skill: \"tessl__inner\")`.\n\nConsume its output internally; do not forward it to the owner.\n",
      },
      errors: [{ messageId: "silent", file: "skills/nightly/SKILL.md", line: 6, message: /skill tessl__nightly .*instructed-skip/ }],
    },
    {
      name: "shell log-only-skip: `cmd || { echo >&2; continue; }`",
      files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.sh": 'for f in *.csv; do\n  load "$f" || { echo "skipped $f" >&2; continue; }\ndone\n' },
      errors: [{ messageId: "silent", file: "skills/a/scripts/run.sh", line: 2, message: /log-only-skip.*in shell: `skip-summary emit --skill tessl__a/ }],
    },
    {
      name: "JS log-only-skip: catch in a loop that only logs",
      files: { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.mjs": "for (const u of urls) {\n  try {\n    await get(u);\n  } catch (e) {\n    console.error(`skipped ${u}`);\n    continue;\n  }\n}\n" },
      errors: [{ messageId: "silent", file: "skills/a/scripts/run.mjs", line: 4, message: /log-only-skip.*in JS: `await skipAndExit\(\{ skill: "tessl__a"/ }],
    },
  ],
});

it("reports one finding per skill and mechanism, with every other place as a related location", async () => {
  const two = LOG_ONLY + "\nfor row in rows:\n    try:\n        store(row)\n    except OSError:\n        continue\n";
  const findings = await lintOnly("defer-without-summary", { "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": two, "skills/a/scripts/other.py": LOG_ONLY });
  expect(findings).toHaveLength(1);
  expect(findings[0]!.message).toMatch(/log-only-skip, 3 place/);
  expect(findings[0]!.related?.map((r) => `${r.file}:${r.line}`)).toEqual(["skills/a/scripts/run.py:5", "skills/a/scripts/run.py:12"]);
});

it("honours an intentional skip from the config, keyed by skill id, only with a reason", async () => {
  const { lintTiles } = await import("../../../src/lint/run-lint.js");
  const { writeTile } = await import("../rule-tester.js");
  const dir = await writeTile({ "skills/a/SKILL.md": SKILL, "skills/a/scripts/run.py": LOG_ONLY });
  const severities = new Map([["defer-without-summary", "warning" as const]]);
  const declared = await lintTiles(["."], { cwd: dir, severities, settings: { allMechanisms: true, intentionalSkips: { tessl__a: { "log-only-skip": "dead links are listed weekly" } } } });
  expect(declared.warningCount).toBe(0);
  const noReason = await lintTiles(["."], { cwd: dir, severities, settings: { allMechanisms: true, intentionalSkips: { tessl__a: { "log-only-skip": " " } } } });
  expect(noReason.warningCount).toBe(1);
});

it("shows related places as SARIF relatedLocations, and the first three plus a count in pretty and github", async () => {
  const { lintTiles } = await import("../../../src/lint/run-lint.js");
  const { writeTile } = await import("../rule-tester.js");
  const { FORMATTERS } = await import("../../../src/lint/formatters/index.js");
  const files: Record<string, string> = { "skills/a/SKILL.md": SKILL };
  for (const n of [1, 2, 3, 4, 5]) files[`skills/a/scripts/s${n}.py`] = `${LOG_ONLY}print("script ${n}")\n`; // distinct scripts: a copy of one is reported once
  const dir = await writeTile(files);
  const summary = await lintTiles(["."], { cwd: dir, settings: { allMechanisms: true }, severities: new Map([["defer-without-summary", "warning" as const]]) });
  const options = { rules: [], version: "0", color: false };
  const sarif = JSON.parse(FORMATTERS.sarif(summary, options));
  expect(sarif.runs[0].results[0].relatedLocations.map((l: { physicalLocation: { artifactLocation: { uri: string } } }) => l.physicalLocation.artifactLocation.uri)).toEqual([
    "skills/a/scripts/s2.py",
    "skills/a/scripts/s3.py",
    "skills/a/scripts/s4.py",
    "skills/a/scripts/s5.py",
  ]);
  expect(FORMATTERS.pretty(summary, options)).toContain("also at skills/a/scripts/s2.py:5, skills/a/scripts/s3.py:5, skills/a/scripts/s4.py:5 and 1 more");
  expect(FORMATTERS.github(summary, options)).toContain("%0Aalso at skills/a/scripts/s2.py:5, skills/a/scripts/s3.py:5, skills/a/scripts/s4.py:5 and 1 more");
});
