// Each runtime cell gets a fresh sandbox on 127.0.0.1 with short-lived access tokens, so the
// scenario can wait through a real expiry within a few seconds.
import { startSandbox } from "@engage-voice/sandbox";
import type { ScenarioConfig } from "./scenario.ts";

/** Long enough for the first calls to fit in it on a busy machine, short enough to wait through. */
export const TOKEN_LIFETIME_MS = 4_000;

export interface SandboxRun {
  config: ScenarioConfig;
  /** The seeded user the parent token stands for. */
  parentUserId: number;
}

export async function withSandbox<T>(task: (run: SandboxRun) => Promise<T>): Promise<T> {
  const sandbox = await startSandbox({ tokenLifetimeMs: TOKEN_LIFETIME_MS });
  try {
    const parent = sandbox.seed.parentTokens.find((p) => p.roles.includes("SUPER_USER"));
    const [login] = sandbox.seed.legacyLogins;
    if (!parent || !login) {
      throw new Error("the sandbox seeds no super user's parent token or no legacy login");
    }
    const config: ScenarioConfig = {
      mainUrl: sandbox.mainUrl,
      legacyUrl: sandbox.legacyUrl,
      rcAccessToken: parent.token,
      legacyLogin: { username: login.username, password: login.password, platformId: login.platformId },
    };
    return await task({ config, parentUserId: parent.userId });
  } finally {
    await sandbox.stop();
  }
}
