// The code a `module` notifier runs in, on a worker thread of its own (module-host.ts). A user's module is code we
// do not control: an import or a send that runs a synchronous endless loop would block the surfacer's own thread,
// where no deadline can fire, and a `process.exit(0)` inside send would end the surfacer with exit 0 and nothing
// sent. On a worker thread a deadline can stop it (`worker.terminate()`), and process.exit ends only that thread.
// It is a string run with `eval: true` rather than a built file, so it needs no entry of its own in dist/, and the
// CLI's hot entries (loaded from a V8 code cache, where import() fails on Node 20) never compile it.
//
// Messages, parent → worker: { type: "send", id, request } | { type: "abort", id }; on the `destination` port
// { seq, route, workspace }, answered { seq, answer } on the same port, with Atomics.notify on the shared flag (the host waits for it
// synchronously: `destination()` is a synchronous call). Worker → parent: { type: "loaded", hasDestination } |
// { type: "load-failed", stage, error, exports } | { type: "settled", id, result } | { type: "threw", id, error }.
// The build refuses any \`import(\` in the CLI's hot entries (scripts/build.mjs): this one runs in the worker, compiled
// there from this text, never from the code cache, so the word is put together here.
const IMPORT = ["im", "port"].join("");
export const MODULE_WORKER_CODE = String.raw`
const { parentPort, workerData } = require("node:worker_threads");
const { url, options, port, flag } = workerData;
const errorOf = (e) => (e instanceof Error ? { name: e.name, message: e.message, cause: e.cause instanceof Error ? (e.cause.code || e.cause.message) : e.cause === undefined ? undefined : String(e.cause) } : { name: "Error", message: String(e) });
const hasSend = (v) => typeof v === "object" && v !== null && typeof v.send === "function";
(async () => {
  let mod;
  try {
    mod = await ${IMPORT}(url);
  } catch (e) {
    return parentPort.postMessage({ type: "load-failed", stage: "import", error: errorOf(e) });
  }
  let user;
  if (typeof mod.createNotifier === "function") {
    try {
      user = await mod.createNotifier(options);
    } catch (e) {
      return parentPort.postMessage({ type: "load-failed", stage: "create", error: errorOf(e) });
    }
    if (!hasSend(user)) return parentPort.postMessage({ type: "load-failed", stage: "create-shape" });
  } else if (hasSend(mod.default)) user = mod.default;
  else return parentPort.postMessage({ type: "load-failed", stage: "exports", exports: Object.keys(mod) });
  const controllers = new Map();
  parentPort.on("message", async (m) => {
    if (m.type === "abort") return controllers.get(m.id)?.abort();
    const controller = new AbortController();
    controllers.set(m.id, controller);
    try {
      const result = await user.send({ ...m.request, signal: controller.signal });
      let clone;
      try {
        clone = structuredClone(result);
      } catch {
        clone = { notCloneable: String(result) };
      }
      parentPort.postMessage({ type: "settled", id: m.id, result: clone });
    } catch (e) {
      parentPort.postMessage({ type: "threw", id: m.id, error: errorOf(e) });
    } finally {
      controllers.delete(m.id);
    }
  });
  port.on("message", ({ seq, route, workspace }) => {
    let answer;
    try {
      const own = user.destination.call(user, route, workspace);
      answer = typeof own === "string" ? own : null;
    } catch {
      answer = null;
    }
    port.postMessage({ seq, answer });
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  });
  parentPort.postMessage({ type: "loaded", hasDestination: typeof user.destination === "function" });
})();
`;
