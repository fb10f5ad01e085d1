// A skill that skips on purpose says so once, with a reason: `intentional-skips:` in its SKILL.md front matter (or
// under `metadata:`), or `lint.intentionalSkips` in the config, mapping a mechanism to why the owner need not hear.
import type { Skill } from "../tile/tile.js";

export { MECHANISMS } from "./mechanisms.js";

/** Config form: skill id or name → mechanism → reason. */
export type IntentionalSkipsConfig = Readonly<Record<string, Readonly<Record<string, string>>>>;

function reasons(value: unknown): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value !== "object" || value === null || Array.isArray(value)) return out;
  for (const [mechanism, reason] of Object.entries(value)) {
    // A declaration without a reason is not one: the reason is what a reviewer reads instead of the finding.
    if (typeof reason === "string" && reason.trim() !== "") out.set(mechanism, reason.trim());
  }
  return out;
}

export function intentionalSkipsOf(skill: Skill, config: IntentionalSkipsConfig | undefined): Map<string, string> {
  const fm = skill.frontMatter;
  const metadata = typeof fm.metadata === "object" && fm.metadata !== null ? (fm.metadata as Record<string, unknown>) : {};
  return new Map([
    ...reasons(metadata["intentional-skips"]),
    ...reasons(fm["intentional-skips"]),
    ...reasons(config?.[skill.name]),
    ...reasons(config?.[skill.id]),
  ]);
}
