// A file the lint could not read is reported, so a check that silently saw nothing cannot pass a tile.
import { MAX_FILE_BYTES } from "../tile/files.js";
import { defineRule } from "../types.js";

export default defineRule({
  meta: {
    id: "unreadable-file",
    severity: "warning",
    description: "a file the checks would read is binary, over 1 MiB, not UTF-8 or a symlink loop, a link leads out of the tile, or a folder cannot be walked",
    messages: {
      binary: "{{file}} is binary (it contains NUL bytes); the checks did not read it",
      "too-large": "{{file}} is {{size}} bytes, over the {{limit}}-byte limit; the checks did not read it",
      "not-utf8": "{{file}} is not valid UTF-8; save it as UTF-8 so the checks can read it",
      "symlink-loop": "{{file}} is a symlink loop; remove or fix the link",
      "symlinked-folder": "{{file}} is a symlink to a folder that holds it, or that a link on its way already led to ({{detail}}); following it would loop, so the lint does not (those files are checked where they are)",
      "symlink-outside": "{{file}} is a symlink to a folder outside the tile ({{detail}}); the lint does not follow it, so the files behind it were not checked; vendor them into the tile if the skills run them",
      "unreadable-folder": "{{file}} is a folder that cannot be read ({{detail}}); the files in it were not checked; fix its permissions",
      "not-a-file": "{{file}} is not a regular file (a device, socket or FIFO); the checks did not read it",
      "line-break-folder": "{{file}} is a folder with a line break in its name, which the lint cannot walk into; the files in it were not checked; rename it",
      unreadable: "{{file}} cannot be read ({{detail}}); the checks did not read it",
    },
    rationale:
      "A lint that skips a file without saying so is a silent skip. Scripts, tests, SKILL.md files, JSON files and every symlink are read; a file that cannot be read as text is reported here instead, and the other checks did not see it. A link to a folder inside the tile is followed (its files count where the link is, so a skill that links a shared scripts folder is checked with them); a link that leaves the tile, or that would loop, is reported and not followed. A folder that cannot be read is reported, and the rest of the tile is still checked.",
    failing: { file: "scripts/run.sh", code: "(a script saved as UTF-16)\n" },
    passing: { file: "scripts/run.sh", code: "#!/usr/bin/env bash\n(the same script saved as UTF-8)\n" },
  },
  check({ tile, report }) {
    for (const u of tile.unreadable) {
      report({ file: u.path, line: 1, column: 1, messageId: u.reason, data: { file: u.path, size: u.detail ?? "", limit: MAX_FILE_BYTES, detail: u.detail ?? "" } });
    }
  },
});
