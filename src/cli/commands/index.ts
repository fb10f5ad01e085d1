// Every command, in the order --help lists them. A command's module only declares flags; its work is imported lazily.
import type { CommandDefinition } from "../action.js";
import { checkCommand } from "./check/index.js";
import { emitCommand } from "./emit/index.js";
import { helperCommand } from "./helper/index.js";
import { historyCommand } from "./history/index.js";
import { hooksCommand } from "./hooks/index.js";
import { lintCommand } from "./lint.js";
import { notifyCommand } from "./notify/index.js";
import { runCommand } from "./run/index.js";
import { schemaCommand } from "./schema.js";
import { silenceCommand } from "./silence.js";
import { surfaceCommand } from "./surface/index.js";
import { validateCommand } from "./validate.js";

export const COMMANDS: readonly CommandDefinition[] = [emitCommand, validateCommand, schemaCommand, runCommand, surfaceCommand, historyCommand, silenceCommand, hooksCommand, checkCommand, notifyCommand, lintCommand, helperCommand];
