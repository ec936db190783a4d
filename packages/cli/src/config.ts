// Where profiles and sessions live: the platform's config directory, one token file per profile
// and host, and a config file with each profile's hosts (no secret in it). The fast `engage-voice
// token` reads it too: the file store is imported where a file is written, not at the top.
import { chmod, readFile, stat } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import type { TokenStore } from "@engage-voice/auth/node";
import { defaultBaseUrls, checkOrigin as originRule } from "@engage-voice/client/internal";
import { ENV } from "./env.js";
import { CliError, EXIT, usageError } from "./exit.js";

export const DEFAULT_BASE_URL = defaultBaseUrls.main;
export const DEFAULT_LEGACY_BASE_URL = defaultBaseUrls.legacy;
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
  if (own) {
    // Relative to what? The folder would move with the working directory, sessions with it.
    if (!isAbsolute(own)) {
      throw usageError(`${ENV.configDir} must be an absolute path: set it to the full path of the folder`);
    }
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

/** A profile names a folder: the same name must work on every platform. */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** Names Windows gives to devices, with any extension (`nul.txt` too), and a trailing dot it drops. */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)|\.$/i;

export function isProfileName(name: string): boolean {
  return PROFILE_NAME.test(name) && !WINDOWS_RESERVED.test(name);
}

export function checkProfile(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw usageError(
      "--profile must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit",
    );
  }
  if (WINDOWS_RESERVED.test(name)) {
    throw usageError(
      "--profile cannot be a device name of Windows (CON, PRN, AUX, NUL, COM0-9, LPT0-9, with or without an extension) nor end with '.': choose another name",
    );
  }
  return name;
}

/** An origin from a URL option under the client's rule, or a usage error that names the option. */
export function checkOrigin(value: string, option: string): string {
  const checked = originRule(value);
  if ("problem" in checked) {
    throw usageError(`--${option} ${checked.problem}`);
  }
  return checked.origin;
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

/** The option that names each host (its variable is `ENV` of the same key). */
export const HOST_OPTIONS = {
  baseUrl: "base-url",
  legacyBaseUrl: "legacy-base-url",
} as const satisfies Record<keyof ProfileConfig, string>;

/** A profile's hosts: as its `login` saved them, else the production hosts. */
export function profileHosts(config: ConfigFile, profile: string): ProfileConfig {
  return config.profiles[profile] ?? { baseUrl: DEFAULT_BASE_URL, legacyBaseUrl: DEFAULT_LEGACY_BASE_URL };
}

export interface ConfigFile {
  profiles: Record<string, ProfileConfig>;
  /** Profile names in the file that are not valid names (`../x`, `CON`): skipped, never used as paths. */
  ignored?: number;
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
    let ignored = 0;
    for (const [name, value] of Object.entries(parsed.profiles ?? {})) {
      // A name from the file becomes a folder name as one from --profile does: the same check.
      if (!isProfileName(name)) {
        ignored++;
      } else if (typeof value?.baseUrl === "string" && typeof value.legacyBaseUrl === "string") {
        profiles[name] = { baseUrl: value.baseUrl, legacyBaseUrl: value.legacyBaseUrl };
      }
    }
    return ignored ? { profiles, ignored } : { profiles };
  } catch {
    throw new CliError(`${configPath(dir)} is not valid JSON: fix or delete it`, EXIT.failure);
  }
}

/** Writes under auth's private-file rule: mode 0600, a folder of 0700, a temporary file and a rename. */
export async function writeConfig(dir: string, config: ConfigFile): Promise<void> {
  const path = configPath(dir);
  const { writePrivateFile } = await import("@engage-voice/auth/node");
  try {
    await writePrivateFile(path, `${JSON.stringify({ profiles: config.profiles }, null, 2)}\n`);
  } catch {
    throw new CliError(`${path} could not be written: check the folder's permissions`, EXIT.failure);
  }
}

/**
 * Runs a read-modify-write of config.json alone: under the lock file of `@engage-voice/auth`'s file
 * store (an exclusive create, taken over when stale), here around config.json, whose store is never
 * read or written. Without it, two logins read the same file and the second write loses the first's
 * profile. `change` gets the file as it is now, not as the command saw it when it started.
 */
export async function updateConfig(
  dir: string,
  change: (config: ConfigFile) => void,
  storeOf?: (path: string, what: string) => TokenStore,
): Promise<void> {
  const locked = storeOf
    ? storeOf(configPath(dir), "config.json").lock
    : (await import("@engage-voice/auth/node")).fileStore(configPath(dir)).lock;
  if (!locked) {
    throw new CliError("config.json cannot be locked", EXIT.failure);
  }
  await locked(async () => {
    const config = await readConfig(dir);
    change(config);
    await writeConfig(dir, config);
  });
}

/** What to do with a folder the CLI keeps sessions in, from its owner and mode (POSIX). */
export function folderVerdict(
  mode: number,
  owner: number,
  me: number,
): "keep" | { tighten: number } | "refuse" {
  const othersWrite = (mode & 0o022) !== 0;
  if (!othersWrite) {
    return "keep";
  }
  // Like ssh: a folder that others can write lets them swap a session file or plant a symlink.
  return owner === me ? { tighten: mode & 0o7755 } : "refuse";
}

/** The folders a profile's session is kept in, outermost first: the config folder, `tokens`, the profile's. */
export const sessionFolders = (dir: string, profile: string): string[] => [
  dir,
  join(dir, "tokens"),
  join(dir, "tokens", profile),
];

/**
 * The config folder, its `tokens` folder and the profile's, where they exist: tightened when they
 * are the user's own and others can write them, refused when they are not the user's.
 */
export async function secureFolders(dir: string, profile: string, platform: NodeJS.Platform): Promise<void> {
  const me = process.getuid?.();
  if (platform === "win32" || me === undefined) {
    return;
  }
  for (const folder of sessionFolders(dir, profile)) {
    const stats = await stat(folder).catch(() => undefined);
    if (!stats?.isDirectory()) {
      continue;
    }
    const verdict = folderVerdict(stats.mode & 0o7777, stats.uid, me);
    if (verdict === "refuse") {
      throw new CliError(
        `${folder} can be written by other users and is not yours: remove it, or set ${ENV.configDir} to a folder of your own`,
        EXIT.failure,
      );
    }
    if (verdict !== "keep") {
      await chmod(folder, verdict.tighten).catch(() => {
        throw new CliError(
          `${folder} can be written by other users and could not be tightened: chmod go-w it`,
          EXIT.failure,
        );
      });
    }
  }
}
