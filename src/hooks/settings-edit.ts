// Adds and removes the surfacer's hook entries in a Claude Code settings file as insertions and deletions of text
// at the offsets jsonc-parser's syntax tree gives, so every other setting, key order and indentation stay byte for
// byte (its `modify` re-formats the enclosing array, which would not). Install is idempotent (an entry with the
// same command is left alone) and uninstall removes exactly what install inserted, so install then uninstall gives
// back the original bytes. Pure: text in, text out.
// The entries' shape is Claude Code's settings (`Settings.hooks` in sdk.d.ts of @anthropic-ai/claude-agent-sdk
// 0.3.332, Claude Code 2.1.332): per event, `[{ matcher?, hooks: [{ type: "command", command, timeout }] }]`, the
// timeout in seconds.
// The ESM build: the package main is a UMD file whose dynamic requires a bundler cannot follow.
import { findNodeAtLocation, parseTree, type Node } from "jsonc-parser/lib/esm/main.js";
import { assertNoDuplicateHookKeys, assertSettingsDepth, settingsInvalid } from "./settings-limits.js";

/**
 * The hook events `hooks install` can add, Stop first: the end of the agent's turn follows a skill's work. Every end
 * of a turn Claude Code has is a default (Stop; SubagentStop for background subagents, which finish after the main
 * Stop; StopFailure for a turn ended by an API error), and SessionStart delivers what an earlier session left.
 */
export const INSTALLABLE_EVENTS = ["Stop", "SubagentStop", "StopFailure", "SessionStart", "PostToolUse"] as const;
export type InstallableEvent = (typeof INSTALLABLE_EVENTS)[number];
export const DEFAULT_EVENTS: readonly InstallableEvent[] = ["Stop", "SubagentStop", "StopFailure", "SessionStart"];
export const DEFAULT_HOOK_COMMAND = "skip-summary surface --hook-input";
/** Seconds Claude Code waits for the hook by default: the default budget (10 s) plus the margin (surfacer/settings.ts). */
export const DEFAULT_HOOK_TIMEOUT_S = 15;

export interface HookEdit {
  /** The new text; the same string when nothing changed. */
  readonly text: string;
  readonly changed: readonly InstallableEvent[];
  readonly unchanged: readonly InstallableEvent[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Parses settings text strictly (Claude Code's files are JSON) and checks the shape the edits rely on: a bounded
 * depth first (the tree below recurses), and no key twice where the edits go (settings-limits.ts).
 */
export function parseSettings(text: string): Json {
  assertSettingsDepth(text);
  let data: unknown;
  try {
    data = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    throw settingsInvalid(`is not valid JSON (${(error as Error).message}); fix it by hand, nothing was written`);
  }
  if (!isObject(data)) throw settingsInvalid("must hold a JSON object; nothing was written");
  if (data.hooks !== undefined && !isObject(data.hooks)) throw settingsInvalid('"hooks" must be an object of event names to arrays; nothing was written');
  for (const [event, groups] of Object.entries((data.hooks as Json | undefined) ?? {})) {
    if (!Array.isArray(groups)) throw settingsInvalid(`"hooks.${event}" must be an array of matcher groups; nothing was written`);
  }
  if (data.hooks !== undefined) assertNoDuplicateHookKeys(text, parseTree(text)!);
  return data;
}

const isOurs = (command: string) => (hook: unknown) => isObject(hook) && hook.type === "command" && hook.command === command;

export function installHooks(text: string, events: readonly InstallableEvent[], command = DEFAULT_HOOK_COMMAND, timeoutS = DEFAULT_HOOK_TIMEOUT_S): HookEdit {
  const data = parseSettings(text);
  let out = text.trim() === "" ? "{}\n" : text;
  const changed: InstallableEvent[] = [];
  const unchanged: InstallableEvent[] = [];
  for (const event of events) {
    const groups = ((data.hooks as Json | undefined)?.[event] as unknown[] | undefined) ?? [];
    if (groups.some((g) => isObject(g) && Array.isArray(g.hooks) && g.hooks.some(isOurs(command)))) {
      unchanged.push(event);
      continue;
    }
    const group = { hooks: [{ type: "command", command, timeout: timeoutS }] };
    const root = parseTree(out)!;
    const hooksNode = findNodeAtLocation(root, ["hooks"]);
    const eventNode = hooksNode && findNodeAtLocation(root, ["hooks", event]);
    if (eventNode) out = appendElement(out, eventNode, group);
    else if (hooksNode) out = appendProperty(out, hooksNode, event, [group]);
    else out = appendProperty(out, root, "hooks", { [event]: [group] });
    changed.push(event);
  }
  return { text: out, changed, unchanged };
}

export function uninstallHooks(text: string, events: readonly InstallableEvent[], command = DEFAULT_HOOK_COMMAND): HookEdit {
  parseSettings(text);
  let out = text;
  const changed = new Set<InstallableEvent>();
  // One removal at a time, re-reading the tree after each, so every offset points at what is there now.
  for (;;) {
    const hooks = (parseSettings(out).hooks as Json | undefined) ?? {};
    const found = findOurs(hooks, events, command);
    if (found === undefined) break;
    const { event, group, hook, groupHooks, eventGroups } = found;
    const path = groupHooks > 1 ? ["hooks", event, group, "hooks", hook] : eventGroups > 1 ? ["hooks", event, group] : Object.keys(hooks).length > 1 ? ["hooks", event] : ["hooks"];
    out = removeNode(out, findNodeAtLocation(parseTree(out)!, path)!);
    changed.add(event);
  }
  return { text: out, changed: [...changed], unchanged: events.filter((e) => !changed.has(e)) };
}

function findOurs(hooks: Json, events: readonly InstallableEvent[], command: string) {
  for (const event of events) {
    const groups = (hooks[event] as unknown[] | undefined) ?? [];
    for (const [group, g] of groups.entries()) {
      if (!isObject(g) || !Array.isArray(g.hooks)) continue;
      const hook = g.hooks.findIndex(isOurs(command));
      // A group is ours to remove only when it holds nothing but our hook (and no matcher someone chose).
      if (hook >= 0) return { event, group, hook, groupHooks: g.hooks.length + (Object.keys(g).some((k) => k !== "hooks") ? 1 : 0), eventGroups: groups.length };
    }
  }
  return undefined;
}

const splice = (text: string, start: number, end: number, insert: string) => text.slice(0, start) + insert + text.slice(end);

// After the last element (`, value`), or inside an empty array.
function appendElement(text: string, array: Node, value: unknown): string {
  const last = array.children?.at(-1);
  if (last) return splice(text, last.offset + last.length, last.offset + last.length, `, ${JSON.stringify(value)}`);
  return splice(text, array.offset + 1, array.offset + array.length - 1, JSON.stringify(value));
}

// A new last property, on its own line, indented like the property before it.
function appendProperty(text: string, object: Node, key: string, value: unknown): string {
  const last = object.children?.at(-1);
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  if (last) {
    const lineStart = text.lastIndexOf("\n", last.offset) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
    const sameLine = !text.slice(object.offset, last.offset).includes("\n");
    const end = last.offset + last.length;
    return splice(text, end, end, `,${sameLine ? " " : eol + indent}${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  }
  const lineStart = text.lastIndexOf("\n", object.offset) + 1;
  const outer = /^[ \t]*/.exec(text.slice(lineStart))![0];
  return splice(text, object.offset + 1, object.offset + object.length - 1, `${eol}${outer}  ${JSON.stringify(key)}: ${JSON.stringify(value)}${eol}${outer}`);
}

// The node (a property's whole `"key": value` when it is a property value) and the separator before it, or the
// one after it when it is first; an object or array left empty goes back to `{}` / `[]`.
function removeNode(text: string, node: Node): string {
  const target = node.parent?.type === "property" ? node.parent : node;
  const siblings = target.parent!.children!;
  const i = siblings.indexOf(target);
  const container = target.parent!;
  if (siblings.length === 1) return splice(text, container.offset + 1, container.offset + container.length - 1, "");
  if (i > 0) {
    const prev = siblings[i - 1]!;
    return splice(text, prev.offset + prev.length, target.offset + target.length, "");
  }
  return splice(text, target.offset, siblings[1]!.offset, "");
}
