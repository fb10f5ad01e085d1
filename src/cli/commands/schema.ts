// `skip-summary schema`: the v1 JSON Schema, for editors and other languages' validators.
import type { CommandDefinition } from "../action.js";
import { action } from "../action.js";

export const schemaCommand: CommandDefinition = {
  name: "schema",
  summary: "print the v1 JSON Schema of a skip-summary file",
  register(command, context, done) {
    command
      .addHelpText("after", "\nExample:\n  $ skip-summary schema > skip-summary.v1.schema.json")
      .action(
        action(context, "schema", done, async () => {
          const { buildJsonSchema } = await import("../../contract/json-schema.js");
          context.io.stdout.write(`${JSON.stringify(buildJsonSchema(), null, 2)}\n`);
          return 0;
        }),
      );
  },
};
