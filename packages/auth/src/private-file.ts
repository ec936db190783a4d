import { constants } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { randomHex } from "./lazy-crypto.js";
import { MAX_ANSWER_BYTES } from "./limited-fetch.js";

/**
 * The largest token file `fileStore` reads or writes. A stored set is a token answer, which the token
 * calls read up to this bound, and three numbers: a larger file was not written by the store, and
 * reading it whole could cost any amount of memory.
 */
export const MAX_TOKEN_FILE_BYTES = MAX_ANSWER_BYTES;

/** Why {@link readRegularFile} did not read a file. */
export type FileRefusal = "not_regular" | "too_large";

// Without O_NONBLOCK, opening a FIFO waits for a writer, for ever. Regular files read the same with it.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * The text of the regular file at `path` (symlinks followed), or why it was not read: what was
 * opened is not a regular file (a folder, a FIFO, a socket, a device such as `/dev/zero`), or it
 * holds more than `maxBytes`. The type and the size are those of the opened handle, not of a stat
 * of the path, which another process could swap in between. A missing file and other system errors
 * are thrown as they are, for the caller to say which file it was.
 */
export async function readRegularFile(
  path: string,
  maxBytes: number,
): Promise<{ text: string } | { refused: FileRefusal }> {
  const file = await open(path, READ_FLAGS);
  try {
    const info = await file.stat();
    if (!info.isFile()) {
      return { refused: "not_regular" };
    }
    if (info.size > maxBytes) {
      return { refused: "too_large" };
    }
    // The file may grow after the stat: one byte past the bound tells.
    const bytes = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length < bytes.byteLength) {
      const { bytesRead } = await file.read(bytes, length, bytes.byteLength - length, length);
      if (bytesRead === 0) {
        break;
      }
      length += bytesRead;
    }
    return length > maxBytes ? { refused: "too_large" } : { text: bytes.toString("utf8", 0, length) };
  } finally {
    await file.close();
  }
}

/**
 * Writes `text` to `path` for its owner alone: the file is made with mode 0600 (its folder, when
 * missing, with 0700) under a temporary name in the same folder, flushed to disk, then renamed over
 * `path`. A crash or a full disk leaves the old file or the new one, never half of one, and no
 * other user can read it meanwhile. The temporary file is removed when anything fails; the error
 * is thrown as it is, for the caller to say which file it was.
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  const temporary = `${path}.${await randomHex(6)}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const file = await open(temporary, "wx", 0o600);
    try {
      await file.writeFile(text);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw error;
  }
}
