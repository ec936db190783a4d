// What this process starts ends with it, however it ends. A server started in its own process group
// (so that a stop also ends what it started) is out of reach of every signal this process gets, and
// nothing signals a plain child when its parent is killed alone: turbo ending a failed run, a SIGKILL
// or a crash would leave a Verdaccio, a Prism or a redis-server running and holding its port. Linux's
// parent-death signal is not open to Node, so a shell in a session of its own holds the read end of a
// pipe from this process: the kernel closes the write end when this process dies, and the shell then
// kills what is still listed. Each entry is struck off once it has ended, so a PID the system hands
// out again later is not killed.
import { type ChildProcess, spawn } from "node:child_process";
import type { Socket } from "node:net";

/** POSIX sh (dash on Debian): starts in about a millisecond, against Node's tens. */
const WATCH = `trap '' INT TERM HUP
listed=" "
while read -r line; do
  id=\${line#?}
  case $line in
    +*) listed="$listed$id " ;;
    -*) case $listed in *" $id "*) listed="\${listed%% $id *} \${listed#* $id }" ;; esac ;;
  esac
done
for id in $listed; do kill -s KILL -- "$id" 2>/dev/null; done`;

let watcher: ChildProcess | undefined;

function list(): (line: string) => void {
  if (watcher === undefined) {
    watcher = spawn("/bin/sh", ["-c", WATCH], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
    // A watcher that could not start, or died, leaves the groups as they were before it: no worse.
    watcher.on("error", () => undefined);
    watcher.stdin?.on("error", () => undefined);
    // Neither the watcher nor its pipe keeps this process alive: only the groups it watches may.
    watcher.unref();
    (watcher.stdin as Socket | null)?.unref();
  }
  const { stdin } = watcher;
  return (line) => {
    if (stdin?.writable) {
      stdin.write(`${line}\n`);
    }
  };
}

/**
 * Kills `child` if this process dies first: with `group`, its whole process group (a child spawned
 * `detached`, whose PID is its group's ID), struck off once its stdio has closed (whatever in the
 * group held it has gone too); else the child alone, struck off when it exits.
 */
export function killedWithThisProcess(child: ChildProcess, { group }: { group: boolean }): void {
  if (child.pid === undefined || process.platform === "win32") {
    return;
  }
  const id = group ? `-${child.pid}` : String(child.pid);
  const write = list();
  write(`+${id}`);
  child.once(group ? "close" : "exit", () => write(`-${id}`));
}
