// README.md's "Layout" names every folder of src/ (one folder per part) and every command folder of src/cli/commands,
// so a new part or command folder cannot land without saying what it is for.
import { readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";

const root = new URL("../../", import.meta.url);
const readme = readFileSync(new URL("README.md", root), "utf8");
const layout = readme.slice(readme.indexOf("## Layout"), readme.indexOf("```", readme.indexOf("```", readme.indexOf("## Layout")) + 3));
const folders = (path: string) => readdirSync(new URL(path, root), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

it("names every folder of src/ and every command folder", () => {
  expect(layout.length).toBeGreaterThan(500);
  const parts = folders("src/").filter((name) => !layout.includes(`src/${name}/`));
  const commands = folders("src/cli/commands/").filter((name) => !new RegExp(`(?:^|\\s)${name}/(?=\\s|,)`).test(layout));
  expect({ parts, commands }).toEqual({ parts: [], commands: [] });
});
