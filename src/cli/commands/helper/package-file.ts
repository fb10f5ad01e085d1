// Files shipped beside the bundle (python/, rules/) are found from the running module, whichever chunk it is in:
// dist/cli.js, dist/chunks/*.js and dist/lib/index.js sit at different depths below the package root.
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The text of `relative` (a path inside the package), from the nearest folder up that has it. */
export async function readPackageFile(relative: string): Promise<string> {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 5; up += 1) {
    try {
      return await readFile(join(dir, relative), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    dir = dirname(dir);
  }
  throw new Error(`${relative} is missing from this installation of skip-summary; reinstall the package`);
}
