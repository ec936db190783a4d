// Node-only. How a token file is read and what makes it the file store's: one home for the checks of
// `fileStore` (src/node.ts) and of the command line's fast `engage-voice token`, which reads the
// stored session without loading the token manager (the `./internal` entry: no semver promise). It
// loads node:fs and the client (for its bound of an answer), nothing of the manager.
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { MAX_ANSWER_BYTES } from "@engage-voice/client";
import { fromStored, type TokenSet } from "./tokens.js";

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

/** A file's text, with the permission bits and owner of the handle it was read through. */
export interface FileText {
  text: string;
  /** `mode & 0o777`. */
  mode: number;
  owner: number;
}

/**
 * The text of the regular file at `path` (symlinks followed), or why it was not read: what was
 * opened is not a regular file (a folder, a FIFO, a socket, a device such as `/dev/zero`), or it
 * holds more than `maxBytes`. The type, size, mode and owner are those of the opened handle, not of
 * a stat of the path, which another process could swap in between. A missing file and other system
 * errors are thrown as they are, for the caller to say which file it was.
 */
export async function readRegularFile(
  path: string,
  maxBytes: number,
): Promise<FileText | { refused: FileRefusal }> {
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
    return length > maxBytes
      ? { refused: "too_large" }
      : { text: bytes.toString("utf8", 0, length), mode: info.mode & 0o777, owner: info.uid };
  } finally {
    await file.close();
  }
}

/** What a token file held, as the file store reads it. */
export type TokenFile =
  | { missing: true }
  | { refused: FileRefusal }
  | { notJson: unknown }
  /** `tokens` is undefined when the JSON is not a token set (the store then holds no session). */
  | { tokens: TokenSet | undefined; mode: number; owner: number };

/**
 * Reads the token file at `path` under the file store's rules: a regular file, at most
 * {@link MAX_TOKEN_FILE_BYTES}, JSON holding a token set. A missing file is `missing`; any other
 * system error is thrown as it is.
 */
export async function readTokenFile(path: string): Promise<TokenFile> {
  let contents: Awaited<ReturnType<typeof readRegularFile>>;
  try {
    contents = await readRegularFile(path, MAX_TOKEN_FILE_BYTES);
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") {
      return { missing: true };
    }
    throw error;
  }
  if ("refused" in contents) {
    return contents;
  }
  let value: unknown;
  try {
    value = JSON.parse(contents.text);
  } catch (error) {
    return { notJson: error };
  }
  return { tokens: fromStored(value), mode: contents.mode, owner: contents.owner };
}

/** Whether a file's mode is the store's own, readable and writable by its owner alone (0600 or tighter). */
export const isOwnerOnly = (mode: number): boolean => (mode & 0o077) === 0;

/** The lock file that renewals sharing the token file at `path` take turns under. */
export const lockFileOf = (path: string): string => `${path}.lock`;
