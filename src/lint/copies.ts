// One script copied into several skills is one problem, not N: findings at the same place of files with the same
// content are reported once, at the first copy (by path), with the other copies as related places (docs/lint.md
// "Copied scripts"). Only code files are grouped: a SKILL.md or a manifest is about its own skill or tile.
import { isCode } from "./tile/classify-path.js";
import type { TileFile } from "./tile/files.js";
import type { Finding, Location } from "./types.js";

export function groupCopies(findings: readonly Finding[], files: readonly TileFile[], tilePathOf: (shown: string) => string): Finding[] {
  // Most findings are not in code files, and most tiles have no copies: the content map is built only when a finding
  // is in a code file.
  const at = new Map(findings.map((f) => [f, tilePathOf(f.file)]));
  const code = new Map<string, TileFile>();
  for (const f of files) if (f.text !== undefined && isCode(f.language)) code.set(f.path, f);
  if (![...at.values()].some((p) => code.has(p))) return [...findings];
  const byText = new Map<string, string[]>();
  for (const f of code.values()) {
    const list = byText.get(f.text!);
    if (list) list.push(f.path);
    else byText.set(f.text!, [f.path]);
  }
  /** The first copy (by path) of each file that has copies. */
  const firstCopy = new Map<string, string>();
  for (const list of byText.values()) {
    if (list.length < 2) continue;
    const first = [...list].sort()[0]!;
    for (const p of list) firstCopy.set(p, first);
  }
  if (firstCopy.size === 0) return [...findings];
  const groups = new Map<string, Finding[]>();
  const out: Finding[] = [];
  for (const f of findings) {
    const first = firstCopy.get(at.get(f)!);
    if (first === undefined) {
      out.push(f);
      continue;
    }
    const key = `${first}\0${f.ruleId}\0${f.messageId}\0${f.line}\0${f.column}`;
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  for (const group of groups.values()) {
    group.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    const [head, ...copies] = group;
    if (copies.length === 0) {
      out.push(head!);
      continue;
    }
    const related: Location[] = [...(head!.related ?? [])];
    for (const c of copies) {
      related.push({ file: c.file, line: c.line, column: c.column, ...(head!.snippet === undefined ? {} : { snippet: head!.snippet }) });
      for (const r of c.related ?? []) if (!related.some((x) => x.file === r.file && x.line === r.line && x.column === r.column)) related.push(r);
    }
    const severity = group.some((f) => f.severity === "error") ? "error" : head!.severity;
    out.push({ ...head!, severity, message: `${head!.message} (the same file is copied to ${copies.length} more place${copies.length === 1 ? "" : "s"}: ${copies.slice(0, 3).map((c) => c.file).join(", ")}${copies.length > 3 ? ", ..." : ""})`, related });
  }
  return out;
}
