// The sandbox as two Hono apps over one in-memory state. Runtime-neutral: serve `main.fetch` and
// `legacy.fetch` from Node (see node.ts), Bun, Deno or a worker.

import type { Hono } from "hono";
import { createControl, type SandboxControl } from "./control.js";
import type { SandboxFaults } from "./faults.js";
import { createLegacyHost } from "./legacy-host.js";
import { createMainHost } from "./main-host.js";
import {
  type ExchangeRateLimitScope,
  type RateLimit,
  resolveOptions,
  type SandboxOptions,
} from "./options.js";
import {
  DEFAULT_LEGACY_LOGINS,
  DEFAULT_PARENT_TOKENS,
  type SeedUser,
  type Tenant,
  tenantEmail,
  tenantId,
  tenantParentToken,
} from "./seed.js";
import { SandboxState } from "./state.js";

export { CONTROL_PATH, type SandboxControl } from "./control.js";
export type { Fault, FaultMatch, SandboxFaults } from "./faults.js";
export { FaultError } from "./faults.js";
export { decodeClaims, type JwtClaims } from "./jwt.js";
export {
  type ExchangeRateLimitScope,
  type RateLimit,
  type SandboxLogger,
  type SandboxOptions,
  SandboxOptionsError,
} from "./options.js";
export { ACCOUNTS, USERS } from "./seed.js";
export type { TenantCounters } from "./state.js";

/** The seeded credentials a caller needs; all of them are fake and safe to print. */
export interface SandboxSeed {
  mainAccountId: string;
  accountIds: string[];
  parentTokens: { token: string; userId: number; userName: string; roles: string[] }[];
  legacyLogins: { username: string; password: string; platformId: string; userId: number }[];
}

/** One tenant's seeded credentials: tenant 0's are the {@link SandboxSeed}. */
export interface TenantSeed extends SandboxSeed {
  index: number;
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
  /**
   * Tenant `index`'s seeded credentials: 0 is the default seed (`seed`), 1 to `settings.tenants`
   * the tenants of the `tenants` option. Throws a RangeError for any other index.
   */
  tenant(index: number): TenantSeed;
}

/** A sandbox serving both hosts on 127.0.0.1 (`startSandbox()`): what it is started with, and its control. */
export interface RunningSandbox extends Omit<SandboxApps, "main" | "legacy"> {
  /** Base URL of the contact-center host, e.g. `http://127.0.0.1:4010`. */
  mainUrl: string;
  /** Base URL of the deprecated login host. */
  legacyUrl: string;
  /** Stops both servers, closing open connections; resolves once both are closed. */
  stop(): Promise<void>;
}

export interface SandboxSettings {
  tokenLifetimeMs: number;
  exchangeRateLimit: RateLimit;
  exchangeRateLimitScope: ExchangeRateLimitScope;
  usersRateLimit: RateLimit;
  /** Tenants seeded beside the default one. */
  tenants: number;
  maxBodyBytes: number;
  faultsEnabled: boolean;
  controlEnabled: boolean;
}

type ParentTokenSeed = SandboxSeed["parentTokens"][number];

/**
 * The credentials of tenant `index` from 1 on: the default seed's in the tenant's own form
 * (`sandbox-rc-token-tenant-<i>-ada`), and the tokens of the `parentTokens` option that name its users.
 */
function tenantSeed(
  state: SandboxState,
  index: number,
  tokenSeed: (token: string, userId: number) => ParentTokenSeed,
): TenantSeed {
  const tenant = state.tenants.tenant(index);
  if (!tenant || index === 0) {
    throw new RangeError(
      `tenant(index) takes a tenant from 0 to ${state.tenants.count} (the tenants option), such as tenant(1)`,
    );
  }
  const inTenant = (userId: number) => Number(tenantId(index, userId));
  const own = Object.entries(state.options.parentTokens).filter(([, userId]) =>
    tenant.users.some((user) => user.userId === userId),
  );
  return {
    index,
    mainAccountId: tenant.mainAccount.mainAccountId,
    accountIds: tenant.accounts.map((account) => account.accountId),
    parentTokens: [
      ...Object.entries(DEFAULT_PARENT_TOKENS).map(([token, userId]) =>
        tokenSeed(tenantParentToken(index, token), inTenant(userId)),
      ),
      ...own.map(([token, userId]) => tokenSeed(token, userId)),
    ],
    legacyLogins: DEFAULT_LEGACY_LOGINS.map((login) => ({
      ...login,
      username: tenantEmail(index, login.username),
      userId: inTenant(login.userId),
    })),
  };
}

export function createSandboxApps(options: SandboxOptions = {}): SandboxApps {
  const resolved = resolveOptions(options);
  const state = new SandboxState(resolved);
  const tokenSeed = (token: string, userId: number): ParentTokenSeed => {
    const user = state.tenants.user(userId) as SeedUser;
    return { token, userId, userName: user.userName, roles: [...user.roles] };
  };
  const first = state.tenants.tenant(0) as Tenant;
  const seed: SandboxSeed = {
    mainAccountId: first.mainAccount.mainAccountId,
    accountIds: first.accounts.map((account) => account.accountId),
    parentTokens: Object.entries(resolved.parentTokens).map(([token, userId]) => tokenSeed(token, userId)),
    legacyLogins: resolved.legacyLogins.map((login) => ({ ...login })),
  };
  const {
    tokenLifetimeMs,
    exchangeRateLimit,
    exchangeRateLimitScope,
    usersRateLimit,
    tenants,
    maxBodyBytes,
    faultsEnabled,
    controlEnabled,
  } = resolved;
  return {
    main: createMainHost(state),
    legacy: createLegacyHost(state),
    seed,
    faults: state.faults,
    control: createControl(state),
    settings: {
      tokenLifetimeMs,
      exchangeRateLimit,
      exchangeRateLimitScope,
      usersRateLimit,
      tenants,
      maxBodyBytes,
      faultsEnabled,
      controlEnabled,
    },
    tenant: (index) => (index === 0 ? { index, ...seed } : tenantSeed(state, index, tokenSeed)),
  };
}
