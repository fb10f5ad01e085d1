// A progress mark saved whatever the work before it answered (progress-past-failure, widened): the next run starts
// after a window or items whose work failed, and nobody is told. Python, JS/TS and shell read one notion each.
import { describe, expect, it } from "vitest";
import { mechanismPlaces as places } from "./rule-tester.js";

const only = (found: string[]) => found.filter((p) => p.startsWith("progress-past-failure:"));

const GRAPH_GET = `import fs from "node:fs";

async function graphGet(path) {
  try {
    const res = await fetch(\`https://graph.example\${path}\`);
    if (!res.ok) return { error: await res.text(), code: res.status };
    return await res.json();
  } catch (e) {
    return { error: String(e) };
  }
}

function saveState(state) {
  fs.writeFileSync("state.json", JSON.stringify(state));
}
`;

describe("progress-past-failure (JS/TS): a mark saved whatever a call answered", () => {
  it("reports `state.lastCheck = now; saveState(state)` after a call that answers { error } nobody reads", async () => {
    const code = `${GRAPH_GET}\nconst state = JSON.parse(fs.readFileSync("state.json", "utf8"));\nconst result = await graphGet(\`/me/messages?since=\${state.lastCheck}\`);\nstate.lastCheck = new Date().toISOString();\nsaveState(state);\nconsole.log(JSON.stringify(result.value || []));\n`;
    expect(only(await places("scripts/poll.mjs", code))).toEqual(["progress-past-failure:19"]);
  });

  it("says nothing when the answer is tested before the mark, or the mark is not saved", async () => {
    const tested = `${GRAPH_GET}\nconst state = JSON.parse(fs.readFileSync("state.json", "utf8"));\nconst result = await graphGet("/me/messages");\nif (result.error) throw new Error(result.error);\nstate.lastCheck = new Date().toISOString();\nsaveState(state);\n`;
    expect(only(await places("scripts/poll.mjs", tested))).toEqual([]);
    const unsaved = `${GRAPH_GET}\nconst client = {};\nconst result = await graphGet("/me/messages");\nclient.lastRequest = Date.now();\nconsole.log(result.value);\n`;
    expect(only(await places("scripts/poll.mjs", unsaved))).toEqual([]);
    const all = `${GRAPH_GET}\nconst state = JSON.parse(fs.readFileSync("state.json", "utf8"));\nconst [mail, chats] = await Promise.all([graphGet("/me/messages"), graphGet("/me/chats")]);\nif (mail.error || chats.error) process.exit(1);\nstate.lastCheck = new Date().toISOString();\nsaveState(state);\n`;
    expect(only(await places("scripts/poll.mjs", all))).toEqual([]);
  });
});

const BQ = `import json
import subprocess
import sys

def bq(sql):
    p = subprocess.run(["bq", "query", "--format=json"], input=sql, capture_output=True, text=True)
    if p.returncode != 0:
        return {"error": p.stderr.strip()}
    try:
        return json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"error": "not JSON"}

def digest_project(name, since):
    out = {"name": name}
    out["users"] = bq(f"SELECT * FROM users WHERE ts > '{since}'")
    return out

def update_state(name):
    state = json.load(open("state.json"))
    state[name] = {"last_checked_at": now()}
    save_json("state.json", state)
`;

describe("progress-past-failure (Python): a mark saved whatever a call answered", () => {
  it("follows an error answer through a function that hands it on, to a mark function called after it", async () => {
    const code = `${BQ}\nfor name in projects:\n    digest.append(digest_project(name, since(name)))\n    update_state(name)\nprint(json.dumps(digest))\n`;
    expect(only(await places("scripts/digest.py", code))).toEqual(["progress-past-failure:26"]);
  });

  it("says nothing when the mark is written only on an outcome, or the answer is tested", async () => {
    const gated = `${BQ}\nfor name in projects:\n    result = digest_project(name, since(name))\n    if "error" in result["users"]:\n        sys.exit(result["users"]["error"])\n    update_state(name)\n`;
    expect(only(await places("scripts/digest.py", gated))).toEqual([]);
    const outcome = `${BQ}\nstate = json.load(open("state.json"))\nresult = bq("SELECT 1")\nok = isinstance(result, list)\nif ok:\n    state["last_run"] = now()\nsave_json("state.json", state)\n`;
    expect(only(await places("scripts/digest.py", outcome))).toEqual([]);
  });

  it("does not count a None kept in a report as an error handed on", async () => {
    const code = `import json\nimport subprocess\n\ndef du_bytes(path):\n    try:\n        return int(subprocess.run(["du", "-sk", path], capture_output=True, text=True).stdout.split()[0]) * 1024\n    except Exception:\n        return None\n\ndef report(path):\n    size = du_bytes(path)\n    return {"size": size}\n\nstate = json.load(open("state.json"))\nr = report("/data")\nstate["last_report_at"] = now()\nsave_json("state.json", state)\n`;
    expect(only(await places("scripts/report.py", code))).toEqual([]);
  });
});

describe("progress-past-failure (shell): a mark written whatever the work did", () => {
  const sync = (exportLine: string) =>
    `#!/bin/bash\nset -euo pipefail\nSTATE_FILE="$HOME/.sync/state.json"\n\nexport_remote() {\n  ${exportLine}\n}\n\nupdate_state() {\n  jq --arg ts "$(date -u +%FT%TZ)" '.last_sync = $ts' "$STATE_FILE" > "$STATE_FILE.tmp" && mv "$STATE_FILE.tmp" "$STATE_FILE"\n}\n\nexport_remote\nupdate_state\n`;

  it("reports a mark function called after a function whose failure is only defaulted", async () => {
    expect(only(await places("scripts/sync.sh", sync(`curl -fsS "$API/events" > events.json || echo '{"items":[]}' > events.json`)))).toEqual(["progress-past-failure:10"]);
  });

  it("says nothing when the failure stops the run", async () => {
    expect(only(await places("scripts/sync.sh", sync(`curl -fsS "$API/events" > events.json || { echo "export failed" >&2; exit 1; }`)))).toEqual([]);
  });

  const send = (pipefail: string, status: string) =>
    `#!/bin/bash\n${pipefail}SENT_FILE="$HOME/.alerts/sent"\nLOG_FILE="$HOME/.alerts/log"\n\nsend_alert() {\n  local id="$1"\n  if grep -q "$id" "$SENT_FILE"; then return 0; fi\n  notify-cli send --channel ops -m "alert $id" 2>&1 | tee -a "$LOG_FILE"\n  if [ ${status} -eq 0 ]; then\n    echo "$(date +%s) $id" >> "$SENT_FILE"\n  else\n    echo "send failed" >&2\n    return 1\n  fi\n}\n\nfor id in $(new_alert_ids); do send_alert "$id" || true; done\n`;

  it("reports a mark under `if [ $? -eq 0 ]` after `send | tee`: the check reads tee", async () => {
    expect(only(await places("scripts/alerts.sh", send("", "$?")))).toEqual(["progress-past-failure:10"]);
  });

  it("says nothing with pipefail, or when the check reads the send's own status", async () => {
    expect(only(await places("scripts/alerts.sh", send("set -o pipefail\n", "$?")))).toEqual([]);
    expect(only(await places("scripts/alerts.sh", send("", '"${PIPESTATUS[0]}"')))).toEqual([]);
  });
});
