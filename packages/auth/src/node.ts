// Node-only: imported as `@engage-voice/auth/node`, so the main entry stays free of node:* modules.
import { rm } from "node:fs/promises";
import { storeFailed, VERBOSE } from "./errors.js";
import { withFileLock } from "./file-lock.js";
import { lockingRules } from "./locking-store.js";
import { boolean, integer, invalid, optionsOf, refuseUnknown } from "./options.js";
import { writePrivateFile } from "./private-file.js";
import type { TokenStore } from "./store.js";
import { type FileRefusal, lockFileOf, MAX_TOKEN_FILE_BYTES, readTokenFile } from "./token-file.js";
import type { TokenSet } from "./tokens.js";

export { writePrivateFile } from "./private-file.js";
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
   * holder touches it every third of this while it renews. Default 15 000 ms, 1 000 to 3 600 000:
   * below a second, an ordinary event-loop delay between two touches would make a live lock look
   * abandoned; above an hour, a crash would block renewals longer than any token lives.
   */
  staleLockMs?: number;
  /**
   * How long a renewal waits for the lock before it fails with `store_failed`: a held lock, a
   * takeover under way elsewhere, or a stale lock that cannot be removed. Default 120 000 ms, 0 (one
   * try) to 3 600 000.
   */
  lockTimeoutMs?: number;
}

const HOUR = 3_600_000;
const failed = storeFailed;

const refusals: Record<FileRefusal, string> = {
  not_regular: VERBOSE
    ? "The token file's path is not a regular file (a folder, a FIFO, a socket or a device is there, or a symlink to one): give fileStore() the path of a file, or remove what is at it"
    : "the token file's path is not a regular file",
  too_large: VERBOSE
    ? `The token file holds more than ${MAX_TOKEN_FILE_BYTES} bytes, more than any token set: it is not one; remove it or give fileStore() another path`
    : "the token file is too large",
};

/**
 * A token store in a JSON file, readable by its owner only (mode 0600). Every write goes to a
 * temporary file in the same folder that then replaces the old file in one rename, so a crash leaves
 * either the old set or the new one, never half of one. A new manager on the same file resumes the
 * session without a new exchange, and managers in several processes can share the file: renewals
 * take turns under a lock file, each reads the newest set first, and a write never replaces another
 * set of the same or a higher `sequence` (one that a later renewal stored). That compare-and-set is a
 * read, a compare and a write: atomic against other managers only under the lock, which a manager
 * holds whenever it writes a renewal's set (with `lock: true`, the default).
 */
export function fileStore(path: string, options?: FileStoreOptions): TokenStore {
  if (typeof path !== "string" || path === "" || path.includes("\0")) {
    throw invalid("fileStore() needs the path of a file (a non-empty string without NUL)");
  }
  const given = optionsOf(options, "fileStore()");
  refuseUnknown(given, ["lock", "staleLockMs", "lockTimeoutMs"], "fileStore()");
  const lock = boolean("lock", given.lock, true);
  const locking = {
    staleLockMs: integer("staleLockMs", given.staleLockMs, 15_000, 1_000, HOUR),
    lockTimeoutMs: integer("lockTimeoutMs", given.lockTimeoutMs, 120_000, 0, HOUR),
  };

  async function read(): Promise<TokenSet | undefined> {
    let file: Awaited<ReturnType<typeof readTokenFile>>;
    try {
      file = await readTokenFile(path);
    } catch (error) {
      throw failed("The token file could not be read", error);
    }
    if ("refused" in file) {
      throw failed(refusals[file.refused]);
    }
    if ("notJson" in file) {
      throw failed("The token file is not valid JSON", file.notJson);
    }
    return "missing" in file ? undefined : file.tokens;
  }

  const store: TokenStore = {
    get: read,
    async set(tokens) {
      // Read-compare-write: atomic against other managers while the manager holds the lock, which
      // it does whenever it writes a renewal's set. Under a lock lost by a frozen holder it still
      // keeps the late holder's set from replacing the one its successor stored. An unreadable file
      // is replaced: the set being written may hold the only valid refresh token.
      const stored = await read().catch(() => undefined);
      if (stored && stored.sequence >= tokens.sequence && stored.accessToken !== tokens.accessToken) {
        return;
      }
      const text = JSON.stringify({ ...tokens });
      // What get() would refuse to read back is not written: the old set stays readable.
      if (Buffer.byteLength(text) > MAX_TOKEN_FILE_BYTES) {
        throw failed(
          VERBOSE
            ? `The token set takes more than ${MAX_TOKEN_FILE_BYTES} bytes, more than a token file holds: not written`
            : "the token set is too large",
        );
      }
      try {
        await writePrivateFile(path, text);
      } catch (error) {
        throw failed("The token file could not be written", error);
      }
    },
    async clear() {
      try {
        await rm(path, { force: true });
      } catch (error) {
        throw failed("The token file could not be removed", error);
      }
    },
    ...(lock
      ? { lock: <T>(task: () => Promise<T>) => withFileLock(lockFileOf(path), locking, task), lockingRules }
      : {}),
    // A file answers at once or fails: a set another process renewed is taken without the lock.
    peek: read,
  };
  return store;
}
