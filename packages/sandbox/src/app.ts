// The sandbox as two Hono apps over one in-memory state. Runtime-neutral: serve `main.fetch` and
// `legacy.fetch` from Node (see node.ts), Bun, Deno or a worker.

import type { Hono } from "hono";
import { createControl, type SandboxControl } from "./control.js";
import type { SandboxFaults } from "./faults.js";
import { createLegacyHost } from "./legacy-host.js";
import { createMainHost } from "./main-host.js";
import { type RateLimit, resolveOptions, type SandboxOptions } from "./options.js";
import { ACCOUNTS, findUser, MAIN_ACCOUNT, type SeedUser } from "./seed.js";
import { SandboxState } from "./state.js";

export { CONTROL_PATH, type SandboxControl } from "./control.js";
export type { Fault, FaultMatch, SandboxFaults } from "./faults.js";
export { FaultError } from "./faults.js";
export { decodeClaims, type JwtClaims } from "./jwt.js";
export { type RateLimit, type SandboxLogger, type SandboxOptions, SandboxOptionsError } from "./options.js";
export { FAULTS_PATH, LEGACY_PATHS, MAIN_PATHS } from "./paths.js";
export { ACCOUNTS, USERS } from "./seed.js";

/** The seeded credentials a caller needs; all of them are fake and safe to print. */
export interface SandboxSeed {
  mainAccountId: string;
  accountIds: string[];
  parentTokens: { token: string; userId: number; userName: string; roles: string[] }[];
  legacyLogins: { username: string; password: string; platformId: string; userId: number }[];
}

export interface SandboxApps {
  /** The contact-center host: exchange, refresh, accounts, users. */
  main: Hono;
  /** The deprecated login host: direct login and permanent API tokens. */
  legacy: Hono;
  seed: SandboxSeed;
  faults: SandboxFaults;
  /** Time and state control: works in process whether or not `control.enabled` opens its HTTP path. */
  control: SandboxControl;
  /** The limits in force, defaults filled in. */
  settings: SandboxSettings;
}

export interface SandboxSettings {
  tokenLifetimeMs: number;
  exchangeRateLimit: RateLimit;
  usersRateLimit: RateLimit;
  maxBodyBytes: number;
  faultsEnabled: boolean;
  controlEnabled: boolean;
}

export function createSandboxApps(options: SandboxOptions = {}): SandboxApps {
  const resolved = resolveOptions(options);
  const state = new SandboxState(resolved);
  const seed: SandboxSeed = {
    mainAccountId: MAIN_ACCOUNT.mainAccountId,
    accountIds: ACCOUNTS.map((account) => account.accountId),
    parentTokens: Object.entries(resolved.parentTokens).map(([token, userId]) => {
      const user = findUser(userId) as SeedUser;
      return { token, userId, userName: user.userName, roles: [...user.roles] };
    }),
    legacyLogins: resolved.legacyLogins.map((login) => ({ ...login })),
  };
  const { tokenLifetimeMs, exchangeRateLimit, usersRateLimit, maxBodyBytes, faultsEnabled, controlEnabled } =
    resolved;
  return {
    main: createMainHost(state),
    legacy: createLegacyHost(state),
    seed,
    faults: state.faults,
    control: createControl(state),
    settings: {
      tokenLifetimeMs,
      exchangeRateLimit,
      usersRateLimit,
      maxBodyBytes,
      faultsEnabled,
      controlEnabled,
    },
  };
}
