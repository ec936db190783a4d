import {
  type ClientOptions,
  defaultBaseUrls,
  type EngageVoiceClient,
  type Middleware,
} from "@engage-voice/client";
import { createAuthoriser } from "./authoriser.js";
import { exchangeLimiter } from "./exchange-limiter.js";
import {
  integer,
  optionalFunction,
  optionsOf,
  parentTokenOf,
  rateLimitRetryOf,
  requireBase,
  requireClock,
  requireLogger,
  requireRefreshWindow,
  requireSleep,
  requireStore,
} from "./options.js";
import { renewalPolicy } from "./renewal-policy.js";
import { consoleLogger, globalFetch } from "./requests.js";
import { memoryStore, type TokenStore } from "./store.js";
import { tokenCalls } from "./token-calls.js";
import { createTokenCycler } from "./token-cycler.js";
import { type Session, type TokenSet, toSession } from "./tokens.js";
import type { Clock, FetchLike, Logger } from "./types.js";

/** How `GET` calls answered `429` are tried again; `false` turns it off. */
export interface RateLimitRetry {
  /** Further tries of one call. Default 2. */
  retries?: number;
  /** The longest `Retry-After` worth waiting for; a longer one goes to the caller at once. Default 10 000 ms. */
  maxWaitMs?: number;
}

export interface TokenManagerOptions {
  /** `{base_url}`; defaults to the client's, `https://engage.ringcentral.com`. */
  baseUrl?: string;
  /**
   * The parent-platform (RingCentral) access token, or a function that returns a current one. It is
   * asked for again for every new exchange, so a function can hand out a refreshed parent token.
   */
  rcAccessToken: string | (() => string | Promise<string>);
  fetch?: FetchLike;
  /** Where the token set is kept; {@link memoryStore} by default. */
  store?: TokenStore;
  /** Called after every new token set (exchange, refresh), after it is stored. */
  onTokens?: (tokens: TokenSet) => void | Promise<void>;
  /** Defaults to `console` for warnings and errors. */
  logger?: Logger;
  /** Defaults to `Date`. */
  clock?: Clock;
  /** Waits between retries; defaults to a timer that keeps no process alive. */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1) for the retry jitter; defaults to `Math.random`. */
  random?: () => number;
  /**
   * How long before expiry a token is renewed, from its lifetime. Default: the last 20% of the
   * lifetime, at most 60 s. In the last quarter of that window the token is no longer handed out.
   */
  refreshWindow?: (lifetimeMs: number) => number;
  /** Further attempts after a transient failure when no valid token is left. Default 2. */
  retries?: number;
  /** Per token call, for the headers and the whole body. Default 30 000 ms, at most 600 000. */
  timeoutMs?: number;
  /** The exchange endpoint's limit. Default 5 (observed). */
  exchangesPerMinute?: number;
  /** Allows credentials over plain http: to hosts other than loopback. */
  allowInsecureHttp?: boolean;
  /**
   * API calls made with `GET` (the idempotent ones) that are answered `429` wait for `Retry-After`
   * and go again, through the middleware, `fetch` and `client()`. Other methods never do.
   */
  rateLimitRetry?: RateLimitRetry | false;
}

export interface TokenManager {
  /** A valid access token: exchanges on first use, renews ahead of expiry. */
  getAccessToken(): Promise<string>;
  /** Renews now (joining a renewal already under way) and returns the new token set. */
  refresh(): Promise<TokenSet>;
  /**
   * A client of the manager's host that this manager authorises: the base URL is given once, to the
   * manager. Every other openapi-fetch option passes through.
   */
  client(options?: Omit<ClientOptions, "baseUrl" | "fetch">): EngageVoiceClient;
  /**
   * openapi-fetch middleware for a client of the manager's origin: `client.use(auth.middleware)`. On
   * a client of another origin it fails each request with an {@link OriginMismatchError} before
   * anything is sent.
   */
  readonly middleware: Middleware;
  /**
   * A fetch that authorises requests to the manager's origin; requests to any other origin pass
   * through untouched, since one fetch may serve many hosts.
   */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** The current session's account data, without secrets; `undefined` before the first token. */
  session(): Session | undefined;
  /** Forgets the tokens, in the store too. A renewal under way is discarded. */
  logout(): Promise<void>;
}

/**
 * Creates a token manager for the exchange flow. It renews on demand only (no timers): a token in
 * its refresh window is still handed out while one renewal, shared by every caller, runs. This is
 * the wiring; each rule lives in the module named after it (renewal-policy, exchange-limiter,
 * backoff, token-calls, token-cycler, authoriser).
 */
export function createTokenManager(options: TokenManagerOptions): TokenManager {
  const given = optionsOf(options, "createTokenManager()", true);
  const parentToken = parentTokenOf(given.rcAccessToken);
  const logger = requireLogger(given.logger, consoleLogger);
  const clock = requireClock(given.clock);
  const sleep = requireSleep(given.sleep);
  const refreshWindow = requireRefreshWindow(given.refreshWindow);
  const timeoutMs = integer("timeoutMs", given.timeoutMs, 30_000, 1, 600_000);
  const base = requireBase(given.baseUrl, defaultBaseUrls.main, given.allowInsecureHttp);
  const fetch = optionalFunction("fetch", given.fetch) ?? globalFetch;

  const cycler = createTokenCycler({
    store: requireStore(given.store) ?? memoryStore(),
    logger,
    clock,
    sleep,
    random: optionalFunction("random", given.random) ?? Math.random,
    policy: renewalPolicy(refreshWindow),
    retries: integer("retries", given.retries, 2, 0, 10),
    calls: tokenCalls(base.origin, fetch, timeoutMs, clock),
    limiter: exchangeLimiter(integer("exchangesPerMinute", given.exchangesPerMinute, 5, 1, 1_000), clock),
    onTokens: optionalFunction("onTokens", given.onTokens),
    parentToken,
  });
  const authoriser = createAuthoriser({
    origin: base.origin,
    cycler,
    fetch,
    timeoutMs,
    rateLimitRetry: rateLimitRetryOf(given.rateLimitRetry),
    sleep,
    clock,
    logger,
  });

  return {
    getAccessToken: () => cycler.accessToken(),
    refresh: () => cycler.acquire({ kind: "new" }),
    client: authoriser.client,
    middleware: authoriser.middleware,
    fetch: authoriser.fetch,
    session: () => {
      const tokens = cycler.current();
      return tokens ? toSession(tokens) : undefined;
    },
    logout: () => cycler.logout(),
  };
}
