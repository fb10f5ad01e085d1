// The `alertmanager` config entry plus env to a notifier (and, in watch mode, its re-poster). Every label name is
// checked here, before any skip is claimed: Alertmanager would refuse a bad one with a 400 on every post.
import { hostname } from "node:os";
import type { Problem } from "../contract/problems.js";
import { DEFAULT_ALERT_WINDOW_MS, DEFAULT_ALERTNAME, DEFAULT_ITEMS_MAX_CHARS, mappedLabelNames } from "./alertmanager-alert.js";
import { probeAlertmanager } from "./probe.js";
import { authHeaders, createAlertmanagerNotifier, type AlertmanagerAuth } from "./alertmanager-notifier.js";
import { createAlertmanagerRefresher, DEFAULT_REPOST_INTERVAL_MS, recordAlert } from "./alertmanager-repost.js";
import type { NotifierEntry } from "./config-schema.js";
import { envValue, NOTIFIER_ENV, type Env } from "./env-names.js";
import { httpUrlProblem } from "./http-url.js";
import type { Notifier, Refresher } from "./types.js";

type Entry = Extract<NotifierEntry, { type: "alertmanager" }>;

export interface AlertmanagerBuildContext {
  readonly env: Env;
  readonly now?: (() => Date) | undefined;
  /** Watch mode: record each alert and re-post it until it ends. */
  readonly repost?: boolean | undefined;
  /** The per-attempt timeout, also used for each re-post. */
  readonly timeoutMs?: number | undefined;
}

export type AlertmanagerBuilt =
  | { readonly notifier: Notifier; readonly secrets: readonly string[]; readonly refresher?: Refresher | undefined }
  | { readonly problems: Problem[] };

export function buildAlertmanager(name: string, entry: Entry, ctx: AlertmanagerBuildContext, at: string): AlertmanagerBuilt {
  const problem = (key: string, message: string): AlertmanagerBuilt => ({ problems: [{ path: `${at}.${key}`, message }] });
  const urlsVar = entry.urls_env ?? NOTIFIER_ENV.alertmanagerUrls;
  const fromEnv = envValue(ctx.env, urlsVar)?.split(/[\s,]+/).filter(Boolean);
  const urls = entry.urls ?? fromEnv;
  if (urls === undefined || urls.length === 0) {
    return problem("urls", `is not set: list every replica's base URL in urls, or in the ${urlsVar} environment variable (comma-separated)`);
  }
  for (const url of urls) {
    const bad = httpUrlProblem(url);
    if (bad !== undefined) return problem("urls", `${entry.urls ? "" : `${urlsVar}: `}${JSON.stringify(url)} ${bad}`);
  }
  if (new Set(urls.map((u) => u.replace(/\/+$/, ""))).size !== urls.length) return problem("urls", "lists the same Alertmanager twice");

  if (entry.basic_auth !== undefined && entry.bearer_token_env !== undefined) {
    return problem("bearer_token_env", "cannot be combined with basic_auth: Alertmanager (or its proxy) takes one Authorization header");
  }
  let auth: AlertmanagerAuth | undefined;
  if (entry.basic_auth !== undefined) {
    const password = envValue(ctx.env, entry.basic_auth.password_env);
    if (password === undefined) return problem("basic_auth.password_env", `names ${entry.basic_auth.password_env}, which is not set`);
    auth = { kind: "basic", username: entry.basic_auth.username, password };
  } else if (entry.bearer_token_env !== undefined) {
    const token = envValue(ctx.env, entry.bearer_token_env);
    if (token === undefined) return problem("bearer_token_env", `names ${entry.bearer_token_env}, which is not set`);
    auth = { kind: "bearer", token };
  }

  const labelPrefix = entry.label_prefix ?? "";
  const staticLabels = entry.labels ?? {};
  const own = new Set(mappedLabelNames({ labelPrefix, staticLabels: {} }));
  const clash = Object.keys(staticLabels).find((l) => own.has(l));
  if (clash !== undefined) return problem(`labels.${clash}`, `is a label skip-summary sets itself; rename it, or set label_prefix so that ours are prefixed`);

  const generatorUrl = entry.generator_url;
  if (generatorUrl !== undefined) {
    const bad = httpUrlProblem(generatorUrl.replace(/\{(skill|workspace|host|delivery_id)\}/g, "x"));
    if (bad !== undefined) return problem("generator_url", `${bad} (Alertmanager refuses an alert whose generatorURL is not a URI)`);
  }
  const tooBig = fixedPartProblem({ labels: staticLabels, alertname: entry.alertname, host: entry.host, generator_url: generatorUrl });
  if (tooBig !== undefined) return problem(tooBig.key, tooBig.message);

  const mapping = {
    alertname: entry.alertname ?? DEFAULT_ALERTNAME,
    labelPrefix,
    staticLabels,
    host: entry.host ?? hostname(),
    windowMs: entry.window_ms ?? DEFAULT_ALERT_WINDOW_MS,
    endsAt: entry.ends_at ?? "occurred",
    generatorUrl,
    itemsMaxChars: entry.items_max_chars ?? DEFAULT_ITEMS_MAX_CHARS,
  } as const;
  const secrets = auth === undefined ? [] : auth.kind === "bearer" ? [auth.token] : [auth.password, authHeaders(auth).authorization!.slice(6)];
  const notifier = createAlertmanagerNotifier(name, {
    ...mapping,
    urls,
    auth,
    now: ctx.now,
    onPosted: ctx.repost ? (alert, request) => recordAlert(request.workspace, name, request.deliveryId, alert) : undefined,
  });
  notifier.probe = (signal) => probeAlertmanager(urls, authHeaders(auth), signal);
  if (!ctx.repost) return { notifier, secrets };
  const refresher = createAlertmanagerRefresher({
    notifier: name,
    urls,
    headers: authHeaders(auth),
    intervalMs: entry.repost_interval_ms ?? DEFAULT_REPOST_INTERVAL_MS,
    timeoutMs: ctx.timeoutMs ?? 10_000,
    now: ctx.now,
  });
  return { notifier, secrets, refresher };
}

/** What the config puts into every alert (static labels, alertname, host, generator URL) may take at most this, as JSON. */
export const ALERT_FIXED_PART_MAX_BYTES = 16 * 1024;

// Every alert carries these, and each alert's re-post record must stay within its limit (FILE_LIMITS.alertmanagerRecord,
// 256 KiB) with room for the summary's own labels and annotations: a config that could never fit is refused here, once,
// rather than failing every send. The largest field is named, as it is the one to shorten.
function fixedPartProblem(fields: Record<string, unknown>): { key: string; message: string } | undefined {
  const sizes = Object.entries(fields).filter(([, v]) => v !== undefined).map(([key, v]) => ({ key, bytes: Buffer.byteLength(JSON.stringify(v)) }));
  const total = sizes.reduce((sum, f) => sum + f.bytes, 0);
  if (total <= ALERT_FIXED_PART_MAX_BYTES) return undefined;
  const largest = sizes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  const together = sizes.length > 1 ? ` (${sizes.map((f) => `${f.key} ${f.bytes}`).join(", ")})` : "";
  return {
    key: largest.key,
    message: `is ${largest.bytes} bytes as JSON; what the config adds to every alert may take at most ${ALERT_FIXED_PART_MAX_BYTES} bytes in all${together}, so that each alert fits the ${256} KiB an alert's record may take: shorten it`,
  };
}
