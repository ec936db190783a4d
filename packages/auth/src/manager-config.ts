// createTokenManager's options, read in one pass into a typed configuration before anything is wired:
// every check of an option runs here, and the wiring (manager.ts) reads only the result.
import { callLimits, type Sleep } from "@engage-voice/client";
import { defaultBaseUrls, defaultLogger, sleep } from "@engage-voice/client/internal";
import { VERBOSE } from "./errors.js";
import { exchangeLimitDefaults } from "./exchange-limiter.js";
import type { TokenObserver } from "./observer.js";
import {
  integer,
  invalid,
  optionalFunction,
  optionalObserver,
  optionsOf,
  parentTokenOf,
  refuseUnknown,
  requireBase,
  requireClock,
  requireLogger,
  requireRefreshWindow,
  requireStore,
} from "./options.js";
import { globalFetch } from "./requests.js";
import type { TokenStore } from "./store.js";
import { kindOf, requireTenant } from "./tenant.js";
import type { CyclerEvent } from "./token-cycler.js";
import type { TokenSet } from "./tokens.js";
import type { Clock, FetchLike, Logger } from "./types.js";

export interface TokenManagerOptions {
  /** `{base_url}`; defaults to the client's, `https://engage.ringcentral.com`. */
  baseUrl?: string;
  /**
   * The parent-platform (RingCentral) access token, or a function that returns a current one. It is
   * asked for again for every new exchange, so a function can hand out a refreshed parent token.
   */
  rcAccessToken: string | (() => string | Promise<string>);
  fetch?: FetchLike;
  /**
   * Whose session this is: a customer's id in a service that holds many (letters, digits, `.`, `_`,
   * `-`). Every token set is stamped with it, and a stored set of another tenant is refused with a
   * `TenantMismatchError`, so a store shared by mistake never serves one customer another's session.
   * Required with a `store`, unless the store names its tenant (`redisStore({ tenant })`); without a
   * store the session is this manager's alone, and the tenant is `"default"`.
   */
  tenant?: string;
  /**
   * The main account this tenant's session must be for (`mainAccountId` of its token answers). Every
   * token answer and every set read from the store that names another main account is refused with a
   * `TenantMismatchError`: a tenant id given to two customers' credentials by mistake then fails
   * loudly instead of serving one customer the other's data. Without it, the session is bound to the
   * main account of its own first answer.
   */
  mainAccountId?: string;
  /** Where the token set is kept; a {@link memoryStore} of this manager's own by default. */
  store?: TokenStore;
  /** Called after every new token set (exchange, refresh), after it is stored. */
  onTokens?: (tokens: TokenSet) => void | Promise<void>;
  /** Defaults to `console` for warnings and errors. */
  logger?: Logger;
  /** Defaults to `Date`. */
  clock?: Clock;
  /** Waits between retries; defaults to a timer that ends early when the caller aborts. */
  sleep?: Sleep;
  /** A number in [0, 1) for the retry jitter; defaults to `Math.random`. */
  random?: () => number;
  /**
   * How long before expiry a token is renewed, from its lifetime. Default: a share of the lifetime,
   * capped (`renewalDefaults`); in the last part of that window the token is no longer handed out.
   */
  refreshWindow?: (lifetimeMs: number) => number;
  /** Further token calls after a transient failure when no valid token is left. Default 2. */
  retries?: number;
  /**
   * The deadline of every request the manager makes or authorises: a token call, or an API call
   * through `client()`, `fetch` or the middleware's client (over every try and wait, the headers and
   * the body). Default 30 000 ms. A call's own `timeoutMs` wins.
   */
  timeoutMs?: number;
  /**
   * Further tries of an idempotent API call (GET, HEAD, OPTIONS, DELETE) after a 408, 429, 5xx or no
   * answer, through `client()` and `fetch`. Default 2; 0 turns it off. POST is never tried again.
   */
  maxRetries?: number;
  /** The exchange endpoint's limit a minute. Default: `exchangeLimitDefaults.perMinute` (observed). */
  exchangesPerMinute?: number;
  /** Allows credentials over plain http: to hosts other than loopback. */
  allowInsecureHttp?: boolean;
  /**
   * Told of what each renewal did (`exchanged`, `refreshed`, `failed`, and how long a caller
   * `waited`), without secrets: for a service's counters. A throw is logged and ignored.
   */
  onEvent?: (event: TokenEvent) => void;
  /**
   * Told of every API call, token call and wait for a renewal as it runs, and of each renewal's
   * event, for traces and metrics: `openTelemetry()` of `@engage-voice/auth/opentelemetry`, or an
   * observer of your own. Nothing it is given holds a token, a password or a concrete path.
   */
  observer?: TokenObserver;
}

/** What {@link TokenManagerOptions.onEvent} is told. */
export type TokenEvent = CyclerEvent & { tenant: string };

/** `close()`'s defaults. */
export const closeDefaults = { timeoutMs: 10_000 } as const;

/** A manager's options, checked, with every default filled in. */
export interface ManagerConfig {
  tenant: string;
  mainAccountId: string | undefined;
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
  observer: TokenObserver | undefined;
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
  "mainAccountId",
  "onEvent",
  "observer",
];

export function readManagerConfig(options: TokenManagerOptions): ManagerConfig {
  const given = optionsOf(options, "createTokenManager()", true);
  if (typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined") {
    refuseUnknown(given, managerOptionNames, "createTokenManager()");
  }
  // Every build: the checks that keep a credential where it belongs (the base URL, the transport).
  const base = requireBase(given.baseUrl, defaultBaseUrls.main, given.allowInsecureHttp);
  if (base.origin === defaultBaseUrls.legacy) {
    throw invalid(
      VERBOSE
        ? `baseUrl ${base.origin} is the deprecated login host, which has no token exchange: give the contact-center host (${defaultBaseUrls.main}), or use legacyLogin() and createLegacyClient() for the deprecated host`
        : "baseUrl",
    );
  }
  if (typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined") {
    checkShared(given);
  }
  const shared = {
    origin: base.origin,
    fetch: given.fetch ?? globalFetch,
    logger: given.logger ?? defaultLogger(),
    clock: given.clock ?? Date,
    sleep: given.sleep ?? sleep,
    random: given.random ?? Math.random,
    refreshWindow: given.refreshWindow,
    retries: given.retries ?? managerNumbers.retries[0],
    timeoutMs: given.timeoutMs ?? managerNumbers.timeoutMs[0],
    maxRetries: given.maxRetries ?? managerNumbers.maxRetries[0],
    exchangesPerMinute: given.exchangesPerMinute ?? managerNumbers.exchangesPerMinute[0],
    onTokens: given.onTokens,
    observer: given.observer,
  };
  return forTenant(shared, given);
}

/** The manager's whole-number options: the default, the least and the most. */
const managerNumbers = {
  retries: [2, 0, 10],
  timeoutMs: [30_000, 1, callLimits.timeoutMs],
  maxRetries: [2, 0, callLimits.maxRetries],
  exchangesPerMinute: [exchangeLimitDefaults.perMinute, 1, 1_000],
} as const;

/**
 * The checks of the shared options that only help a developer (types, ranges, the `refreshWindow`
 * probe): the production build leaves them out, with their messages, and reads the options as given.
 */
function checkShared(given: TokenManagerOptions): void {
  optionalFunction("fetch", given.fetch);
  requireLogger(given.logger, {});
  requireClock(given.clock);
  optionalFunction("sleep", given.sleep);
  optionalFunction("random", given.random);
  requireRefreshWindow(given.refreshWindow);
  for (const [name, [fallback, least, most]] of Object.entries(managerNumbers)) {
    integer(name, given[name as keyof typeof managerNumbers], fallback, least, most);
  }
  optionalFunction("onTokens", given.onTokens);
  optionalObserver(given.observer);
}

/** The options that differ per tenant, read on top of the shared ones (a pool reads those once). */
export type TenantOptions = Pick<
  TokenManagerOptions,
  "tenant" | "rcAccessToken" | "store" | "mainAccountId" | "onEvent"
>;

/** A manager's configuration: the shared part, read once, and a tenant's own options, read here. */
export function forTenant(
  shared: Omit<ManagerConfig, "tenant" | "mainAccountId" | "parentToken" | "store" | "onEvent">,
  given: TenantOptions,
): ManagerConfig {
  if (typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined") {
    requireStore(given.store);
    optionalAccount(given.mainAccountId);
    optionalFunction("onEvent", given.onEvent);
  }
  const store = given.store;
  return {
    ...shared,
    tenant: tenantOf(given.tenant, store),
    mainAccountId: given.mainAccountId,
    parentToken: parentTokenOf(given.rcAccessToken),
    store,
    onEvent: given.onEvent,
  };
}

/**
 * An expected main account: a non-empty string of at most 100 characters, or nothing. Checked in
 * development only: any other value binds the session to nothing a token answer names, so every
 * answer is refused loudly (`tenant_mismatch`) in production.
 */
function optionalAccount(value: unknown): void {
  if (value !== undefined && (typeof value !== "string" || value === "" || value.length > 100)) {
    throw invalid(
      VERBOSE
        ? `mainAccountId must be the main account id this tenant's session is for (a string of 1 to 100 characters, such as "99990000"); got ${kindOf(value)}`
        : "mainAccountId",
    );
  }
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
