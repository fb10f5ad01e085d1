import { ruleTester } from "../rule-tester.js";

ruleTester("surfacer-deletes-before-send", {
  valid: [
    {
      name: "bash: read, send, then delete",
      files: { "scripts/surface.sh": 'for f in "$WS"/.skip-summary-*.json; do\n  body=$(jq -r .reason "$f")\n  send_message "$body" && rm -f "$f"\ndone\n' },
    },
    {
      name: "Python: send then os.remove",
      files: { "hooks/surface.py": 'for path in glob.glob(os.path.join(ws, ".skip-summary-*.json")):\n    data = json.load(open(path))\n    send_message(data["reason"])\n    os.remove(path)\n' },
    },
    { name: "reads summaries but sends nothing (not a surfacer)", files: { "scripts/count.sh": 'cat "$WS"/.skip-summary-*.json | wc -l\n' } },
  ],
  invalid: [
    {
      name: "bash: delete before the send",
      files: { "scripts/surface.sh": 'for f in "$WS"/.skip-summary-*.json; do\n  body=$(cat "$f")\n  rm -f "$f"\n  send_message "$body"\ndone\n' },
      errors: [{ messageId: "beforeSend", file: "scripts/surface.sh", line: 3, column: 9, message: /before the send on line 4/ }],
    },
    {
      name: "JS: never deletes",
      files: { "lib/surface.mjs": 'for (const name of names) {\n  const s = JSON.parse(await readFile(join(ws, `.skip-summary-${name}.json`), "utf8"));\n  await notifier.send(s.reason);\n}\n' },
      errors: [{ messageId: "never", line: 3, column: 9 }],
    },
  ],
});
