// Each runtime cell gets a fresh sandbox with its time control on: the scenario moves the sandbox's
// clock past a token's expiry instead of waiting for it, so no verdict depends on the machine's speed.
import { CONTROL_PATH, createSandboxApps, type SandboxSeed, startSandbox } from "@engage-voice/sandbox";
import type { ScenarioConfig } from "./scenario.ts";

/**
 * The sandbox's default, 5 minutes: far longer than any stall between two calls of a cell (which
 * times out after 60 s), so no refresh comes before the scenario moves the clock.
 */
export const TOKEN_LIFETIME_MS = 300_000;

export interface SandboxRun {
  config: ScenarioConfig;
  /** The seeded user the parent token stands for. */
  parentUserId: number;
  /** The access tokens' lifetime the sandbox was given. */
  tokenLifetimeMs: number;
}

/** The scenario's configuration for a sandbox at these URLs with this seed. */
export function sandboxRun(
  seed: SandboxSeed,
  mainUrl: string,
  legacyUrl: string,
  tokenLifetimeMs = TOKEN_LIFETIME_MS,
): SandboxRun {
  const parent = seed.parentTokens.find((p) => p.roles.includes("SUPER_USER"));
  const [login] = seed.legacyLogins;
  if (!parent || !login) {
    throw new Error("the sandbox seeds no super user's parent token or no legacy login");
  }
  return {
    config: {
      mainUrl,
      legacyUrl,
      rcAccessToken: parent.token,
      legacyLogin: { username: login.username, password: login.password, platformId: login.platformId },
      controlUrl: new URL(CONTROL_PATH, mainUrl).href,
    },
    parentUserId: parent.userId,
    tokenLifetimeMs,
  };
}

/** A sandbox on 127.0.0.1 (free ports) for the duration of `task`. */
export async function withSandbox<T>(task: (run: SandboxRun) => Promise<T>): Promise<T> {
  const sandbox = await startSandbox({ tokenLifetimeMs: TOKEN_LIFETIME_MS, control: { enabled: true } });
  try {
    return await task(sandboxRun(sandbox.seed, sandbox.mainUrl, sandbox.legacyUrl));
  } finally {
    await sandbox.stop();
  }
}

/**
 * Hosts that no request can reach over a network: a consumer that serves the sandbox's apps as fetch
 * handlers in its own process answers them, and any request that leaves the process fails.
 */
export const IN_PROCESS_HOSTS = {
  mainUrl: "https://main.sandbox.invalid",
  legacyUrl: "https://legacy.sandbox.invalid",
} as const;

/** The scenario's configuration for a consumer that runs the sandbox's default seed in process. */
export function inProcessRun(): SandboxRun {
  return sandboxRun(createSandboxApps().seed, IN_PROCESS_HOSTS.mainUrl, IN_PROCESS_HOSTS.legacyUrl);
}
