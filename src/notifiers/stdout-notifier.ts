// The notifier that needs nothing: the plain-text notice on the surfacer's stdout (the default outside NanoClaw).
import { abortWords } from "./deadline.js";
import { permanentFailure, transientFailure } from "./failure.js";
import { describeError } from "./redact.js";
import type { Notifier } from "./types.js";

export interface TextSink {
  write(text: string): unknown;
}

export function createStdoutNotifier(name: string, stdout: TextSink): Notifier {
  let sent = 0;
  return {
    name,
    // One stream for the whole process, whichever workspace a notice comes from.
    destination: () => "stdout",
    async send(request) {
      if (request.signal.aborted) return transientFailure(`nothing was written: ${abortWords(request.signal)}`);
      const text = request.message.text.endsWith("\n") ? request.message.text : `${request.message.text}\n`;
      try {
        // A blank line between notices keeps several of them readable in one terminal.
        stdout.write(sent === 0 ? text : `\n${text}`);
      } catch (error) {
        return permanentFailure(`cannot write to stdout: ${describeError(error)}`);
      }
      sent += 1;
      return { ok: true };
    },
  };
}
