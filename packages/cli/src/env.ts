/** The environment variables the CLI reads, each the fallback of an option or a secret's way in. */
export const ENV = {
  parentToken: "ENGAGE_VOICE_RC_TOKEN",
  /** A permanent API token, for `api` on the deprecated host (X-Auth-Token). */
  apiToken: "ENGAGE_VOICE_API_TOKEN",
  profile: "ENGAGE_VOICE_PROFILE",
  baseUrl: "ENGAGE_VOICE_BASE_URL",
  legacyBaseUrl: "ENGAGE_VOICE_LEGACY_BASE_URL",
  configDir: "ENGAGE_VOICE_CONFIG_DIR",
  log: "ENGAGE_VOICE_LOG",
  timeout: "ENGAGE_VOICE_TIMEOUT",
} as const;
