// `--heal "./login.sh --refresh"` is one flag value but must run without a shell: split it the way a POSIX
// shell splits words (quotes and backslashes), and refuse the syntax a shell would expand or interpret ($, `,
// operators); `~` and glob characters have no special meaning here and stay literal.

import { SkipSummaryError } from "../contract/errors.js";

const OPERATORS = new Set(["|", "&", ";", "<", ">", "(", ")", "`"]);

/**
 * `./login.sh --user 'a b' "c\"d" e\ f` -> ["./login.sh", "--user", "a b", 'c"d', "e f"].
 * Single quotes keep everything; double quotes let `\` escape `"`, `\`, `$` and `` ` ``; outside quotes `\` escapes
 * any character. Unquoted `| & ; < > ( )` and backticks, and `$` anywhere outside single quotes, are refused:
 * no expansion or pipeline ever happens.
 */
export function splitShellWords(input: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  const fail = (problem: string): never => {
    throw new SkipSummaryError("runner.shell_words_invalid", `cannot split ${JSON.stringify(input)} into arguments: ${problem}`, { input, problem });
  };
  while (i < input.length) {
    const c = input[i]!;
    if (c === " " || c === "\t" || c === "\n") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
      i++;
    } else if (c === "'") {
      const end = input.indexOf("'", i + 1);
      if (end < 0) fail("a single quote is not closed");
      word += input.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      inWord = true;
      i++;
      for (;;) {
        if (i >= input.length) fail("a double quote is not closed");
        const d = input[i]!;
        if (d === '"') break;
        if (d === "$" || d === "`") fail(`"${d}" inside double quotes would be expanded by a shell; the command runs without one, so put it in single quotes`);
        if (d === "\\" && i + 1 < input.length && '"\\$`'.includes(input[i + 1]!)) {
          word += input[i + 1];
          i += 2;
        } else {
          word += d;
          i++;
        }
      }
      i++;
    } else if (c === "\\") {
      if (i + 1 >= input.length) fail("it ends with a lone backslash");
      word += input[i + 1];
      inWord = true;
      i += 2;
    } else if (c === "$" || OPERATORS.has(c)) {
      fail(`"${c}" is shell syntax, and the command runs without a shell; quote it, or wrap the pipeline in a script`);
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(word);
  if (words.length === 0) fail("it is empty");
  return words;
}
