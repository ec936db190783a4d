// Node-only. A lock file shared by processes: created exclusively, holding a random owner token, kept
// fresh by a heartbeat, released only by its owner, and taken over when stale by one process at a
// time. Node has no advisory (kernel) file locks, so staleness is judged by age, as proper-lockfile
// does; unlike a check-then-remove, a takeover here is serialised and verified, and it never hands
// the lock over: it removes the stale file, and the exclusive create decides who holds it next.
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { link, lstat, mkdir, open, readFile, rename, rm, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { EngageVoiceAuthError } from "./errors.js";

export interface FileLockOptions {
  /** A lock not touched for this long was left by a crashed or frozen process. */
  staleLockMs: number;
  /** How long to wait for the lock before failing with `store_failed`. */
  lockTimeoutMs: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;
const failed = (message: string, cause?: unknown) =>
  new EngageVoiceAuthError("store_failed", message, cause === undefined ? {} : { cause });

/** What is at `path` now, without following a symlink; `undefined` when nothing is. */
async function inspect(path: string) {
  try {
    const stats = await lstat(path);
    return {
      ino: stats.ino,
      mtimeMs: stats.mtimeMs,
      kind: stats.isDirectory() ? "directory" : stats.isFile() ? "file" : "other",
    };
  } catch (error) {
    if (codeOf(error) === "ENOENT") return undefined;
    throw failed("The token file's lock could not be read", error);
  }
}

async function tokenIn(path: string): Promise<string | undefined> {
  return readFile(path, { encoding: "utf8", flag: constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) }).catch(
    () => undefined,
  );
}

/** Creates the lock file with our token, or answers false when it exists. */
async function tryCreate(lockPath: string, token: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(lockPath, "wx", 0o600);
  } catch (error) {
    if (codeOf(error) === "EEXIST") return false;
    if (codeOf(error) === "EISDIR") throw failed("The token file's lock path is a directory: remove it");
    throw failed("The token file's lock could not be taken", error);
  }
  try {
    await handle.writeFile(token);
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * Removes the lock at `lockPath` if it is still the stale one seen (`seen`), holding the takeover
 * file while it checks, so that two processes never both remove what one of them saw: the second
 * would remove the lock the first's successor just created.
 */
async function takeOverStale(lockPath: string, seen: { ino: number; mtimeMs: number }, staleLockMs: number) {
  const takeover = `${lockPath}.takeover`;
  if (!(await tryCreate(takeover, "takeover"))) {
    // Someone else is checking; a takeover file this old was left by a crash inside the check.
    const left = await inspect(takeover);
    if (left && Date.now() - left.mtimeMs > staleLockMs) await rm(takeover, { force: true }).catch(() => {});
    return;
  }
  try {
    const now = await inspect(lockPath);
    if (!now || now.ino !== seen.ino || now.mtimeMs !== seen.mtimeMs) return;
    // Moved aside first, then checked again: what is removed is what was judged stale.
    const aside = `${lockPath}.${randomBytes(6).toString("hex")}.stale`;
    await rename(lockPath, aside).catch(() => {});
    const moved = await inspect(aside);
    if (moved && (moved.ino !== seen.ino || moved.mtimeMs !== seen.mtimeMs)) {
      // Not the stale lock after all: put it back (a link, which never replaces a new lock).
      await link(aside, lockPath).catch(() => {});
    }
    await rm(aside, { force: true }).catch(() => {});
  } finally {
    await unlink(takeover).catch(() => {});
  }
}

/** Runs `task` while holding the lock at `lockPath`. */
export async function withFileLock<T>(
  lockPath: string,
  { staleLockMs, lockTimeoutMs }: FileLockOptions,
  task: () => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + lockTimeoutMs;
  const token = randomBytes(16).toString("hex");
  try {
    await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw failed("The token file's folder could not be made", error);
  }
  for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
    if (await tryCreate(lockPath, token)) break;
    const seen = await inspect(lockPath);
    if (seen?.kind === "directory") throw failed("The token file's lock path is a directory: remove it");
    // A dangling symlink or a file not touched for staleLockMs was left behind: remove it, then compete.
    if (seen && (seen.kind === "other" || Date.now() - seen.mtimeMs > staleLockMs)) {
      await takeOverStale(lockPath, seen, staleLockMs);
      continue;
    }
    if (Date.now() > deadline) throw failed(`The token file stayed locked for ${lockTimeoutMs} ms`);
    await pause(wait / 2 + Math.random() * wait);
  }
  // A renewal with retries can outlast staleLockMs: touching the lock keeps it from looking abandoned.
  // Only a lock that still holds our token is touched, through a handle that does not follow symlinks.
  const touch = async () => {
    const handle = await open(lockPath, constants.O_RDWR | (constants.O_NOFOLLOW ?? 0)).catch(
      () => undefined,
    );
    if (!handle) return;
    try {
      if ((await handle.readFile("utf8")) === token) await handle.utimes(new Date(), new Date());
    } finally {
      await handle.close();
    }
  };
  const heartbeat = setInterval(
    () => void touch().catch(() => {}),
    Math.max(1, Math.floor(staleLockMs / 3)),
  ) as {
    unref?: () => void;
  };
  heartbeat.unref?.();
  try {
    return await task();
  } finally {
    clearInterval(heartbeat as Parameters<typeof clearInterval>[0]);
    // A lock taken over while we were frozen is someone else's now: only our own is removed.
    if ((await tokenIn(lockPath)) === token) await unlink(lockPath).catch(() => {});
  }
}
