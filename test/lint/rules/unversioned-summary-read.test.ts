import { ruleTester } from "../rule-tester.js";

ruleTester("unversioned-summary-read", {
  valid: [
    { name: "Python checks schema_version", files: { "scripts/s.py": 'for p in glob.glob(os.path.join(ws, ".skip-summary-*.json")):\n    d = json.load(open(p))\n    if d.get("schema_version") != 1:\n        continue\n' } },
    { name: "bash uses skip-summary validate", files: { "scripts/s.sh": 'for f in "$WS"/.skip-summary-*.json; do\n  skip-summary validate "$f" || continue\n  cat "$f"\ndone\n' } },
    { name: "JS uses readSummaryFile", files: { "scripts/s.mjs": 'import { readSummaryFile } from "skip-summary";\nconst r = await readSummaryFile(`${ws}/.skip-summary-${id}.json`, {});\n' } },
  ],
  invalid: [
    { name: "bash jq without a version check", files: { "scripts/s.sh": 'for f in "$WS"/.skip-summary-*.json; do\n  jq -r .reason "$f"\ndone\n' }, errors: [{ messageId: "unversioned", file: "scripts/s.sh", line: 2, column: 17 }] },
    { name: "a version check in a comment does not count", files: { "scripts/s.py": '# TODO check schema_version\nd = json.load(open(os.path.join(ws, ".skip-summary-tessl__a.json")))\n' }, errors: [{ messageId: "unversioned", line: 2, message: /^open reads a summary/ }] },
  ],
});
