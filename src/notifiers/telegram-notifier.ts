// Telegram Bot API `sendMessage` with parse_mode HTML. The reply is `{ok: true, result}` or
// `{ok: false, error_code, description, parameters?: {retry_after, migrate_to_chat_id}}`.
// Upstream read: tdlib/telegram-bot-api 01a3679c0bbf9bbba03d1d3e20f621fa4becddcc (Bot API 10.0): Client.cpp
// process_send_message_query, get_link_preview_options (`link_preview_options.is_disabled`), do_send_message
// (`message_thread_id`, `disable_notification`), check_chat_access (`migrate_to_chat_id`); Query.h JsonQueryOk and
// JsonQueryError (the reply shapes); Query.cpp set_retry_after_error (429, `parameters.retry_after`).
import { permanentFailure, transientFailure, isRetryableStatus } from "./failure.js";
import { withDeadline } from "./deadline.js";
import { bodySnippet, postJson } from "./http-post.js";
import type { Notifier, NotifyRequest } from "./types.js";

export const TELEGRAM_API_BASE_URL = "https://api.telegram.org";

/** Where one route's notices go. */
export interface TelegramTarget {
  readonly chatId: string | number;
  readonly threadId?: number | undefined;
  /** Sent with `disable_notification`: the message arrives without a sound. */
  readonly silent?: boolean | undefined;
}

export interface TelegramSettings {
  readonly token: string;
  /** @default "https://api.telegram.org" (a local Bot API server or a test server otherwise) */
  readonly apiBaseUrl?: string | undefined;
  readonly policy: TelegramTarget;
  readonly technical: TelegramTarget;
}

interface BotApiReply {
  readonly ok?: unknown;
  readonly result?: { readonly message_id?: unknown };
  readonly error_code?: unknown;
  readonly description?: unknown;
  readonly parameters?: { readonly retry_after?: unknown; readonly migrate_to_chat_id?: unknown };
}

export function createTelegramNotifier(name: string, settings: TelegramSettings): Notifier {
  const base = (settings.apiBaseUrl ?? TELEGRAM_API_BASE_URL).replace(/\/+$/, "");
  const url = `${base}/bot${settings.token}/sendMessage`;
  return {
    name,
    // The bot (its URL holds the token: this key is compared, never printed) and the route's chat and topic.
    destination: (route) => {
      const target = route === "technical" ? settings.technical : settings.policy;
      return JSON.stringify(["telegram", url, String(target.chatId), target.threadId ?? null, target.silent === true]);
    },
    async send(request) {
      const target = request.route === "technical" ? settings.technical : settings.policy;
      const body = JSON.stringify(sendMessageBody(request, target));
      const outcome = await withDeadline(request, (signal) => postJson(url, body, {}, signal));
      if (outcome.kind === "aborted") return transientFailure(`Telegram sendMessage ${outcome.why}`);
      if (outcome.kind === "network") return transientFailure(`Telegram sendMessage could not reach ${base}: ${outcome.error}`);
      return interpretReply(outcome.status, outcome.body);
    },
  };
}

export function sendMessageBody(request: Pick<NotifyRequest, "message">, target: TelegramTarget): Record<string, unknown> {
  return {
    chat_id: target.chatId,
    ...(target.threadId !== undefined ? { message_thread_id: target.threadId } : {}),
    text: request.message.html,
    parse_mode: "HTML",
    link_preview_options: { is_disabled: true },
    ...(target.silent ? { disable_notification: true } : {}),
  };
}

function interpretReply(status: number, body: string) {
  let reply: BotApiReply | undefined;
  try {
    reply = JSON.parse(body) as BotApiReply;
  } catch {
    reply = undefined;
  }
  if (reply?.ok === true && status >= 200 && status < 300) {
    const id = reply.result?.message_id;
    return { ok: true as const, ...(id !== undefined ? { detail: `message_id ${String(id)}` } : {}) };
  }
  if (status >= 300 && status < 400) {
    return permanentFailure(`Telegram sendMessage answered HTTP ${status}; redirects are not followed, set api_base_url to the final address`);
  }
  if (reply === undefined || typeof reply !== "object") {
    const words = `Telegram sendMessage answered HTTP ${status} without a Bot API reply: ${bodySnippet(body) || "(empty body)"}`;
    return status >= 400 && !isRetryableStatus(status) ? permanentFailure(words) : transientFailure(words);
  }
  const code = typeof reply.error_code === "number" ? reply.error_code : status;
  const description = typeof reply.description === "string" ? reply.description : `HTTP ${status}`;
  const retryAfter = reply.parameters?.retry_after;
  const migrateTo = reply.parameters?.migrate_to_chat_id;
  let words = `Telegram sendMessage failed: ${code} ${description}`;
  if (migrateTo !== undefined) words += `; the group became a supergroup: set chat_id to ${String(migrateTo)}`;
  if (typeof retryAfter === "number" && retryAfter >= 0) return transientFailure(words, retryAfter * 1000);
  if (isRetryableStatus(code) || isRetryableStatus(status)) return transientFailure(words);
  return permanentFailure(code === 401 || code === 404 ? `${words} (check the bot token)` : words);
}
