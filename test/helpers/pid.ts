// Tests that kill process groups ask "does this pid still run?" in several places; one answer keeps them agreeing on
// zombies: a child whose parent was SIGKILLed is re-parented to PID 1, and this container's init reaps late, but a
// zombie runs no code and can send nothing.
import { readFileSync } from "node:fs";

/** True while `pid` runs, not counting a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (error) {
    // Gone between the two looks; any other failure to read says nothing, so it still counts as running.
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
  // "pid (comm) S ...": comm may hold spaces and parentheses, so the state follows the last ")".
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
}
