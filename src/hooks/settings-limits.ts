// What `hooks install/uninstall` refuses before editing a settings file, so that a hostile or broken file ends in a
// clear error (exit 2, nothing written) and never in a stack overflow, a gigabyte of memory or an edit Claude Code
// would not see:
// - size: a settings file is a few kilobytes; past MAX_SETTINGS_BYTES it is not read further;
// - depth: JSON.parse takes any nesting, but jsonc-parser's tree (settings-edit.ts) recurses, so a file nested
//   100,000 deep overflowed the stack. The depth is measured on the text first, without recursion;
// - a key twice where the edits go: JSON.parse, and Claude Code with it, keeps the LAST `"hooks"` (ECMA-262
//   JSON.parse: a later property overwrites an earlier one), while jsonc-parser's findNodeAtLocation stops at the
//   FIRST. Editing one copy while Claude Code reads the other would install a hook that never runs.
import type { Node } from "jsonc-parser/lib/esm/main.js";
import { SkipSummaryError } from "../contract/errors.js";
import { jsonDepth } from "../contract/json-depth.js";

/** `hooks.settings_invalid`: what is wrong with the file, worded to follow its path. */
export function settingsInvalid(problem: string): SkipSummaryError<"hooks.settings_invalid"> {
  return new SkipSummaryError("hooks.settings_invalid", problem, { problem });
}

/** The largest settings file the edits read: 1 MiB (Claude Code's files are a few KiB). */
export const MAX_SETTINGS_BYTES = 1024 * 1024;
/** The deepest nesting of arrays and objects a settings file may have (a hook entry sits 5 deep). */
export const MAX_SETTINGS_DEPTH = 64;

/** Throws `hooks.settings_invalid` for text nested deeper than {@link MAX_SETTINGS_DEPTH}. */
export function assertSettingsDepth(text: string): void {
  if (jsonDepth(text, MAX_SETTINGS_DEPTH) > MAX_SETTINGS_DEPTH) {
    throw settingsInvalid(`nests deeper than ${MAX_SETTINGS_DEPTH} levels of arrays and objects, so it is not edited; fix it by hand, nothing was written`);
  }
}

/**
 * Throws `hooks.settings_invalid` when `"hooks"` appears twice at the top, or any key twice inside it (an event,
 * a group's `"hooks"`): the edit and Claude Code would not be looking at the same copy.
 */
export function assertNoDuplicateHookKeys(text: string, root: Node): void {
  const hooks = duplicateIn(root, (key) => key === "hooks");
  if (hooks) throw duplicate(text, hooks);
  const first = root.children?.find((p) => p.children?.[0]?.value === "hooks")?.children?.[1];
  if (first === undefined) return;
  const stack: Node[] = [first];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === "object") {
      const found = duplicateIn(node, () => true);
      if (found) throw duplicate(text, found);
    }
    for (const child of node.children ?? []) stack.push(child);
  }
}

interface Duplicate {
  readonly key: string;
  readonly offsets: readonly [number, number];
}

function duplicateIn(object: Node, watched: (key: string) => boolean): Duplicate | undefined {
  const seen = new Map<string, number>();
  for (const property of object.children ?? []) {
    const keyNode = property.children?.[0];
    if (property.type !== "property" || keyNode === undefined || typeof keyNode.value !== "string" || !watched(keyNode.value)) continue;
    const earlier = seen.get(keyNode.value);
    if (earlier !== undefined) return { key: keyNode.value, offsets: [earlier, keyNode.offset] };
    seen.set(keyNode.value, keyNode.offset);
  }
  return undefined;
}

const lineOf = (text: string, offset: number) => text.slice(0, offset).split("\n").length;

function duplicate(text: string, found: Duplicate) {
  const [a, b] = found.offsets.map((o) => lineOf(text, o));
  return settingsInvalid(
    `has the key ${JSON.stringify(found.key)} twice in one object (lines ${a} and ${b}); Claude Code reads only the last one, so an edit of either could be lost: merge them into one by hand, nothing was written`,
  );
}
