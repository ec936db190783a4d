// What this process starts ends with it, however it ends. A server started in its own process group
// (so that a stop also ends what it started) is out of reach of every signal this process gets, and
// nothing signals a plain child when its parent is killed alone: turbo ending a failed run, a SIGKILL
// or a crash would leave a Verdaccio, a Prism or a redis-server running and holding its port. Linux's
// parent-death signal is not open to Node, so a shell in a session of its own holds the read end of a
// pipe from this process: the kernel closes the write end when this process dies, and the shell then
// kills what is still listed. Each entry is struck off once it has ended, so a PID the system hands
// out again later is not killed. A group has ended when its last member has, not its leader: a
// launcher that starts a server in its group and exits leaves the server behind. The system hands
// out a group's ID to no other process while a member lives, so a listed group is never another's.
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
 * Whether a process of group `pgid` lives: signal 0 checks without sending, and EPERM (a member of
 * another user's) still answers that one does.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// No event tells when the last member of a group ends (it need not be a child of this process):
// a group whose leader has gone is checked this often, one kill(2) a time, until it is empty.
const GROUP_CHECK_MS = 100;

/** Resolves once no process of group `pgid` is left. The checks keep no process alive. */
function groupGone(pgid: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (groupAlive(pgid)) {
        setTimeout(check, GROUP_CHECK_MS).unref();
      } else {
        resolve();
      }
    };
    check();
  });
}

/**
 * Kills `child` if this process dies first: with `group`, its whole process group (a child spawned
 * `detached`, whose PID is its group's ID), struck off once the child has closed its stdio and no
 * member of the group is left; else the child alone, struck off when it exits. Resolves when it is
 * struck off: once the group, or the child, has ended.
 */
export function killedWithThisProcess(child: ChildProcess, { group }: { group: boolean }): Promise<void> {
  const { pid } = child;
  if (pid === undefined) {
    return Promise.resolve();
  }
  const done = new Promise<void>((resolve) => child.once(group ? "close" : "exit", () => resolve()));
  if (process.platform === "win32") {
    return done;
  }
  const ended = group ? done.then(() => groupGone(pid)) : done;
  const id = group ? `-${pid}` : String(pid);
  const write = list();
  write(`+${id}`);
  void ended.then(() => write(`-${id}`));
  return ended;
}
