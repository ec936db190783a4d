import type {
  CallOptions,
  EngageVoiceClient,
  EngageVoiceClientOptions,
  Middleware,
} from "@engage-voice/client";
import { callPolicyOf } from "@engage-voice/client/internal";
import { createAuthoriser } from "./authoriser.js";
import { type ExchangeSlots, exchangeSlots } from "./exchange-limiter.js";
import {
  closeTimeoutOf,
  type ManagerConfig,
  readManagerConfig,
  type TokenManagerOptions,
} from "./manager-config.js";
import { callObserverOf } from "./observer.js";
import type { RenewalQueue } from "./renewal.js";
import { renewalPolicy } from "./renewal-policy.js";
import { memoryStore } from "./store.js";
import { tokenCalls } from "./token-calls.js";
import { createTokenCycler } from "./token-cycler.js";
import { type Session, type TokenSet, toSession } from "./tokens.js";
import type { FetchLike } from "./types.js";

export { closeDefaults, type TokenEvent, type TokenManagerOptions } from "./manager-config.js";

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
   * manager. Without options it is the manager's one client, the same object on every call (cheap per
   * request; a middleware `use()`d on it applies to every caller); with options, a new client, to
   * which every other openapi-fetch option passes through.
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

/**
 * A manager and what a pool needs to know of it. A pool gives the slots of the exchange budget its
 * tenants share and its line for renewals (pool-renewals.ts), which a lone manager does without.
 */
export function wireManager(
  config: ManagerConfig,
  shared: { exchange?: ExchangeSlots; queue?: RenewalQueue } = {},
) {
  const { tenant, fetch, clock, logger, sleep, random, timeoutMs, maxRetries, origin } = config;
  // The token calls of a renewal every caller gave up on end at once (see the cycler's waitFor).
  const renewalFetch: FetchLike = (input, init) => {
    const signals = [cycler.renewalSignal(), init?.signal].filter((s) => s instanceof AbortSignal);
    return fetch(input, { ...init, signal: AbortSignal.any(signals) });
  };
  const { onEvent, observer } = config;
  const heard = observer?.event || onEvent;
  const calls = tokenCalls({
    origin,
    fetch: renewalFetch,
    timeoutMs,
    clock,
    logger,
    stored: config.store !== undefined,
    observer,
    tenant,
  });

  const cycler = createTokenCycler({
    store: config.store ?? memoryStore(),
    tenant,
    mainAccountId: config.mainAccountId,
    onEvent:
      heard &&
      ((event) => {
        const told = { ...event, tenant };
        observer?.event?.(told);
        onEvent?.(told);
      }),
    observer,
    logger,
    clock,
    sleep,
    random,
    policy: renewalPolicy(config.refreshWindow),
    retries: config.retries,
    calls,
    slotsOfExchange: exchangeSlots(config.exchangesPerMinute, clock, shared.exchange),
    queue: shared.queue,
    onTokens: config.onTokens,
    parentToken: config.parentToken,
  });
  const authoriser = createAuthoriser({
    origin,
    cycler,
    fetch,
    timeoutMs,
    policy: callPolicyOf({
      timeoutMs,
      maxRetries,
      logger,
      clock,
      sleep,
      random,
      observer: callObserverOf(observer),
    }),
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
