// What a shell command is, for every shell reader (shell-skips.ts, shell-stamps.ts): its name, and whether its
// failure is work left undone or only a test, a parse or a log line. One list, so the readers agree on what "work" is.
import type { SyntaxNode } from "../source/tree-sitter.js";

/** Commands whose failure is a test, a parse or a log line, not work left undone. */
export const NOT_WORK: ReadonlySet<string> = new Set(
  "[ [[ test grep egrep fgrep rg jq yq sed awk cut tr read cd pushd popd mkdir rm rmdir touch ls cat head tail echo printf source . true false : declare local export readonly typeset sort uniq wc basename dirname date sleep kill pkill wait shift set unset let expr command which type hash realpath readlink stat find tee diff cmp file id whoami env printenv mktemp chmod chown ln eval exec trap return exit break continue pgrep ps log warn error info debug logger".split(" "),
);

/** The command's name, through a redirect (`cmd > f`); "" for anything that is not a simple command. */
export function commandName(node: SyntaxNode | null | undefined): string {
  const inner = node?.type === "redirected_statement" ? node.childForFieldName("body") : node;
  return inner?.type === "command" ? inner.childForFieldName("name")?.text ?? "" : "";
}

/** The first real command a condition or list operand runs (through `!`, redirections, `$(...)` assignments). */
export function firstCommand(node: SyntaxNode): SyntaxNode | undefined {
  return node.type === "command" ? node : node.descendantsOfType("command")[0];
}

/**
 * Whether a failure of this statement is work left undone. A pipeline's status is its last command's (`crontab -l |
 * grep -c X || echo 0` fails when grep matches nothing), unless the script sets pipefail, when any command's failure
 * is the pipeline's.
 */
export function isWork(node: SyntaxNode, pipefail: boolean): boolean {
  const inner = node.type === "redirected_statement" ? node.childForFieldName("body") ?? node : node;
  if (inner.type === "pipeline" && inner.namedChildren.length > 1) {
    return pipefail ? inner.namedChildren.some((p) => isWork(p, pipefail)) : isWork(inner.namedChildren.at(-1)!, pipefail);
  }
  const cmd = firstCommand(node);
  const n = cmd?.childForFieldName("name")?.text ?? "";
  if (n === "" || NOT_WORK.has(n) || /^\$|^\[/.test(n)) return false;
  return !(cmd && inlineParseOnly(cmd, n));
}

/** What makes inline Python reach beyond the machine or change it: a request, a subprocess, a write. */
const PY_REACHES = /\b(?:urllib|requests|httpx|aiohttp|http\.client|socket|smtplib|imaplib|poplib|ftplib|paramiko|boto3|websockets?|subprocess|os\.system|os\.popen|shutil|os\.(?:remove|unlink|rename|replace|makedirs|mkdir|rmdir))\b|\.(?:write|write_text|write_bytes|unlink|mkdir|rename|replace)\(|\bopen\([^)]*,\s*['"][wax]|\bjson\.dump\(/;

/**
 * `python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))))" "$F"`: inline Python that only reads and
 * parses (a JSON file, stdin, a file's age) is the shell's jq or stat, not work that can be left undone; its failure
 * answering 0 or [] is bad or missing input read as a default, like `jq ... || echo 0`.
 */
function inlineParseOnly(cmd: SyntaxNode, n: string): boolean {
  if (!/^python[\d.]*$/.test(n)) return false;
  const args = cmd.childrenForFieldName("argument");
  const at = args.findIndex((a) => a.text === "-c");
  const code = at === -1 ? undefined : args[at + 1]?.text;
  return code !== undefined && code.length > 2 && !PY_REACHES.test(code);
}
