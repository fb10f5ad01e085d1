// Drives the real Claude Code through @anthropic-ai/claude-agent-sdk as NanoClaw's agent-runner does (streaming input
// through a push-based iterable, settingSources ['project', 'user'], bypassPermissions, the environment passed on),
// and prints every SDK message as one JSON line on stdout with the wall-clock time it arrived, so the test can line
// them up with what its model server and receiver saw. Plain JavaScript: it runs as another user, outside vitest.
//
// Usage: node driver.mjs CONFIG.json, where CONFIG is
//   { cwd, prompts: string[], nextPromptDelayMs?, endWhen?: { hookEvents?: string[], stdin?: true }, holdOpenMs?, options? }
// The next prompt is pushed after each `result`. After the last one the input ends once a hook_response was seen for
// every event in endWhen.hookEvents (e.g. SubagentStop: a background subagent finishes after the turn), or after
// holdOpenMs when there is none to wait for. With endWhen.stdin the input ends when stdin does: the test plays the
// host that decides when a session is over (NanoClaw keeps it open until its idle timeout).
import { readFileSync } from "node:fs";
import { query } from "@anthropic-ai/claude-agent-sdk";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
const print = (line) => process.stdout.write(`${JSON.stringify({ at: Date.now(), ...line })}\n`);

class Prompts {
  queue = [];
  waiting = undefined;
  done = false;
  push(text) {
    this.queue.push({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "" });
    this.waiting?.();
  }
  end() {
    this.done = true;
    this.waiting?.();
  }
  async *[Symbol.asyncIterator]() {
    for (;;) {
      while (this.queue.length > 0) yield this.queue.shift();
      if (this.done) return;
      await new Promise((resolve) => (this.waiting = resolve));
      this.waiting = undefined;
    }
  }
}

const pending = [...config.prompts];
const input = new Prompts();
input.push(pending.shift());
print({ kind: "driver", event: "prompt", n: 1 });

const awaited = new Set(config.endWhen?.hookEvents ?? []);
let results = 0;
let ending = false;
const endInput = () => {
  print({ kind: "driver", event: "end" });
  input.end();
};
if (config.endWhen?.stdin) {
  process.stdin.resume();
  process.stdin.on("end", endInput);
}
const maybeEnd = () => {
  if (config.endWhen?.stdin || ending || pending.length > 0 || results < config.prompts.length || awaited.size > 0) return;
  ending = true;
  setTimeout(endInput, config.holdOpenMs ?? 300);
};

const options = {
  cwd: config.cwd,
  env: { ...process.env },
  permissionMode: "bypassPermissions",
  allowDangerouslySkipPermissions: true,
  settingSources: ["project", "user"],
  includeHookEvents: true,
  stderr: (data) => process.stderr.write(data),
  ...config.options,
};

try {
  for await (const m of query({ prompt: input, options })) {
    const line = { kind: "sdk", type: m.type, subtype: m.subtype };
    if (m.type === "system" && m.subtype === "init") Object.assign(line, { version: m.claude_code_version, cwd: m.cwd, session: m.session_id });
    if (m.type === "system" && (m.subtype === "hook_started" || m.subtype === "hook_response")) {
      Object.assign(line, { hook_event: m.hook_event, hook_id: m.hook_id, stdout: m.stdout, stderr: m.stderr, exit_code: m.exit_code, outcome: m.outcome });
      if (m.subtype === "hook_response") awaited.delete(m.hook_event);
    }
    if (m.type === "assistant" || m.type === "user") {
      line.subagent = m.parent_tool_use_id != null;
      const content = m.message?.content;
      line.content = Array.isArray(content) ? content.map((b) => (b.type === "text" ? { text: b.text } : b.type === "tool_use" ? { tool_use: b.name, input: b.input } : b.type === "tool_result" ? { tool_result: b.content, is_error: b.is_error } : { type: b.type })) : content;
    }
    if (m.type === "result") Object.assign(line, { is_error: m.is_error, result: m.result, stop_reason: m.stop_reason });
    if (!["assistant", "user", "result"].includes(m.type) && !String(m.subtype).startsWith("hook_") && m.subtype !== "init") line.raw = m;
    print(line);
    if (m.type === "result") {
      results++;
      if (pending.length > 0) {
        setTimeout(() => {
          input.push(pending.shift());
          print({ kind: "driver", event: "prompt", n: results + 1 });
        }, config.nextPromptDelayMs ?? 200);
      }
    }
    maybeEnd();
  }
  print({ kind: "driver", event: "done", results });
} catch (error) {
  print({ kind: "driver", event: "error", error: String(error?.stack ?? error) });
  process.exitCode = 1;
}
