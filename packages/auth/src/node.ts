// Node-only: imported as `@engage-voice/auth/node`, so the main entry stays free of node:* modules.
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm, stat, utimes } from "node:fs/promises";
import { dirname } from "node:path";
import { EngageVoiceAuthError } from "./errors.js";
import type { TokenStore } from "./store.js";
import { fromStored } from "./tokens.js";

export type { TokenStore } from "./store.js";

export interface FileStoreOptions {
  /**
   * Renewals take a lock file (`<path>.lock`) so that processes sharing the file renew one at a
   * time: the next one reads the set the first wrote instead of spending the same refresh token.
   * Default `true`; `false` for a file that only one process ever uses.
   */
  lock?: boolean;
  /**
   * A lock file not touched for this long was left by a crashed process and is taken over. The
   * holder touches it every third of this while it renews. Default 15 000 ms.
   */
  staleLockMs?: number;
  /** How long a renewal waits for the lock before it fails with `store_failed`. Default 120 000 ms. */
  lockTimeoutMs?: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `task` while holding `lockPath`, created exclusively; waits, and takes over a stale lock. */
async function withFileLock<T>(
  lockPath: string,
  { staleLockMs, lockTimeoutMs }: Required<Omit<FileStoreOptions, "lock">>,
  task: () => Promise<T>,
): Promise<T> {
  const deadline = Date.now() + lockTimeoutMs;
  await mkdir(dirname(lockPath), { recursive: true, mode: 0o700 });
  for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
    try {
      const handle = await open(lockPath, "wx", 0o600);
      await handle.close();
      break;
    } catch (error) {
      if ((error as { code?: unknown }).code !== "EEXIST") {
        throw new EngageVoiceAuthError("store_failed", "The token file's lock could not be taken", {
          cause: error,
        });
      }
      const age = await stat(lockPath).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > staleLockMs) await rm(lockPath, { force: true });
      else if (Date.now() > deadline) {
        throw new EngageVoiceAuthError(
          "store_failed",
          `The token file stayed locked for ${lockTimeoutMs} ms`,
        );
      } else await pause(wait / 2 + Math.random() * wait);
    }
  }
  // A renewal with retries can outlast staleLockMs: touching the lock keeps it from looking abandoned.
  const heartbeat = setInterval(() => {
    const now = new Date();
    utimes(lockPath, now, now).catch(() => {});
  }, staleLockMs / 3) as { unref?: () => void };
  heartbeat.unref?.();
  try {
    return await task();
  } finally {
    clearInterval(heartbeat as Parameters<typeof clearInterval>[0]);
    await rm(lockPath, { force: true });
  }
}

/**
 * A token store in a JSON file, readable by its owner only (mode 0600). Every write goes to a
 * temporary file in the same folder that then replaces the old file in one rename, so a crash leaves
 * either the old set or the new one, never half of one. A new manager on the same file resumes the
 * session without a new exchange, and managers in several processes can share the file: renewals
 * take turns under a lock file, and each reads the newest set first.
 */
export function fileStore(path: string, options: FileStoreOptions = {}): TokenStore {
  if (typeof path !== "string" || path === "") {
    throw new EngageVoiceAuthError("invalid_options", "fileStore() needs the path of a file");
  }
  const { lock = true, staleLockMs = 15_000, lockTimeoutMs = 120_000 } = options;
  const locking = { staleLockMs, lockTimeoutMs };
  return {
    async get() {
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch (error) {
        if ((error as { code?: unknown }).code === "ENOENT") return undefined;
        throw new EngageVoiceAuthError("store_failed", "The token file could not be read", { cause: error });
      }
      try {
        return fromStored(JSON.parse(text));
      } catch (error) {
        throw new EngageVoiceAuthError("store_failed", "The token file is not valid JSON", { cause: error });
      }
    },
    async set(tokens) {
      const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
      try {
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        const file = await open(temporary, "wx", 0o600);
        try {
          await file.writeFile(JSON.stringify({ ...tokens }));
          await file.sync();
        } finally {
          await file.close();
        }
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true }).catch(() => {});
        throw new EngageVoiceAuthError("store_failed", "The token file could not be written", {
          cause: error,
        });
      }
    },
    async clear() {
      await rm(path, { force: true });
    },
    ...(lock ? { lock: <T>(task: () => Promise<T>) => withFileLock(`${path}.lock`, locking, task) } : {}),
  };
}
