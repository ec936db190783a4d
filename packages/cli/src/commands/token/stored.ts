// `engage-voice token` without the token manager, when the stored session answers without a doubt.
// Most of the command's start-up was Node loading the manager, the clients and openapi-fetch (15
// modules) to read one file; this reads it with the file store's own checks (`@engage-voice/auth/
// internal`: a regular file, a bounded read, JSON of a token set) and the manager's own refresh
// window, and the profile and hosts as the full path resolves them (config.ts). Any doubt answers
// `undefined`, and the bin runs the full path, which decides, renews, waits or explains: a missing
// or unreadable file, a file another user could read or that is not the user's, a set of another
// tenant, a token in (or past) its refresh window, a renewal's lock file, a folder the full path
// would tighten or refuse, a config file it would warn about, a host option it would refuse, and
// anything the output or the session depends on beyond the stored set (--json, --debug, --timeout,
// a parent token in the environment).
import { stat } from "node:fs/promises";
import {
  isOwnerOnly,
  lockFileOf,
  obtainedBy,
  readTokenFile,
  renewalPolicy,
} from "@engage-voice/auth/internal";
import {
  checkOrigin,
  checkProfile,
  configDir,
  DEFAULT_PROFILE,
  folderVerdict,
  HOST_OPTIONS,
  type Platform,
  type ProfileConfig,
  profileHosts,
  readConfig,
  sessionFolders,
  tokenFile,
} from "../../config.js";
import { ENV } from "../../env.js";
import type { OptionValues } from "../../options.js";

/** What stat says of a path that may be missing: its stats, or undefined for ENOENT; other errors throw. */
const statIfThere = (path: string) =>
  stat(path).catch((error: { code?: unknown }) => {
    if (error.code === "ENOENT") {
      return undefined;
    }
    throw error;
  });

/**
 * The access token `engage-voice token` would print, read from the stored session with nothing else
 * loaded; `undefined` when the full path must decide. Never throws: a failure here is a doubt.
 */
export async function storedToken(io: Platform, values: OptionValues): Promise<string | undefined> {
  try {
    return await read(io, values);
  } catch {
    return undefined;
  }
}

async function read(io: Platform, values: OptionValues): Promise<string | undefined> {
  const { env } = io;
  const me = process.getuid?.();
  if (
    values.json === true ||
    values.debug === true ||
    env[ENV.log] === "debug" ||
    values.timeout !== undefined ||
    env[ENV.timeout] ||
    env[ENV.parentToken] ||
    io.platform === "win32" ||
    me === undefined
  ) {
    return undefined;
  }
  const profile = checkProfile(
    (values.profile as string | undefined) ?? (env[ENV.profile] || undefined) ?? DEFAULT_PROFILE,
  );
  const dir = configDir(io);
  for (const folder of sessionFolders(dir, profile)) {
    const stats = await statIfThere(folder);
    if (stats?.isDirectory() && folderVerdict(stats.mode & 0o7777, stats.uid, me) !== "keep") {
      return undefined;
    }
  }
  const config = await readConfig(dir);
  if (config.ignored) {
    return undefined;
  }
  const saved = profileHosts(config, profile);
  const host = (key: keyof ProfileConfig) =>
    checkOrigin(
      (values[HOST_OPTIONS[key]] as string | undefined) ?? (env[ENV[key]] || undefined) ?? saved[key],
      HOST_OPTIONS[key],
    );
  const path = tokenFile(dir, profile, host("baseUrl"));
  host("legacyBaseUrl");
  // A renewal under way (or one that crashed): the full path waits for it, or takes the lock over.
  if (await statIfThere(lockFileOf(path))) {
    return undefined;
  }
  const file = await readTokenFile(path);
  if (!("tokens" in file) || file.tokens === undefined || !isOwnerOnly(file.mode) || file.owner !== me) {
    return undefined;
  }
  const { tokens } = file;
  if (!obtainedBy(tokens, profile) || !renewalPolicy().isFresh(tokens, Date.now())) {
    return undefined;
  }
  return tokens.accessToken;
}
