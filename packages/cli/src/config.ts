// Where profiles and sessions live: the platform's config directory, one token file per profile
// and host, and a config file with each profile's hosts (no secret in it).
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { dirname, isAbsolute, join } from "node:path";
import { CliError, EXIT, usageError } from "./exit.js";
import { ENV } from "./usage.js";

export const DEFAULT_BASE_URL = "https://engage.ringcentral.com";
export const DEFAULT_LEGACY_BASE_URL = "https://portal.vacd.biz";
export const DEFAULT_PROFILE = "default";

export interface Platform {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  home: string;
}

/**
 * The folder that holds everything: `ENGAGE_VOICE_CONFIG_DIR`, else `$XDG_CONFIG_HOME/engage-voice`
 * when set (on every platform, as gh does), else the platform's convention: `%APPDATA%` on Windows,
 * `~/Library/Application Support` on macOS, `~/.config` elsewhere.
 */
export function configDir({ env, platform, home }: Platform): string {
  const own = env[ENV.configDir];
  if (own && isAbsolute(own)) {
    return own;
  }
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) {
    return join(xdg, "engage-voice");
  }
  if (platform === "win32") {
    return join(env.APPDATA || join(home, "AppData", "Roaming"), "engage-voice");
  }
  if (platform === "darwin") {
    return join(home, "Library", "Application Support", "engage-voice");
  }
  return join(home, ".config", "engage-voice");
}

export function checkProfile(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name)) {
    throw usageError(
      "--profile must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
    );
  }
  return name;
}

/** An origin from a URL option, or a usage error that does not quote it (it may hold a password). */
export function checkOrigin(value: string, option: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(`--${option} is not a URL: give an origin such as https://engage.ringcentral.com`);
  }
  if (
    (url.protocol !== "https:" && url.protocol !== "http:") ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    url.pathname !== "/"
  ) {
    throw usageError(
      `--${option} must be an origin (scheme, host, port), such as https://engage.ringcentral.com`,
    );
  }
  return url.origin;
}

/** A file name for an origin: `https_engage.ringcentral.com`, `http_127.0.0.1_4010`. */
export function hostKey(origin: string): string {
  const url = new URL(origin);
  const key = `${url.protocol.slice(0, -1)}_${url.hostname}${url.port ? `_${url.port}` : ""}`;
  return key.replace(/[^A-Za-z0-9.-]/g, "_");
}

export function tokenFile(dir: string, profile: string, origin: string): string {
  return join(dir, "tokens", profile, `${hostKey(origin)}.json`);
}

export interface ProfileConfig {
  baseUrl: string;
  legacyBaseUrl: string;
}

export interface ConfigFile {
  profiles: Record<string, ProfileConfig>;
}

const configPath = (dir: string) => join(dir, "config.json");

export async function readConfig(dir: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(configPath(dir), "utf8");
  } catch (error) {
    if ((error as { code?: unknown }).code === "ENOENT") {
      return { profiles: {} };
    }
    throw new CliError(`${configPath(dir)} could not be read: check its permissions`, EXIT.failure);
  }
  try {
    const parsed = JSON.parse(text) as Partial<ConfigFile>;
    const profiles: Record<string, ProfileConfig> = Object.create(null);
    for (const [name, value] of Object.entries(parsed.profiles ?? {})) {
      if (typeof value?.baseUrl === "string" && typeof value.legacyBaseUrl === "string") {
        profiles[name] = { baseUrl: value.baseUrl, legacyBaseUrl: value.legacyBaseUrl };
      }
    }
    return { profiles };
  } catch {
    throw new CliError(`${configPath(dir)} is not valid JSON: fix or delete it`, EXIT.failure);
  }
}

/** Writes through a temporary file and a rename, mode 0600, in a folder of mode 0700. */
export async function writeConfig(dir: string, config: ConfigFile): Promise<void> {
  const path = configPath(dir);
  const temporary = `${path}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const file = await open(temporary, "wx", 0o600);
    try {
      await file.writeFile(`${JSON.stringify(config, null, 2)}\n`);
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  } catch {
    await rm(temporary, { force: true }).catch(() => {});
    throw new CliError(`${path} could not be written: check the folder's permissions`, EXIT.failure);
  }
}
