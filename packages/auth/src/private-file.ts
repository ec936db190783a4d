import { mkdir, open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { randomHex } from "./lazy-crypto.js";

export { type FileRefusal, MAX_TOKEN_FILE_BYTES, readRegularFile } from "./token-file.js";

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
