// createTokenManager's options, read in one pass into a typed configuration before anything is wired:
// every check of an option runs here, and the wiring (manager.ts) reads only the result.
import { callLimits, type Sleep } from "@engage-voice/client";
import { defaultBaseUrls, defaultLogger } from "@engage-voice/client/internal";
import { VERBOSE } from "./errors.js";
import { exchangeLimitDefaults } from "./exchange-limiter.js";
import type { TokenEvent, TokenManagerOptions } from "./manager.js";
import {
  integer,
  invalid,
  optionalFunction,
  optionsOf,
  parentTokenOf,
  refuseUnknown,
  requireBase,
  requireClock,
  requireLogger,
  requireRefreshWindow,
  requireSleep,
  requireStore,
} from "./options.js";
import { globalFetch } from "./requests.js";
import type { TokenStore } from "./store.js";
import { requireTenant } from "./tenant.js";
import type { TokenSet } from "./tokens.js";
import type { Clock, FetchLike, Logger } from "./types.js";

/** `close()`'s defaults. */
export const closeDefaults = { timeoutMs: 10_000 } as const;

/** A manager's options, checked, with every default filled in. */
export interface ManagerConfig {
  tenant: string;
  origin: string;
  parentToken: () => Promise<string>;
  fetch: FetchLike;
  store: TokenStore | undefined;
  logger: Logger;
  clock: Clock;
  sleep: Sleep;
  random: () => number;
  refreshWindow: ((lifetimeMs: number) => number) | undefined;
  retries: number;
  timeoutMs: number;
  maxRetries: number;
  exchangesPerMinute: number;
  onTokens: ((tokens: TokenSet) => void | Promise<void>) | undefined;
  onEvent: ((event: TokenEvent) => void) | undefined;
}

/** Every option of `createTokenManager`, so that a misspelt one is refused with the nearest. */
const managerOptionNames: (keyof TokenManagerOptions)[] = [
  "baseUrl",
  "rcAccessToken",
  "fetch",
  "store",
  "onTokens",
  "logger",
  "clock",
  "sleep",
  "random",
  "refreshWindow",
  "retries",
  "timeoutMs",
  "maxRetries",
  "exchangesPerMinute",
  "allowInsecureHttp",
  "tenant",
  "onEvent",
];

export function readManagerConfig(options: TokenManagerOptions): ManagerConfig {
  const given = optionsOf(options, "createTokenManager()", true);
  if (typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined") {
    refuseUnknown(given, managerOptionNames, "createTokenManager()");
  }
  const base = requireBase(given.baseUrl, defaultBaseUrls.main, given.allowInsecureHttp);
  if (base.origin === defaultBaseUrls.legacy) {
    throw invalid(
      VERBOSE
        ? `baseUrl ${base.origin} is the deprecated login host, which has no token exchange: give the contact-center host (${defaultBaseUrls.main}), or use legacyLogin() and createLegacyClient() for the deprecated host`
        : "baseUrl",
    );
  }
  const store = requireStore(given.store);
  return {
    tenant: tenantOf(given.tenant, store),
    origin: base.origin,
    parentToken: parentTokenOf(given.rcAccessToken),
    fetch: optionalFunction("fetch", given.fetch) ?? globalFetch,
    store,
    logger: requireLogger(given.logger, defaultLogger()),
    clock: requireClock(given.clock),
    sleep: requireSleep(given.sleep),
    random: optionalFunction("random", given.random) ?? Math.random,
    refreshWindow: requireRefreshWindow(given.refreshWindow),
    retries: integer("retries", given.retries, 2, 0, 10),
    timeoutMs: integer("timeoutMs", given.timeoutMs, 30_000, 1, callLimits.timeoutMs),
    maxRetries: integer("maxRetries", given.maxRetries, 2, 0, callLimits.maxRetries),
    exchangesPerMinute: integer(
      "exchangesPerMinute",
      given.exchangesPerMinute,
      exchangeLimitDefaults.perMinute,
      1,
      1_000,
    ),
    onTokens: optionalFunction("onTokens", given.onTokens),
    onEvent: optionalFunction("onEvent", given.onEvent),
  };
}

/** `close()`'s deadline. */
export function closeTimeoutOf(options: { timeoutMs?: number } | undefined): number {
  const given = optionsOf(options, "close()");
  return integer("timeoutMs", given.timeoutMs, closeDefaults.timeoutMs, 0, callLimits.timeoutMs);
}

/**
 * The manager's tenant: given, or named by its store. A store without one holds a session that
 * another manager could share, so it needs the tenant to stamp and check.
 */
function tenantOf(given: unknown, store: TokenStore | undefined): string {
  const named = store?.tenant;
  if (given === undefined && named === undefined) {
    if (store) {
      throw invalid(
        VERBOSE
          ? "a store needs the tenant whose session it holds: give tenant (a customer id), or a store that names one (redisStore({ tenant }))"
          : "tenant",
      );
    }
    return "default";
  }
  const tenant = requireTenant(given ?? named);
  if (named !== undefined && named !== tenant) {
    throw invalid(
      VERBOSE
        ? `tenant "${tenant}" was given a store of tenant "${requireTenant(named)}": give each tenant its own store`
        : "tenant",
    );
  }
  return tenant;
}
