// `skip-summary helper python`: prints the owner-side helper for skills written in another language, so a tile can
// vendor it (`skip-summary helper python > scripts/skip_summary.py`) instead of spawning Node for every skip.
import type { CommandDefinition } from "../../action.js";
import { action } from "../../action.js";
import { usageError } from "../../usage-error.js";

const HELPERS: Readonly<Record<string, string>> = { python: "python/skip_summary.py" };

export const helperCommand: CommandDefinition = {
  name: "helper",
  summary: "print the owner-side helper for another language (python), to vendor into a tile",
  register(command, context, done) {
    command
      .argument("<language>", `one of: ${Object.keys(HELPERS).join(", ")}`)
      .addHelpText("after", "\nExample:\n  $ skip-summary helper python > scripts/skip_summary.py\n\nSee docs/owner.md (\"From Python\").")
      .action(
        action(context, "helper", done, async (language: string) => {
          const file = HELPERS[language];
          if (file === undefined) throw usageError(`helper: no helper for ${JSON.stringify(language)}; choose one of: ${Object.keys(HELPERS).join(", ")}`);
          const { readPackageFile } = await import("./package-file.js");
          context.io.stdout.write(await readPackageFile(file));
          return 0;
        }),
      );
  },
};
