// Node cannot ask the kernel to kill a child when its parent dies (Linux's PR_SET_PDEATHSIG is out of reach), and a
// SIGKILLed process runs no exit handler. So each process that starts children also starts one watchdog: a tiny
// POSIX shell in its own session that reads "+PGID" / "-PGID" lines from a pipe whose only writer is us. When we
// die, however we die, the kernel closes that pipe; the watchdog reads end-of-file and SIGKILLs every process group
// still on its list. The gap between spawning a child and its "+PGID" line reaching the pipe is one synchronous
// block, but under load the child can run for milliseconds before we are scheduled to write the line; a kill inside
// it leaves that one child running (docs/processes.md, "What is left open").
import { spawn, type ChildProcess } from "node:child_process";

// Removal rebuilds the space-separated list without a subshell; a group is listed at most once.
const SCRIPT = `trap '' INT TERM HUP
set -f
groups=" "
while IFS= read -r line; do
  id=\${line#?}
  case "$id" in ''|*[!0-9]*) continue ;; esac
  case "$line" in
    +*) groups="$groups$id " ;;
    -*) case "$groups" in *" $id "*) groups="\${groups%% $id *} \${groups#* $id }" ;; esac ;;
  esac
done
for g in $groups; do kill -s KILL -- "-$g" 2>/dev/null; done
`;

export interface Watchdog {
  /** Adds a process group to the list that dies with us. */
  add(pgid: number): void;
  /** Takes it off again (the group is gone). */
  remove(pgid: number): void;
}

let started: { child: ChildProcess; ok: boolean } | undefined;

/** The process's one watchdog, started on first use; without /bin/sh it does nothing (the exit hook still kills). */
export function watchdog(): Watchdog {
  started ??= start();
  const send = (line: string) => {
    if (!started?.ok) return;
    try {
      started.child.stdin!.write(line);
    } catch {
      started.ok = false;
    }
  };
  return { add: (pgid) => send(`+${pgid}\n`), remove: (pgid) => send(`-${pgid}\n`) };
}

function start(): { child: ChildProcess; ok: boolean } {
  const child = spawn("/bin/sh", ["-c", SCRIPT], { stdio: ["pipe", "ignore", "ignore"], detached: true, windowsHide: true });
  const state = { child, ok: true };
  child.on("error", () => (state.ok = false));
  child.on("exit", () => (state.ok = false));
  child.stdin!.on("error", () => (state.ok = false));
  // Neither the watchdog nor its pipe may keep our event loop alive: it exists only to outlive us.
  child.unref();
  // The cast is the honest answer: a piped stdin is a net.Socket at run time (it has unref), typed only as Writable.
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  return state;
}
