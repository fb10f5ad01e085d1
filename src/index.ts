// The library API: the contract and every part built on it. Each part's own index lists what it exports.
export * from "./contract/index.js";
export { buildJsonSchema } from "./contract/json-schema.js";
export * from "./owner/index.js";
export * from "./surfacer/index.js";
// Named, not `export *`: the surfacer exports its own DeliveryRequest/DeliveryReport of the same shape.
export {
  loadNotifiers, deliver, defaultNotifierName, NOTIFIER_ENV,
  createStdoutNotifier, createNanoclawNotifier, createTelegramNotifier, createWebhookNotifier, createCommandNotifier, loadModuleNotifier,
  type Notifier, type NotifyRequest, type NotifyResult, type RenderedMessage,
  type LoadNotifiersOptions, type LoadedNotifiers, type DeliverOptions, type DeliveryResult, type NotifierRoutes,
} from "./notifiers/index.js";
export * from "./runner/index.js";
export * from "./runner/plan/index.js";
export * from "./lint/index.js";
