// One error shape: every error a part throws on purpose is a SkipSummaryError with a code, the codes are the ones
// docs/errors.md lists, and no part defines an error class of its own again.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isSkipSummaryError, SkipSummaryError } from "../../src/contract/errors.js";

const SRC = new URL("../../src/", import.meta.url).pathname;
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));

function codesInSource(): string[] {
  const text = readFileSync(join(SRC, "contract", "errors.ts"), "utf8");
  const body = text.slice(text.indexOf("export interface SkipSummaryErrorData"), text.indexOf("export type SkipSummaryErrorCode"));
  return [...body.matchAll(/^\s+"([a-z_]+\.[a-z_]+)":/gm)].map((m) => m[1]!);
}

describe("SkipSummaryError", () => {
  it("docs/errors.md lists exactly the codes of src/contract/errors.ts", () => {
    const doc = readFileSync(new URL("../../docs/errors.md", import.meta.url), "utf8");
    const listed = [...doc.slice(doc.indexOf("## The codes")).matchAll(/^\| `([a-z_]+\.[a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(codesInSource());
    expect(codesInSource().length).toBeGreaterThan(20);
  });

  it("every code is <part>.<what>, the part being a folder of src/", () => {
    const folders = new Set(readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name));
    for (const code of codesInSource()) expect(folders, code).toContain(code.split(".")[0]);
  });

  it("is the only error class under src/", () => {
    const classes = files(SRC).flatMap((f) => [...readFileSync(f, "utf8").matchAll(/class (\w+)[^{\n]* extends (\w*Error)\b/g)].map((m) => `${f.slice(SRC.length)}: ${m[1]}`));
    expect(classes).toEqual(["contract/errors.ts: SkipSummaryError"]);
  });

  it("carries code, message, data and cause, and the guard narrows by one code or several", () => {
    const cause = Object.assign(new Error("EACCES: permission denied"), { code: "EACCES" });
    const error: unknown = new SkipSummaryError("owner.write_failed", "cannot write /w/x", { kind: "unwritable", path: "/w/x" }, { cause });
    expect(error).toMatchObject({ name: "SkipSummaryError", code: "owner.write_failed", message: "cannot write /w/x", data: { kind: "unwritable", path: "/w/x" }, cause });
    expect(isSkipSummaryError(error)).toBe(true);
    expect(isSkipSummaryError(error, "owner.write_failed")).toBe(true);
    expect(isSkipSummaryError(error, "config.invalid")).toBe(false);
    expect(isSkipSummaryError(error, ["config.invalid", "owner.write_failed"])).toBe(true);
    if (isSkipSummaryError(error, "owner.write_failed")) expect(error.data.kind).toBe("unwritable");
    expect(new SkipSummaryError("cli.usage", "bad flag").data).toEqual({});
  });

  it("is not fooled by look-alikes: an errno, a plain object, an Error named like ours", () => {
    expect(isSkipSummaryError(cause("ENOENT"))).toBe(false);
    expect(isSkipSummaryError({ name: "SkipSummaryError", code: "config.invalid", message: "x", data: {} })).toBe(false);
    expect(isSkipSummaryError(Object.assign(new Error("x"), { name: "SkipSummaryError", code: "config.invalid" }))).toBe(false);
    expect(isSkipSummaryError(undefined)).toBe(false);
    expect(isSkipSummaryError("config.invalid")).toBe(false);
  });

  it("recognises an error made by another copy of the module (the hot bundles and the library are separate builds)", async () => {
    const copy = (await import(new URL("../../dist/lib/index.js", import.meta.url).href)) as typeof import("../../src/index.js");
    const fromLibrary = new copy.SkipSummaryError("config.invalid", "bad", { path: "/c.json", problems: [] });
    // instanceof answers by the brand too (Symbol.hasInstance), so each copy's class recognises the other's errors.
    expect(fromLibrary).toBeInstanceOf(SkipSummaryError);
    expect(new SkipSummaryError("cli.usage", "x")).toBeInstanceOf(copy.SkipSummaryError);
    expect(new Error("x")).not.toBeInstanceOf(copy.SkipSummaryError);
    expect(isSkipSummaryError(fromLibrary, "config.invalid")).toBe(true);
    expect(copy.isSkipSummaryError(new SkipSummaryError("cli.usage", "x"), "cli.usage")).toBe(true);
    // The library's parts (dist/lib/parts.cjs, loaded on first use) bundle their own copy: their errors are instances
    // of the class a caller imported from the package.
    const fromPart = await copy.loadNotifiers({ config: { path: undefined, data: { notify: { notifiers: { x: { type: "nope" } } } } }, env: {}, cwd: "/", stdout: { write: () => undefined } }).catch((e: unknown) => e);
    expect(fromPart).toBeInstanceOf(copy.SkipSummaryError);
    expect(copy.isSkipSummaryError(fromPart, "config.invalid")).toBe(true);
  });
});

function cause(code: string): Error {
  return Object.assign(new Error(code), { code });
}
