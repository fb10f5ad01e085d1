// Hands skips to Prometheus Alertmanager (POST /api/v2/alerts), which routes, groups, silences and inhibits them
// for a whole fleet. Alertmanager replicas do not forward posted alerts to each other (only silences and the
// notification log are gossiped), so every replica is posted to, and a notice counts as delivered only when every
// one of them answered 2xx. A 200 means "accepted", not "sent": watch mode keeps re-posting (alertmanager-repost.ts).
// Upstream read: prometheus/alertmanager v0.25.0, 258fab7cdd551f2cf251ed0348f0ad7289aee789 (api/v2/openapi.yaml
// postableAlerts, api/v2/api.go postAlertsHandler; docs/notifiers.md, "Upstream behaviour this relies on").
import { alertFor, type AlertMapping, type PostableAlert } from "./alertmanager-alert.js";
import { withDeadline } from "./deadline.js";
import { isRetryableStatus, permanentFailure, retryAfterHeaderMs, transientFailure } from "./failure.js";
import { bodySnippet, postJson, type PostOutcome } from "./http-post.js";
import type { Notifier, NotifyResult } from "./types.js";

export type AlertmanagerAuth =
  | { readonly kind: "basic"; readonly username: string; readonly password: string }
  | { readonly kind: "bearer"; readonly token: string };

export interface AlertmanagerSettings extends AlertMapping {
  /** Every replica's base URL, such as `http://am-1:9093` (a path prefix is kept: `http://host/alertmanager`). */
  readonly urls: readonly string[];
  readonly auth?: AlertmanagerAuth | undefined;
  /** @default () => new Date() */
  readonly now?: (() => Date) | undefined;
  /** Called after every replica took the alert; watch mode records it here to re-post it until it ends. */
  readonly onPosted?: ((alert: PostableAlert, request: { readonly workspace: string; readonly deliveryId: string }) => Promise<void>) | undefined;
}

/** `<base>/api/v2/alerts`, keeping a path prefix. */
export function alertsEndpoint(base: string): string {
  return `${base.replace(/\/+$/, "")}/api/v2/alerts`;
}

export function authHeaders(auth: AlertmanagerAuth | undefined): Record<string, string> {
  if (auth === undefined) return {};
  if (auth.kind === "bearer") return { authorization: `Bearer ${auth.token}` };
  return { authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`, "utf8").toString("base64")}` };
}

export function createAlertmanagerNotifier(name: string, settings: AlertmanagerSettings): Notifier {
  const now = settings.now ?? (() => new Date());
  const headers = authHeaders(settings.auth);
  return {
    name,
    // Each skip becomes its own alert labelled with its own workspace, so one post may carry several workspaces.
    destination: () => JSON.stringify(["alertmanager", settings.urls]),
    async send(request) {
      // A digest (the surfacer's grouping) is split back into one alert per skip: Alertmanager groups them itself.
      const requests = request.members?.map((m) => ({ ...request, summary: m.summary, members: undefined, skill: m.summary.skill, workspace: m.workspace, message: m.message, deliveryId: m.deliveryId })) ?? [request];
      const alerts = requests.map((r) => alertFor(r, settings, now()));
      const result = await postToReplicas(settings.urls, alerts, headers, request);
      if (!result.ok || settings.onPosted === undefined) return result;
      try {
        for (const [i, alert] of alerts.entries()) await settings.onPosted(alert, requests[i]!);
      } catch (error) {
        // Watch mode promises to re-post until endsAt; without the record it cannot, so the send is not done.
        return transientFailure(`Alertmanager took the alert, but its re-post record could not be written: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      return result;
    },
  };
}

/**
 * Posts `alerts` to every replica at once. Any permanent refusal makes the whole result permanent (retrying the
 * others cannot fix a bad label); otherwise any failure is transient, and the retry re-posts to every replica,
 * which is idempotent: the same labels merge into the same alert.
 */
export async function postToReplicas(
  urls: readonly string[],
  alerts: readonly PostableAlert[],
  headers: Record<string, string>,
  request: { readonly signal: AbortSignal; readonly timeoutMs: number },
): Promise<NotifyResult> {
  const body = JSON.stringify(alerts);
  const outcomes = await withDeadline(request, (signal) => Promise.all(urls.map((u) => postJson(alertsEndpoint(u), body, headers, signal))));
  const failures = outcomes.map((o, i) => judgeReply(new URL(urls[i]!).origin + new URL(urls[i]!).pathname.replace(/\/+$/, ""), o)).filter((f) => f !== undefined);
  if (failures.length === 0) return { ok: true, detail: `accepted by ${urls.length} replica${urls.length === 1 ? "" : "s"}` };
  const words = failures.map((f) => f.error).join("; ");
  if (failures.some((f) => f.permanent)) return permanentFailure(words);
  const waits = failures.map((f) => f.retryAfterMs).filter((ms) => ms !== undefined);
  return transientFailure(words, waits.length > 0 ? Math.max(...waits) : undefined);
}

type ReplicaFailure = { readonly permanent: boolean; readonly error: string; readonly retryAfterMs?: number | undefined };

function judgeReply(where: string, outcome: PostOutcome): ReplicaFailure | undefined {
  if (outcome.kind === "aborted") return { permanent: false, error: `Alertmanager ${where} ${outcome.why}` };
  if (outcome.kind === "network") return { permanent: false, error: `Alertmanager ${where} could not be reached: ${outcome.error}` };
  const { status } = outcome;
  if (status >= 200 && status < 300) return undefined;
  const said = replyText(outcome.body);
  const words = `Alertmanager ${where} answered HTTP ${status}${said ? `: ${said}` : ""}`;
  if (status >= 300 && status < 400) return { permanent: true, error: `${words}; redirects are not followed, set the URL to the final address` };
  if (isRetryableStatus(status)) return { permanent: false, error: words, retryAfterMs: retryAfterHeaderMs(outcome.headers.get("retry-after")) };
  return { permanent: true, error: `${words}${labelHint(said)}` };
}

// Alertmanager answers a refused alert with a JSON string ("invalid label set: invalid name \"x-y\"") or, for a
// body that does not match the schema, `{code, message}`.
function replyText(body: string): string {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed === "string") return bodySnippet(parsed, 500);
    if (typeof parsed === "object" && parsed !== null && typeof (parsed as { message?: unknown }).message === "string") {
      return bodySnippet((parsed as { message: string }).message, 500);
    }
  } catch {
    // not JSON: a proxy's page
  }
  return bodySnippet(body, 500);
}

function labelHint(said: string): string {
  const bad = /invalid (?:label )?name "((?:[^"\\]|\\.)*)"/.exec(said)?.[1];
  if (bad === undefined) return "";
  return ` (the label ${JSON.stringify(bad)} is not a valid label name: names must match [a-zA-Z_][a-zA-Z0-9_]*; fix labels or label_prefix)`;
}
