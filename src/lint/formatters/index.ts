// The output formats by name; each is a pure function of the sorted results.
import { formatGithub } from "./github.js";
import { formatJson } from "./json.js";
import { formatPretty } from "./pretty.js";
import { formatSarif } from "./sarif.js";
import type { Formatter } from "./types.js";

export const FORMATS = ["pretty", "json", "sarif", "github"] as const;
export type FormatName = (typeof FORMATS)[number];

export const FORMATTERS: Readonly<Record<FormatName, Formatter>> = { pretty: formatPretty, json: formatJson, sarif: formatSarif, github: formatGithub };

export type { FormatMeta, Formatter } from "./types.js";
