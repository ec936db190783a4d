// Node-only. A lock file shared by processes: created exclusively, holding a random owner token, kept
// fresh by a heartbeat, released only by its owner, and taken over when stale by one process at a
// time. Node has no advisory (kernel) file locks, so staleness is judged by age. proper-lockfile does
// the same, but its takeover is a check-then-remove (moxystudio/node-proper-lockfile#121): a late
// remover deletes the lock its rival just created. Here every step that decides between processes is
// an exclusive create, the one compare-and-set a file system offers, and a takeover never hands the
// lock over: it removes the stale file, and the exclusive create decides who holds it next.
import { constants } from "node:fs";
import { link, lstat, mkdir, open, readFile, rename, rm, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { storeFailed } from "./errors.js";
import { randomHex, sha256Hex } from "./lazy-crypto.js";
import { type Lease, withLease } from "./lease.js";
import type { LockHold } from "./store.js";

export interface FileLockOptions {
  /** A lock not touched for this long was left by a crashed or frozen process. */
  staleLockMs: number;
  /** How long to wait for the lock before failing with `store_failed`. */
  lockTimeoutMs: number;
}

interface Seen {
  /** Device, inode and mtime in ns: a new lock at the same path never has the same. */
  identity: string;
  kind: "directory" | "file" | "other";
  ageMs: number;
}

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;
const failed = storeFailed;

/** What is at `path` now, without following a symlink; `undefined` when nothing is. */
async function inspect(path: string): Promise<Seen | undefined> {
  try {
    const stats = await lstat(path, { bigint: true });
    return {
      identity: `${stats.dev}:${stats.ino}:${stats.mtimeNs}`,
      kind: stats.isDirectory() ? "directory" : stats.isFile() ? "file" : "other",
      ageMs: Date.now() - Number(stats.mtimeMs),
    };
  } catch (error) {
    if (codeOf(error) === "ENOENT") {
      return undefined;
    }
    throw failed("The token file's lock could not be read", error);
  }
}

async function tokenIn(path: string): Promise<string | undefined> {
  return readFile(path, { encoding: "utf8", flag: constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) }).catch(
    () => undefined,
  );
}

/** Creates `path` holding `token`, or answers false when something is there already. */
async function tryCreate(path: string, token: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "wx", 0o600);
  } catch (error) {
    if (codeOf(error) === "EEXIST") {
      return false;
    }
    if (codeOf(error) === "EISDIR") {
      throw failed("The token file's lock path is a directory: remove it");
    }
    throw failed("The token file's lock could not be taken", error);
  }
  try {
    await handle.writeFile(token);
  } catch (error) {
    // An empty lock would block every process for staleLockMs: it is not ours to keep.
    await handle.close().catch(() => {});
    await unlink(path).catch(() => {});
    throw failed("The token file's lock could not be written", error);
  }
  await handle.close().catch(() => {});
  return true;
}

/** The takeover file of generation `n` for the stale lock seen as `identity`. */
export async function takeoverPath(lockPath: string, identity: string, n: number): Promise<string> {
  const key = (await sha256Hex(identity)).slice(0, 16);
  return `${lockPath}.${key}.${n}.takeover`;
}

/**
 * Removes the lock at `lockPath` if it is still the stale one seen, and answers whether it did.
 * The right to check and remove is a takeover file named after what was seen, created exclusively:
 * two processes that saw the same stale lock never both remove, so the later one cannot remove the
 * lock the earlier one's successor just created. A takeover file left by a crash inside this is not
 * removed for its age (that would be a check-then-remove again): it is skipped once stale, for the
 * next generation's, which again only one process can create, and removed once its lock is gone.
 */
async function takeOverStale(lockPath: string, seen: Seen, staleLockMs: number): Promise<boolean> {
  const guard = (n: number) => takeoverPath(lockPath, seen.identity, n);
  let n = 1;
  for (;;) {
    if (await tryCreate(await guard(n), "takeover")) {
      break;
    }
    const left = await inspect(await guard(n));
    // Released just now: this generation is free again, and skipping it would let two in.
    if (!left) {
      continue;
    }
    // Another process is checking this stale lock now: its verdict is awaited, not raced.
    if (left.ageMs <= staleLockMs) {
      return false;
    }
    n++;
  }
  // Once the stale lock is gone, every takeover file for it is moot, those left by crashes too.
  let gone = false;
  try {
    const now = await inspect(lockPath);
    if (now?.identity !== seen.identity) {
      gone = true;
      return false;
    }
    // Moved aside, then checked again: what is removed is what was judged stale.
    const aside = `${lockPath}.${await randomHex(6)}.stale`;
    try {
      await rename(lockPath, aside);
    } catch (error) {
      if (codeOf(error) !== "ENOENT") {
        throw failed("The token file's stale lock could not be removed", error);
      }
      gone = true;
      return false;
    }
    gone = true;
    const moved = await inspect(aside);
    if (moved && moved.identity !== seen.identity) {
      // Only a holder frozen past staleLockMs gets here; a link never replaces a newer lock.
      await link(aside, lockPath).catch(() => {});
    }
    await rm(aside, { force: true }).catch(() => {});
    return moved?.identity === seen.identity;
  } finally {
    // While the stale lock is still there, a leftover removed would be a generation two could take.
    for (let k = n; k >= (gone ? 1 : n); k--) {
      await unlink(await guard(k)).catch(() => {});
    }
  }
}

/**
 * Runs `task` while holding the lock at `lockPath`. Its hold's `held()` reads the lock's owner token
 * (and touches the lock if it is still ours): a holder frozen past `staleLockMs` learns that it lost it.
 */
export async function withFileLock<T>(
  lockPath: string,
  { staleLockMs, lockTimeoutMs }: FileLockOptions,
  task: (hold: LockHold) => Promise<T>,
): Promise<T> {
  const token = await randomHex(16);
  try {
    await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw failed("The token file's folder could not be made", error);
  }
  let blocker: unknown;
  async function take(): Promise<boolean> {
    for (;;) {
      if (await tryCreate(lockPath, token)) {
        return true;
      }
      const seen = await inspect(lockPath);
      if (seen?.kind === "directory") {
        throw failed("The token file's lock path is a directory: remove it");
      }
      // A dangling symlink or a file not touched for staleLockMs was left behind: remove it, then
      // compete. A takeover under way elsewhere is waited for like a held lock, never spun on.
      const abandoned = seen && (seen.kind === "other" || seen.ageMs > staleLockMs);
      if (!abandoned) {
        return false;
      }
      // A stale lock that cannot be removed now (a file of another user, a file open on Windows)
      // may be removable later: it is waited for like a held lock, and the reason is kept.
      const removed = await takeOverStale(lockPath, seen, staleLockMs).catch((error: unknown) => {
        blocker = error;
        return false;
      });
      if (!removed) {
        return false;
      }
    }
  }
  // A renewal with retries can outlast staleLockMs: touching the lock keeps it from looking abandoned.
  // Only a lock that still holds our token is touched, through a handle that does not follow symlinks.
  async function touch(): Promise<boolean> {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(lockPath, constants.O_RDWR | (constants.O_NOFOLLOW ?? 0));
    } catch (error) {
      // Gone, or a symlink swapped in: not ours any more. Anything else may pass by the next beat.
      if (codeOf(error) === "ENOENT" || codeOf(error) === "ELOOP") {
        return false;
      }
      throw error;
    }
    try {
      if ((await handle.readFile("utf8")) !== token) {
        return false;
      }
      await handle.utimes(new Date(), new Date());
      return true;
    } finally {
      await handle.close();
    }
  }
  // A touch that read our token just before the release would set the next holder's lock's times:
  // the release waits for the last touch.
  let touching: Promise<unknown> = Promise.resolve();
  const lease: Lease = {
    take,
    renew() {
      const touched = touch();
      touching = touched.catch(() => {});
      return touched;
    },
    // A lock taken over while we were frozen is someone else's now: only our own is removed.
    async release() {
      await touching;
      if ((await tokenIn(lockPath)) === token) {
        await unlink(lockPath);
      }
    },
  };
  return withLease(
    lease,
    {
      timeoutMs: lockTimeoutMs,
      renewEveryMs: Math.floor(staleLockMs / 3),
      timedOut: () => failed(`The token file stayed locked for ${lockTimeoutMs} ms`, blocker),
    },
    task,
  );
}
