// The `notify` section of skip-summary.config.json. Unknown keys are errors, so a typo never silently drops a
// notifier; every message says what is expected. Secrets may be named by env var (`token_env`), kept out of files.
import * as z from "zod/mini";
import { httpUrlProblem } from "./http-url.js";

export const NOTIFY_SECTION = "notify";
export const NOTIFIER_TYPES = ["stdout", "nanoclaw", "nanoclaw2", "nanoclaw-host", "telegram", "webhook", "command", "module", "alertmanager"] as const;

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const nameMessage = "must be a name of letters, digits, '_', '-' or '.', starting with a letter or digit";

type Shape = Parameters<typeof z.strictObject>[0];

// One error function per object: an unknown key is named with the keys that are allowed, anything else is `expected`.
function strict<T extends Shape>(shape: T, expected: string) {
  const allowed = Object.keys(shape).join(", ");
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === "unrecognized_keys") {
        const keys = (issue as { keys?: string[] }).keys ?? [];
        return `has unknown key${keys.length === 1 ? "" : "s"} ${keys.map((k) => JSON.stringify(k)).join(", ")}; allowed: ${allowed}`;
      }
      return expected;
    },
  });
}

function recordOf<V extends z.ZodMiniType>(key: z.ZodMiniType<string, string>, value: V, expected: string, keyMessage: string) {
  return z.record(key, value, { error: (issue) => (issue.code === "invalid_key" ? keyMessage : expected) });
}

const text = z.string({ error: "must be a string" }).check(z.minLength(1, "must not be empty"));
const envName = z.string({ error: "must be the name of an environment variable" }).check(
  z.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be the name of an environment variable, such as MY_BOT_TOKEN"),
);
const httpUrl = z.string({ error: "must be a string: an http(s) URL" }).check(
  z.superRefine((u, ctx) => {
    const problem = httpUrlProblem(u);
    if (problem !== undefined) ctx.issues.push({ code: "custom", message: problem, input: u });
  }),
);
const chatId = z.union([text, z.int()], { error: "must be a chat id: an integer such as -1001234567890, or @channelname" });
const threadId = z.int({ error: "must be an integer: the forum topic's message_thread_id" }).check(z.gte(1, "must be an integer >= 1"));
const bool = (what: string) => z.boolean({ error: `must be true or false (${what})` });
// fetch refuses bad header names and values at send time, which would be retried forever; refuse them here instead.
const headerName = z.string().check(z.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/));
const headerValue = z.string({ error: "must be a string" }).check(z.regex(/^[^\r\n\0]*$/, "must be one line: no line breaks or NUL characters"));
const headers = recordOf(
  headerName,
  headerValue,
  "must be an object of header names to strings",
  "is not an HTTP header name: use letters, digits and !#$%&'*+.^_`|~- (no spaces)",
);

const telegramTarget = strict(
  { chat_id: z.optional(chatId), thread_id: z.optional(threadId), silent: z.optional(bool("send without a sound")) },
  'must be an object such as { "chat_id": -100123, "thread_id": 7, "silent": true }',
);

// Alertmanager 0.25 accepts only these label names; anything else is refused with a 400 on every post.
const labelName = z.string().check(z.regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/));
const labelNameMessage = "is not an Alertmanager label name: use letters, digits and _, not starting with a digit";
const alertmanagerEntry = strict({
  type: z.literal("alertmanager"),
  urls: z.optional(z.array(httpUrl, { error: "must be an array of base URLs, one per replica, such as [\"http://am-1:9093\", \"http://am-2:9093\"]" }).check(
    z.minLength(1, "must name at least one Alertmanager"),
  )),
  urls_env: z.optional(envName),
  alertname: z.optional(text),
  label_prefix: z.optional(z.string({ error: "must be a string" }).check(z.regex(/^([a-zA-Z_][a-zA-Z0-9_]*)?$/, "must be letters, digits and _, not starting with a digit, such as \"skip_\""))),
  labels: z.optional(recordOf(labelName, text, "must be an object of label names to non-empty strings", labelNameMessage)),
  basic_auth: z.optional(strict({ username: text, password_env: envName }, 'must be an object such as { "username": "skips", "password_env": "AM_PASSWORD" }')),
  bearer_token_env: z.optional(envName),
  ends_at: z.optional(z.enum(["occurred", "posted"], { error: "must be \"occurred\" (endsAt = occurred_at + window_ms) or \"posted\" (endsAt = the first post + window_ms)" })),
  window_ms: z.optional(z.int({ error: "must be an integer number of milliseconds (how long each alert stands)" }).check(z.gte(1_000, "must be at least 1000 ms"), z.lte(30 * 24 * 3_600_000, "must be at most 30 days (2592000000 ms)"))),
  repost_interval_ms: z.optional(z.int({ error: "must be an integer number of milliseconds (how often watch mode re-posts)" }).check(z.gte(1_000, "must be at least 1000 ms"))),
  generator_url: z.optional(text),
  host: z.optional(text),
  items_max_chars: z.optional(z.int({ error: "must be an integer (the longest items annotation, in characters)" }).check(z.gte(2, "must be >= 2"), z.lte(100_000, "must be <= 100000"))),
}, "must be an object");

const notifierEntry = z.discriminatedUnion(
  "type",
  [
    strict({ type: z.literal("stdout") }, "must be an object"),
    strict({ type: z.literal("nanoclaw"), dir: z.optional(text), sender: z.optional(text), chat_jid: z.optional(text), group_folder: z.optional(text), format: z.optional(z.enum(["html", "markdown", "plain"], { error: 'must be "html", "markdown" or "plain" (the text path of your NanoClaw fork: docs/integrations/nanoclaw.md)' })) }, "must be an object"),
    strict({ type: z.literal("nanoclaw2"), outbound_db: z.optional(text), inbound_db: z.optional(text) }, "must be an object"),
    strict({ type: z.literal("nanoclaw-host"), root: z.optional(text), format: z.optional(z.enum(["html", "markdown", "plain"], { error: 'must be "html", "markdown" or "plain" (the text path of your NanoClaw fork: docs/integrations/nanoclaw.md)' })) }, "must be an object"),
    strict({
      type: z.literal("telegram"),
      token: z.optional(text),
      token_env: z.optional(envName),
      api_base_url: z.optional(httpUrl),
      chat_id: z.optional(chatId),
      thread_id: z.optional(threadId),
      silent: z.optional(bool("send without a sound")),
      policy: z.optional(telegramTarget),
      technical: z.optional(telegramTarget),
    }, "must be an object"),
    strict({
      type: z.literal("webhook"),
      url: z.optional(httpUrl),
      url_env: z.optional(envName),
      secret: z.optional(text),
      secret_env: z.optional(envName),
      headers: z.optional(headers),
    }, "must be an object"),
    strict({
      type: z.literal("command"),
      argv: z.array(text, { error: "must be an array of strings: the program and its arguments (no shell)" }).check(
        z.minLength(1, "must name at least the program to run"),
      ),
      format: z.optional(z.enum(["text", "html"], { error: "must be \"text\" or \"html\"" })),
      cwd: z.optional(text),
      pass_env: z.optional(z.array(envName, { error: "must be an array of environment variable names to pass on, such as [\"MY_BOT_TOKEN\"]" })),
      env: z.optional(recordOf(envName, z.string({ error: "must be a string" }), "must be an object of names to strings", "is not an environment variable name: use letters, digits and _, not starting with a digit")),
    }, "must be an object"),
    strict({
      type: z.literal("module"),
      path: text,
      options: z.optional(recordOf(z.string(), z.unknown(), "must be an object, passed to createNotifier(options)", "")),
    }, "must be an object"),
    alertmanagerEntry,
  ],
  { error: `must be an object whose "type" is one of ${NOTIFIER_TYPES.join(", ")}` },
);

const nameList = z.array(z.string({ error: "must be a string" }).check(z.regex(NAME_PATTERN, nameMessage)), {
  error: "must be an array of notifier names",
}).check(z.minLength(1, "must name at least one notifier; a skip that reaches nobody is a silent skip"));

const intIn = (min: number, max: number, what: string) =>
  z.int({ error: `must be an integer (${what})` }).check(z.gte(min, `must be >= ${min}`), z.lte(max, `must be <= ${max}`));

export const NotifySection = strict(
  {
    notifiers: z.optional(
      recordOf(z.string().check(z.regex(NAME_PATTERN, nameMessage)), notifierEntry, "must be an object of names to notifier settings", "has an invalid notifier name: use letters, digits, '_', '-' and '.', starting with a letter or digit"),
    ),
    routes: z.optional(strict({ policy: z.optional(nameList), technical: z.optional(nameList) }, "must be an object { policy: [...], technical: [...] }")),
    retries: z.optional(intIn(0, 20, "retries after the first attempt")),
    timeout_ms: z.optional(intIn(100, 600_000, "per attempt")),
    min_delay_ms: z.optional(intIn(0, 600_000, "the first backoff")),
    max_delay_ms: z.optional(intIn(0, 3_600_000, "the longest backoff, and the longest retry_after honoured")),
  },
  "must be an object",
);

export type NotifySectionInput = z.input<typeof NotifySection>;
export type NotifySectionConfig = z.output<typeof NotifySection>;
export type NotifierEntry = z.output<typeof notifierEntry>;
