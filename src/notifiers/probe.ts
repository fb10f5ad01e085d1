// `skip-summary check` asks each notifier whether it could deliver now, without sending a notice: a harmless call
// where the service has one (Telegram's getMe, Alertmanager's /-/ready, a webhook's HEAD), a look at the folder or
// file a host notifier writes to, the program a command notifier runs. Nothing here claims, sends or writes.
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import { abortWords } from "./deadline.js";
import { bodySnippet } from "./http-post.js";
import { describeError } from "./redact.js";

import type { ProbeResult } from "./types.js";

type Answer = { kind: "response"; status: number; body: string } | { kind: "error"; words: string };

async function request(url: string, method: "GET" | "HEAD" | "OPTIONS", headers: Record<string, string>, signal: AbortSignal): Promise<Answer> {
  try {
    const response = await fetch(url, { method, headers, signal, redirect: "manual" });
    return { kind: "response", status: response.status, body: method === "HEAD" ? "" : (await response.text()).slice(0, 4096) };
  } catch (error) {
    return { kind: "error", words: signal.aborted ? abortWords(signal) : describeError(error) };
  }
}

/** Telegram's getMe: the token is good when it answers ok with the bot. */
export async function probeTelegram(base: string, token: string, signal: AbortSignal): Promise<ProbeResult> {
  const where = new URL(base).origin;
  const a = await request(`${base}/bot${token}/getMe`, "GET", {}, signal);
  if (a.kind === "error") return { status: "fail", detail: `cannot reach ${where}: ${a.words}` };
  let reply: { ok?: unknown; result?: { username?: unknown }; description?: unknown } | undefined;
  try {
    reply = JSON.parse(a.body) as typeof reply;
  } catch {
    reply = undefined;
  }
  if (a.status === 200 && reply?.ok === true) return { status: "ok", detail: `getMe: the token belongs to @${String(reply.result?.username ?? "?")} (${where})` };
  const why = typeof reply?.description === "string" ? reply.description : bodySnippet(a.body);
  const hint = a.status === 401 || a.status === 404 ? "; the token is wrong or revoked: get it again from @BotFather" : "";
  return { status: "fail", detail: `getMe at ${where} answered HTTP ${a.status}${why ? `: ${why}` : ""}${hint}` };
}

/** A webhook has no standard health call: HEAD, then OPTIONS, shows the host answers HTTP at that address. */
export async function probeWebhook(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<ProbeResult> {
  const where = new URL(url).origin;
  let a = await request(url, "HEAD", headers, signal);
  if (a.kind === "response" && (a.status === 405 || a.status === 501)) a = await request(url, "OPTIONS", headers, signal);
  if (a.kind === "error") return { status: "fail", detail: `cannot reach ${where}: ${a.words}` };
  if (a.status >= 500) return { status: "fail", detail: `${where} answered HTTP ${a.status} (a server error)` };
  if (a.status >= 300 && a.status < 400) return { status: "fail", detail: `${where} answered HTTP ${a.status}, a redirect: redirects are not followed, set url to the final address` };
  if (a.status === 404 || a.status === 410) return { status: "warn", detail: `${where} answers, but HTTP ${a.status} for this path: is the path right? (a receiver may answer only POST)` };
  return { status: "ok", detail: `${where} answers (HTTP ${a.status}; no notice was posted)` };
}

/** Alertmanager's readiness endpoint on every replica; one that is not ready is a failure. */
export async function probeAlertmanager(urls: readonly string[], headers: Record<string, string>, signal: AbortSignal): Promise<ProbeResult> {
  const answers = await Promise.all(urls.map(async (u) => ({ u, a: await request(`${u.replace(/\/+$/, "")}/-/ready`, "GET", headers, signal) })));
  const bad = answers.filter(({ a }) => a.kind === "error" || a.status !== 200);
  const words = ({ u, a }: (typeof answers)[number]) => `${new URL(u).origin}: ${a.kind === "error" ? a.words : `/-/ready answered HTTP ${a.status}`}`;
  if (bad.length === 0) return { status: "ok", detail: `${urls.length} replica${urls.length === 1 ? "" : "s"} ready (/-/ready)` };
  return { status: "fail", detail: `${bad.length} of ${urls.length} not ready: ${bad.map(words).join("; ")}` };
}

/** A host notifier's folder: it must exist and be writable by this user. */
export async function probeFolder(dir: string, what: string): Promise<ProbeResult> {
  try {
    if (!(await stat(dir)).isDirectory()) return { status: "fail", detail: `${what} ${dir} is not a folder` };
    await access(dir, constants.W_OK);
    return { status: "ok", detail: `${what} ${dir} exists and is writable` };
  } catch (error) {
    return { status: "fail", detail: `${what} ${dir}: ${(error as NodeJS.ErrnoException).code ?? describeError(error)}` };
  }
}

/** A host notifier's file: it must exist (the host creates it). */
export async function probeFile(file: string, what: string): Promise<ProbeResult> {
  try {
    if (!(await stat(file)).isFile()) return { status: "fail", detail: `${what} ${file} is not a file` };
    await access(file, constants.R_OK | constants.W_OK);
    return { status: "ok", detail: `${what} ${file} exists and is writable` };
  } catch (error) {
    return { status: "fail", detail: `${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? describeError(error)}` };
  }
}

/** The program a command notifier runs: an executable file, by its path or on PATH. */
export async function probeProgram(program: string, path: string | undefined, cwd: string): Promise<ProbeResult> {
  const candidates = program.includes("/") ? [isAbsolute(program) ? program : join(cwd, program)] : (path ?? "").split(delimiter).filter(Boolean).map((d) => join(d, program));
  for (const file of candidates) {
    try {
      if ((await stat(file)).isFile()) {
        await access(file, constants.X_OK);
        return { status: "ok", detail: `runs ${file} (not started now)` };
      }
    } catch {
      // the next candidate
    }
  }
  return { status: "fail", detail: `${program} is not an executable file${program.includes("/") ? "" : " on PATH"}` };
}
