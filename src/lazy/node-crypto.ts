// node:crypto costs about fifteen internal modules at start-up, and a bundler hoists a static import of it to the
// top of the one-file hot entries (dist/hot/), so every after-skill hook paid for it even when nothing waited. The
// few places that hash or draw random bytes load it on first use instead.
import { createRequire } from "node:module";

let loaded: typeof import("node:crypto") | undefined;

export function nodeCrypto(): typeof import("node:crypto") {
  loaded ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return loaded;
}
