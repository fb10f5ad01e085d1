// The one warning a ledger, journal or silences file set aside gets in the surfacer's log (`ledger_file_set_aside`,
// level warn, naming the file, the problem and where it went), for every part of a surfacer pass alike.
import type { Logger } from "../../log/logger.js";
import type { BookkeepingOptions } from "./set-aside.js";
import { setAsideWords } from "./set-aside.js";

export function bookkeepingFor(log: Logger, clock: () => Date): BookkeepingOptions {
  return {
    clock,
    onSetAside: (f) => log({ level: "warn", event: "ledger_file_set_aside", file: f.file, kind: f.kind, problem: f.problem, ...(f.movedTo ? { now_at: f.movedTo } : {}), ...(f.moveProblem ? { move_problem: f.moveProblem } : {}), detail: setAsideWords(f) }),
  };
}
