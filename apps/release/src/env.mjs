// The environment of a user's shell: the machine's, without what pnpm and its .bin shims add
// (`npm_*` settings, `NODE_PATH`, the workspace's node_modules on PATH), so nothing of the workspace
// reaches npm or the installed packages.
export function plainEnv(extra = {}) {
  const env = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm_|pnpm_|NODE_PATH$|NODE_OPTIONS$|INIT_CWD$|ENGAGE_VOICE_|TURBO_)/i.test(name)) {
      env[name] = value;
    }
  }
  env.PATH = (process.env.PATH ?? "")
    .split(":")
    .filter((entry) => entry !== "" && !entry.includes("node_modules"))
    .join(":");
  return {
    ...env,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    // The registries of the tests are local: one that does not answer is a failure to report at once,
    // not a network to wait out with npm's retry backoff (over a minute).
    npm_config_fetch_retries: "0",
    ...extra,
  };
}
