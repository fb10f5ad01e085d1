// Python a shell script runs from a heredoc (`python3 - <<'EOF'` ... `EOF`): code like any other script's, which the
// bash grammar reads only as a string. Each body is handed to the Python grammar at its own lines (earlier lines are
// kept blank), so what the Python checks find points into the shell file where the reader sees it.

/** `python3 - <<'PY'`, `python <<-EOF`, `uv run python - <<"END"`: the interpreter reads its program from the heredoc. */
const OPENER = /^[^#\n]*\bpython[\d.]*\s+(?:-[A-Za-z]+\s+)*(?:-\s+)?(?:[^<\n]*?\s)?<<(-?)\s*(['"]?)(\w+)\2/;

export interface PythonHeredoc {
  /** The script's text with every line outside the body blanked, so lines and columns match the shell file. */
  readonly text: string;
}

/** Every Python heredoc body of a shell script. */
export function pythonHeredocs(source: string): PythonHeredoc[] {
  if (!/\bpython[\d.]*\b[^\n]*<</.test(source)) return [];
  const lines = source.split("\n");
  const out: PythonHeredoc[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = OPENER.exec(lines[i]!);
    if (!m) continue;
    const [, dash, , word] = m;
    let end = i + 1;
    while (end < lines.length && (dash ? lines[end]!.replace(/^\t+/, "") : lines[end]) !== word) end++;
    if (end <= i + 1) continue;
    const body = lines.slice(i + 1, end).map((l) => (dash ? l.replace(/^\t+/, "") : l));
    out.push({ text: "\n".repeat(i + 1) + body.join("\n") + "\n" });
    i = end;
  }
  return out;
}
