import type {
  CallOptions,
  EngageVoiceClient,
  EngageVoiceClientOptions,
  Middleware,
  Sleep,
} from "@engage-voice/client";
import { callPolicyOf } from "@engage-voice/client/internal";
import { createAuthoriser } from "./authoriser.js";
import { type ExchangeLimit, exchangeLimiter } from "./exchange-limiter.js";
import { closeTimeoutOf, type ManagerConfig, readManagerConfig } from "./manager-config.js";
import { renewalPolicy } from "./renewal-policy.js";
import { memoryStore, type TokenStore } from "./store.js";
import { tokenCalls } from "./token-calls.js";
import { type CyclerEvent, createTokenCycler } from "./token-cycler.js";
import { type Session, type TokenSet, toSession } from "./tokens.js";
import type { Clock, FetchLike, Logger } from "./types.js";

export { closeDefaults } from "./manager-config.js";

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
}

/** What {@link TokenManagerOptions.onEvent} is told. */
export type TokenEvent = CyclerEvent & { tenant: string };

export interface TokenManager {
  /**
   * A valid access token: exchanges on first use, renews ahead of expiry. `signal` ends the wait for a
   * renewal (which ends too once every caller waiting for it has given up).
   */
  getAccessToken(options?: { signal?: AbortSignal }): Promise<string>;
  /** Renews now (joining a renewal already under way) and returns the new token set. */
  refresh(): Promise<TokenSet>;
  /**
   * A client of the manager's host that this manager authorises: the base URL is given once, to the
   * manager. Every other openapi-fetch option passes through.
   */
  client(options?: Omit<EngageVoiceClientOptions, "baseUrl" | "fetch">): EngageVoiceClient;
  /**
   * openapi-fetch middleware for a client of the manager's origin: `client.use(auth.middleware)`. On
   * a client of another origin it fails each request with an {@link OriginMismatchError} before
   * anything is sent.
   */
  readonly middleware: Middleware;
  /**
   * A fetch that authorises requests to the manager's origin, under the manager's deadline and
   * retries (`timeoutMs` and `maxRetries` of `init` win); requests to any other origin pass through
   * untouched, since one fetch may serve many hosts.
   */
  fetch(input: string | URL | Request, init?: RequestInit & CallOptions): Promise<Response>;
  /** The current session's account data, without secrets; `undefined` before the first token. */
  session(): Session | undefined;
  /** Forgets the tokens, in the store too. A renewal under way is discarded. */
  logout(): Promise<void>;
  /**
   * For a shutdown that loses nothing: lets a renewal under way store its outcome and release the
   * store's lock (for at most `timeoutMs`, default `closeDefaults.timeoutMs`), then refuses new work
   * with a `closed` error. Resolves with `true` when nothing was left in flight.
   */
  close(options?: { timeoutMs?: number }): Promise<boolean>;
}

/**
 * Creates a token manager for the exchange flow. It renews on demand only (no timers): a token in
 * its refresh window is still handed out while one renewal, shared by every caller, runs. This is
 * the wiring: the options are read in one pass (manager-config), and each rule lives in the module
 * named after it (renewal-policy, exchange-limiter, backoff, token-calls, token-cycler, authoriser).
 */
export function createTokenManager(options: TokenManagerOptions): TokenManager {
  return wireManager(readManagerConfig(options)).manager;
}

/** A manager and what a pool needs to know of it. */
export function wireManager(config: ManagerConfig, limiter?: ExchangeLimit) {
  const { tenant, fetch, clock, logger, sleep, random, timeoutMs, maxRetries, origin } = config;
  // The token calls of a renewal every caller gave up on end at once (see the cycler's waitFor).
  const renewalFetch: FetchLike = (input, init) => {
    const signals = [cycler.renewalSignal(), init?.signal].filter((s) => s instanceof AbortSignal);
    return fetch(input, { ...init, signal: AbortSignal.any(signals) });
  };
  const onEvent = config.onEvent;

  const cycler = createTokenCycler({
    store: config.store ?? memoryStore(),
    tenant,
    onEvent: onEvent && ((event) => onEvent({ ...event, tenant })),
    logger,
    clock,
    sleep,
    random,
    policy: renewalPolicy(config.refreshWindow),
    retries: config.retries,
    calls: tokenCalls(origin, renewalFetch, timeoutMs, clock, logger),
    limiter: limiter ?? exchangeLimiter(config.exchangesPerMinute, clock),
    onTokens: config.onTokens,
    parentToken: config.parentToken,
  });
  const authoriser = createAuthoriser({
    origin,
    cycler,
    fetch,
    timeoutMs,
    policy: callPolicyOf({ timeoutMs, maxRetries, logger, clock, sleep, random }),
  });

  const manager: TokenManager = {
    getAccessToken: (options) => cycler.accessToken(options?.signal),
    refresh: () => cycler.acquire({ kind: "new" }),
    client: authoriser.client,
    middleware: authoriser.middleware,
    fetch: authoriser.fetch,
    session: () => {
      const tokens = cycler.current();
      return tokens ? toSession(tokens) : undefined;
    },
    logout: () => cycler.logout(),
    close: (options) => cycler.close(closeTimeoutOf(options)),
  };
  return { manager, renewing: cycler.renewing };
}
