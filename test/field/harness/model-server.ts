// A scripted model for the real Claude Code: the Anthropic Messages API (POST /v1/messages, streaming SSE and JSON) on
// 127.0.0.1, so a field test runs offline and every turn takes the same path. The script is in the prompt itself, so
// the server keeps no state per conversation and follows whatever Claude Code sends (subagents, retries, a second
// turn), as the harness in ../shared/field-harness/claude-code/fake-anthropic.mjs did:
//   BASH: <command>            a Bash tool_use running <command>; after its tool_result, the text "done" and end_turn
//   TASK: <command>            an Agent (or Task) tool_use: a background subagent whose own prompt is "BASH: <command>"
//   BASH_THEN_FAIL: <command>  as BASH, but the request after the tool_result gets HTTP 400 (a turn that ends on an API
//                              error: Claude Code fires StopFailure, not Stop)
//   anything else              the text "done", end_turn
// The last user message carrying a directive decides; the number of assistant messages after it is the step. Requests
// without tools (Claude Code's side queries: titles, summaries) get a short text.
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ModelRequest {
  readonly at: number;
  readonly path: string;
  readonly tools: readonly string[];
  readonly plan: string;
}

export interface ModelServer {
  readonly url: string;
  readonly requests: ModelRequest[];
  close(): Promise<void>;
}

type Block = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };
type Plan = { kind: string; blocks: Block[]; stop: "end_turn" | "tool_use" } | { kind: string; error: { status: number; type: string; message: string } };

const DIRECTIVE = /\b(BASH_THEN_FAIL|BASH|TASK):\s*([^\n]+)/g;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((b) => b && b.type === "text").map((b) => String(b.text)).join("\n");
}

function plan(body: { messages?: { role: string; content: unknown }[]; tools?: { name: string }[] }): Plan {
  const tools = (body.tools ?? []).map((t) => t.name);
  if (tools.length === 0) return { kind: "side-query", blocks: [{ type: "text", text: "OK" }], stop: "end_turn" };
  const messages = body.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]!.role !== "user") continue;
    // Claude Code wraps a prompt in <system-reminder> blocks; only text blocks are read, and their last directive counts.
    const found = [...textOf(messages[i]!.content).matchAll(DIRECTIVE)].at(-1);
    if (found === undefined) continue;
    const [, verb, arg] = found as unknown as [string, string, string];
    const step = messages.slice(i + 1).filter((m) => m.role === "assistant").length;
    if (step > 0 && verb === "BASH_THEN_FAIL") return { kind: "api-error", error: { status: 400, type: "invalid_request_error", message: "scripted model: a failure after the tool call" } };
    if (step > 0) return { kind: `${verb}/final`, blocks: [{ type: "text", text: "done" }], stop: "end_turn" };
    const id = `toolu_field_${randomBytes(8).toString("hex")}`;
    if (verb !== "TASK") {
      if (!tools.includes("Bash")) return { kind: "no-bash", blocks: [{ type: "text", text: `no Bash tool offered: ${tools.join(",")}` }], stop: "end_turn" };
      return { kind: `${verb}/tool_use`, blocks: [{ type: "tool_use", id, name: "Bash", input: { command: arg.trim(), description: "scripted command" } }], stop: "tool_use" };
    }
    const agent = ["Agent", "Task"].find((n) => tools.includes(n));
    if (agent === undefined) return { kind: "no-agent", blocks: [{ type: "text", text: `no Agent tool offered: ${tools.join(",")}` }], stop: "end_turn" };
    return { kind: "TASK/tool_use", blocks: [{ type: "tool_use", id, name: agent, input: { description: "scripted subagent", prompt: `BASH: ${arg.trim()}`, subagent_type: "general-purpose", run_in_background: true } }], stop: "tool_use" };
  }
  return { kind: "no-directive", blocks: [{ type: "text", text: "done" }], stop: "end_turn" };
}

const usage = { input_tokens: 100, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "request-id": `req_field_${Date.now()}` });
  res.end(JSON.stringify(body));
}

function answer(res: ServerResponse, body: { model?: string; stream?: boolean }, p: Plan, n: number): void {
  if ("error" in p) return json(res, p.error.status, { type: "error", error: { type: p.error.type, message: p.error.message } });
  const message = { id: `msg_field_${n}`, type: "message", role: "assistant", model: body.model ?? "claude-field", stop_sequence: null };
  if (!body.stream) return json(res, 200, { ...message, content: p.blocks, stop_reason: p.stop, usage });
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const sse = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...(data as object) })}\n\n`);
  sse("message_start", { message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } } });
  p.blocks.forEach((b, index) => {
    if (b.type === "text") {
      sse("content_block_start", { index, content_block: { type: "text", text: "" } });
      sse("content_block_delta", { index, delta: { type: "text_delta", text: b.text } });
    } else {
      sse("content_block_start", { index, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } });
      sse("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) } });
    }
    sse("content_block_stop", { index });
  });
  sse("message_delta", { delta: { stop_reason: p.stop, stop_sequence: null }, usage: { output_tokens: 10 } });
  sse("message_stop", {});
  res.end();
}

export async function startModelServer(): Promise<ModelServer> {
  const requests: ModelRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0]!;
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
      } catch {
        return json(res, 400, { type: "error", error: { type: "invalid_request_error", message: "scripted model: the body is not JSON" } });
      }
      if (req.method === "POST" && path === "/v1/messages") {
        const p = plan(body as Parameters<typeof plan>[0]);
        requests.push({ at: Date.now(), path, tools: ((body.tools as { name: string }[] | undefined) ?? []).map((t) => t.name), plan: p.kind });
        return answer(res, body, p, requests.length);
      }
      requests.push({ at: Date.now(), path, tools: [], plan: "other" });
      if (req.method === "POST" && path === "/v1/messages/count_tokens") return json(res, 200, { input_tokens: 100 });
      if (req.method === "GET" && path.startsWith("/v1/models")) return json(res, 200, { data: [], has_more: false, first_id: null, last_id: null });
      json(res, 404, { type: "error", error: { type: "not_found_error", message: `scripted model: no route for ${req.method} ${path}` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
