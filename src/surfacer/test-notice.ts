// `skip-summary notify --test`: one notice, clearly marked as a test, through the route's notifiers, the way `ntfy
// publish` or `amtool alert add` let an operator see the path work end to end. It goes through the same delivery
// (retries, deadlines, redaction) as a real one, and touches no workspace: no claim, no ledger, no digest.
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { DeliveryReport } from "../notifiers/deliver.js";
import { headline, join, line, ours, visible } from "./render.js";
import type { Deliver } from "./types.js";
import type { RenderedMessage } from "../notifiers/types.js";

/** The skill id a test notice carries, so a receiver that files by skill (Alertmanager, a webhook) can tell it apart. */
export const TEST_NOTICE_SKILL = "tessl__skip-summary-test";

export interface TestNoticeOptions {
  readonly deliver: Deliver;
  readonly route: "policy" | "technical";
  /** The workspace the notice is said to come from (some notifiers address by it). */
  readonly workspace: string;
  readonly now: Date;
  readonly host?: string | undefined;
  readonly signal?: AbortSignal | undefined;
}

export interface TestNoticeResult {
  readonly deliveryId: string;
  readonly message: RenderedMessage;
  readonly report: DeliveryReport;
}

export function renderTestNotice(route: "policy" | "technical", host: string, now: Date): RenderedMessage {
  return join([
    headline("🧪", "skip-summary", ": test notice, nothing was skipped"),
    line("Route:", route, 200),
    line("From:", visible(host), 400),
    line("Sent:", now.toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC"), 200),
    ours("Sent by skip-summary notify --test: if you can read this, skip notices reach you here."),
  ]);
}

export async function sendTestNotice(options: TestNoticeOptions): Promise<TestNoticeResult> {
  const message = renderTestNotice(options.route, options.host ?? hostname(), options.now);
  const deliveryId = `test-${randomUUID()}`;
  const report = await options.deliver(
    { message, summary: undefined, skill: TEST_NOTICE_SKILL, route: options.route, workspace: options.workspace, deliveryId },
    { exclude: new Set(), signal: options.signal ?? new AbortController().signal },
  );
  return { deliveryId, message, report };
}
