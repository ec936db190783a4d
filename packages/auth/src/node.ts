// Node-only: imported as `@engage-voice/auth/node`, so the main entry stays free of node:* modules.
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { EngageVoiceAuthError } from "./errors.js";
import type { TokenStore } from "./store.js";
import { fromStored } from "./tokens.js";

export type { TokenStore } from "./store.js";

/**
 * A token store in a JSON file, readable by its owner only (mode 0600). Every write goes to a
 * temporary file in the same folder that then replaces the old file in one rename, so a crash leaves
 * either the old set or the new one, never half of one. A new manager on the same file resumes the
 * session without a new exchange.
 */
export function fileStore(path: string): TokenStore {
  if (typeof path !== "string" || path === "") {
    throw new EngageVoiceAuthError("invalid_options", "fileStore() needs the path of a file");
  }
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
  };
}
