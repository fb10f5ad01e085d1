// Wraps every loaded notifier (a user's module too) so no error it reports or throws can carry a known secret.
import { transientFailure } from "./failure.js";
import { describeError, type Redactor } from "./redact.js";
import type { Notifier } from "./types.js";

export function withRedaction(notifier: Notifier, redact: Redactor): Notifier {
  return {
    name: notifier.name,
    ...(notifier.destination ? { destination: notifier.destination.bind(notifier) } : {}),
    ...(notifier.probe
      ? {
          probe: async (signal: AbortSignal) => {
            try {
              const r = await notifier.probe!(signal);
              return { status: r.status, detail: redact(String(r.detail)) };
            } catch (error) {
              return { status: "fail" as const, detail: redact(`notifier ${notifier.name}'s probe threw: ${describeError(error)}`) };
            }
          },
        }
      : {}),
    async send(request) {
      try {
        const result = await notifier.send(request);
        return result.ok || typeof result.error !== "string" ? result : { ...result, error: redact(result.error) };
      } catch (error) {
        return transientFailure(redact(`notifier ${notifier.name} threw: ${describeError(error)}`));
      }
    },
  };
}
