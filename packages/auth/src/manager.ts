import {
  type ClientOptions,
  createClient,
  defaultBaseUrls,
  type EngageVoiceClient,
  type Middleware,
} from "@engage-voice/client";
import {
  EngageVoiceAuthError,
  ExchangeRejectedError,
  isTransient,
  OriginMismatchError,
  RateLimitedError,
  ReauthRequiredError,
  RefreshRejectedError,
  safeCause,
} from "./errors.js";
import { limitedFetch, readPrefix } from "./limited-fetch.js";
import {
  integer,
  invalid,
  optionalFunction,
  optionsOf,
  requireBase,
  requireLogger,
  requireStore,
  requireToken,
} from "./options.js";
import { consoleLogger, globalFetch, requestInit, retryAfterMs, tokenRequest } from "./requests.js";
import { memoryStore, type TokenStore } from "./store.js";
import { fromStored, type Session, type TokenSet, toSession, withoutRefreshToken } from "./tokens.js";
import { onOrigin, setBearer } from "./transport.js";
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

const MINUTE = 60_000;
const defaultWindow = (lifetime: number) => Math.min(lifetime * 0.2, MINUTE);

function timerSleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms) as { unref?: () => void };
    timer.unref?.();
  });
}

/**
 * Creates a token manager for the exchange flow. It renews on demand only (no timers): a token in
 * its refresh window is still handed out while one renewal, shared by every caller, runs.
 */
export function createTokenManager(options: TokenManagerOptions): TokenManager {
  const given = optionsOf(options, "createTokenManager()", true);
  const { rcAccessToken } = given;
  if (typeof rcAccessToken !== "function") requireParentToken(rcAccessToken);
  const store = requireStore(given.store) ?? memoryStore();
  const onTokens = optionalFunction("onTokens", given.onTokens);
  const logger = requireLogger(given.logger, consoleLogger);
  const clock = given.clock ?? Date;
  if (typeof clock?.now !== "function") throw invalid("clock must be an object with now() (Date fits)");
  const sleep = optionalFunction("sleep", given.sleep) ?? timerSleep;
  const random = optionalFunction("random", given.random) ?? Math.random;
  const refreshWindow = optionalFunction("refreshWindow", given.refreshWindow) ?? defaultWindow;
  for (const lifetime of [2_000, 300_000]) {
    const window = refreshWindow(lifetime);
    if (typeof window !== "number" || !Number.isFinite(window) || window < 0) {
      throw invalid("refreshWindow must return a finite number of ms of at least 0 for every lifetime");
    }
  }
  const retries = integer("retries", given.retries, 2, 0, 10);
  const timeoutMs = integer("timeoutMs", given.timeoutMs, 30_000, 1, 600_000);
  const exchangesPerMinute = integer("exchangesPerMinute", given.exchangesPerMinute, 5, 1, 1_000);
  const retry429 =
    given.rateLimitRetry === false
      ? { retries: 0, maxWaitMs: 0 }
      : (() => {
          const policy = optionsOf(given.rateLimitRetry, "rateLimitRetry");
          return {
            retries: integer("rateLimitRetry.retries", policy.retries, 2, 0, 10),
            maxWaitMs: integer("rateLimitRetry.maxWaitMs", policy.maxWaitMs, 10_000, 0, 600_000),
          };
        })();
  const base = requireBase(given.baseUrl, defaultBaseUrls.main, given.allowInsecureHttp);
  const baseFetch = optionalFunction("fetch", given.fetch) ?? globalFetch;
  const client = createClient({ baseUrl: base.origin, fetch: limitedFetch(baseFetch, { timeoutMs }) });

  let tokens: TokenSet | undefined;
  let renewal: Promise<TokenSet> | undefined;
  // Bumped by logout(): a renewal that started before it must not store or hand out its result.
  let generation = 0;
  let failures = 0;
  let nextAttemptAt = 0;
  let exchangeBlockedUntil = 0;
  let warnedShortLived = false;
  const exchangeTimes: number[] = [];
  // Store writes run one after another, so a logout's clear always lands after an earlier set.
  let writes: Promise<unknown> = Promise.resolve();
  const write = (task: () => Promise<void>) => {
    const next = writes.then(task);
    writes = next.catch(() => {});
    return next;
  };

  const window = (t: TokenSet) => {
    const lifetime = Math.max(0, t.expiresAt - t.obtainedAt);
    const wanted = refreshWindow(lifetime);
    // A window that is not a number would renew on every call: the default stands in for it.
    const safe = Number.isFinite(wanted) && wanted >= 0 ? wanted : defaultWindow(lifetime);
    return Math.min(safe, lifetime / 2);
  };
  /** Not yet in the refresh window. */
  const fresh = (t: TokenSet, now: number) => now < t.expiresAt - window(t);
  /** Still far enough from expiry to be sent. */
  const servable = (t: TokenSet, now: number) => now < t.expiresAt - window(t) / 4;

  const loggedOut = () =>
    new EngageVoiceAuthError(
      "logged_out",
      "logout() was called during the renewal: its tokens were discarded",
    );

  async function parentToken(): Promise<string> {
    let value: unknown;
    try {
      value = typeof rcAccessToken === "function" ? await rcAccessToken() : rcAccessToken;
    } catch (cause) {
      throw new EngageVoiceAuthError("parent_token_failed", "rcAccessToken() failed", { cause });
    }
    return requireParentToken(value);
  }

  async function exchange(): Promise<TokenSet> {
    const now = clock.now();
    while (exchangeTimes.length > 0 && (exchangeTimes[0] as number) <= now - MINUTE) exchangeTimes.shift();
    const full = exchangeTimes.length >= exchangesPerMinute ? (exchangeTimes[0] as number) + MINUTE - now : 0;
    const wait = Math.max(exchangeBlockedUntil - now, full);
    if (wait > 0)
      throw new RateLimitedError(wait, `The token exchange is rate limited (${exchangesPerMinute} a minute)`);
    const rcToken = await parentToken();
    exchangeTimes.push(clock.now());
    try {
      return await tokenRequest(
        "The token exchange",
        () =>
          client.POST("/api/auth/login/rc/accesstoken", {
            params: { query: { includeRefresh: true } },
            body: { rcAccessToken: rcToken, rcTokenType: "Bearer" },
            ...requestInit,
          }),
        clock,
        { type: ExchangeRejectedError, code: "exchange_rejected" },
        [rcToken],
        undefined,
        (tokens?.sequence ?? 0) + 1,
      );
    } catch (error) {
      if (error instanceof RateLimitedError) exchangeBlockedUntil = clock.now() + error.retryAfterMs;
      throw error;
    }
  }

  function refreshWith(current: TokenSet & { refreshToken: string }): Promise<TokenSet> {
    return tokenRequest(
      "The token refresh",
      () =>
        client.POST("/api/auth/token/refresh", {
          body: { refresh_token: current.refreshToken, rcTokenType: "Bearer" },
          ...requestInit,
        }),
      clock,
      { type: RefreshRejectedError, code: "refresh_rejected" },
      [current.refreshToken, current.accessToken],
      current,
    );
  }

  async function commit(gen: number, next: TokenSet): Promise<TokenSet> {
    await write(async () => {
      if (gen !== generation) return;
      try {
        await store.set(next);
      } catch (error) {
        // The new refresh token may be the only valid one: keep it in memory whatever the store says.
        logger.error?.(`The token store could not save the new tokens (${describe(error)}): kept in memory`);
      }
    });
    if (gen !== generation) throw loggedOut();
    if (next.expiresAt - next.obtainedAt < 1_000 && !warnedShortLived) {
      warnedShortLived = true;
      logger.warn?.(
        "Access tokens live less than 1 s once the clock's resolution and the round trip are taken off: they cannot be renewed ahead of expiry, so each call renews",
      );
    }
    tokens = next;
    failures = 0;
    nextAttemptAt = 0;
    try {
      await onTokens?.(next);
    } catch (error) {
      logger.error?.(`onTokens failed: ${describe(error)}`);
    }
    return next;
  }

  async function obtain(gen: number): Promise<TokenSet> {
    const current = tokens;
    if (current?.refreshToken) {
      try {
        return await commit(gen, await refreshWith(current as TokenSet & { refreshToken: string }));
      } catch (error) {
        if (!(error instanceof RefreshRejectedError)) throw error;
        // Spent or unknown: it must never be sent again. One exchange decides.
        if (tokens === current) tokens = withoutRefreshToken(current);
        logger.warn?.(`${error.message}; exchanging the parent token again`);
        try {
          return await commit(gen, await exchange());
        } catch (cause) {
          if (gen !== generation) throw cause;
          throw new ReauthRequiredError(error, cause);
        }
      }
    }
    return commit(gen, await exchange());
  }

  /**
   * One renewal: `avoid` is an access token the server called expired (a newer one is enough),
   * `null` forces a call, `undefined` accepts any token outside its refresh window.
   */
  async function renew(gen: number, avoid: string | null | undefined): Promise<TokenSet> {
    let stored: TokenSet | undefined;
    try {
      stored = fromStored(await store.get());
    } catch (error) {
      logger.error?.(`The token store could not be read: ${describe(error)}`);
    }
    if (gen !== generation) throw loggedOut();
    // Another manager on a shared store may have renewed already. Which set is newer is decided by
    // `sequence`, not by expiry times: those are on each process's own clock, which may be off.
    if (stored && stored.accessToken !== tokens?.accessToken && stored.sequence >= (tokens?.sequence ?? 0)) {
      tokens = stored;
    }
    const now = clock.now();
    if (tokens && avoid !== null && tokens.accessToken !== avoid) {
      if (avoid === undefined ? fresh(tokens, now) : servable(tokens, now)) return tokens;
    }
    for (let attempt = 0; ; attempt++) {
      // A logout during a wait between attempts ends the renewal before another token call.
      if (gen !== generation) throw loggedOut();
      try {
        return await obtain(gen);
      } catch (error) {
        if (gen !== generation) throw error;
        const current = tokens;
        const keep = current && current.accessToken !== avoid && servable(current, clock.now());
        // Backoff with jitter: across renewals while a token is kept, per attempt for a waiting caller.
        const cap = Math.min(1000 * 2 ** (keep ? failures++ : attempt), 30_000);
        const delay = Math.max(cap / 2 + (random() * cap) / 2, (error as RateLimitedError).retryAfterMs || 0);
        if (keep) {
          nextAttemptAt = clock.now() + delay;
          logger.warn?.(
            `${describe(error)}: the current token stays in use; next try in ${Math.round(delay)} ms`,
          );
          throw error;
        }
        if (!isTransient(error) || attempt >= retries) throw error;
        logger.warn?.(`${describe(error)}: trying again in ${Math.round(delay)} ms`);
        await sleep(delay);
      }
    }
  }

  function acquire(avoid?: string | null): Promise<TokenSet> {
    if (renewal) return renewal;
    const gen = generation;
    const run = () => renew(gen, avoid);
    const started: Promise<TokenSet> = (store.lock ? store.lock(run) : run()).finally(() => {
      if (renewal === started) renewal = undefined;
    });
    renewal = started;
    return started;
  }

  /** The current token when it may still be sent (starting a renewal in its window), without waiting. */
  function servableToken(): string | undefined {
    const current = tokens;
    const now = clock.now();
    if (!current || !servable(current, now)) return undefined;
    if (!fresh(current, now) && !renewal && now >= nextAttemptAt) {
      // Failures are logged where they happen; callers keep the current token meanwhile.
      acquire().catch(() => {});
    }
    return current.accessToken;
  }

  async function getAccessToken(): Promise<string> {
    return servableToken() ?? (await acquire()).accessToken;
  }

  /** The token to send again after the server called `sent` expired: a newer one, shared. */
  async function renewedAfter(sent: string): Promise<string> {
    const current = tokens;
    if (current && current.accessToken !== sent && servable(current, clock.now())) return current.accessToken;
    return (await acquire(sent)).accessToken;
  }

  const origin = base.origin;
  const bearer = (request: Request, token: string) => setBearer(request, `Bearer ${token}`);
  // A request without a body can be sent again as it is; one with a body is copied before it is read.
  const authorized = new WeakMap<Request, { token: string; replay: Request | undefined }>();

  /**
   * What follows an answer to an authorised request, for the middleware and `fetch` alike: a `401
   * Jwt is expired` is sent once more with a newer token, and a `GET` answered `429` waits for
   * `Retry-After` and goes again. `undefined` keeps the answer as it is.
   */
  async function followUp(
    sent: { token: string; replay: Request | undefined },
    response: Response,
    send: FetchLike,
  ): Promise<Response | undefined> {
    let answer = response;
    let token = sent.token;
    if (answer.status === 401 && /jwt is expired/i.test(await readPrefix(answer, 256, timeoutMs))) {
      token = await renewedAfter(token);
      if (!sent.replay) {
        await answer.body?.cancel();
        throw new EngageVoiceAuthError(
          "request_not_replayable",
          "The access token expired and was renewed, but a stream body cannot be sent twice: send the request again",
          { status: 401 },
        );
      }
      answer = await send(bearer(sent.replay, token));
    }
    for (
      let attempt = 0;
      answer.status === 429 && sent.replay?.method === "GET" && attempt < retry429.retries;
      attempt++
    ) {
      const wait = retryAfterMs(answer, clock.now());
      if (wait > retry429.maxWaitMs) break;
      await answer.body?.cancel();
      logger.warn?.(`A GET was rate limited: trying again in ${wait} ms`);
      await sleep(wait);
      answer = await send(bearer(sent.replay, servableToken() ?? (await getAccessToken())));
    }
    return answer === response ? undefined : answer;
  }

  /** Credentialed requests never follow a redirect, whatever fetch does with headers on one. */
  const manual = (request: Request) =>
    request.redirect === "manual" ? request : new Request(request, { redirect: "manual" });

  const middleware: Middleware = {
    async onRequest({ request }) {
      if (!onOrigin(request.url, origin)) throw mismatch(request.url);
      // The per-call path: no await while the cached token is good.
      const token = servableToken() ?? (await getAccessToken());
      const sent = bearer(manual(request), token);
      authorized.set(sent, { token, replay: sent.body === null ? sent : sent.clone() });
      return sent;
    },
    async onResponse({ request, response, options: clientOptions }) {
      const entry = authorized.get(request);
      authorized.delete(request);
      // Called unbound: a browser's fetch refuses to run as a method of another object.
      const clientFetch = clientOptions.fetch;
      return entry ? followUp(entry, response, (r) => clientFetch(r)) : undefined;
    },
  };

  function mismatch(url: string): OriginMismatchError {
    const other = new URL(url).origin;
    return new OriginMismatchError(
      "origin_mismatch",
      `This client sends requests to ${other}, but the token manager authorises ${origin} only: use auth.client(), or give both the same base URL (createTokenManager({ baseUrl: "${other}" }))`,
    );
  }

  async function authFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    // A Request given alone is authorised as it is (as openapi-fetch hands it over with `fetch:
    // auth.fetch`): copying it on every call would cost more than the call itself.
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    if (!onOrigin(request.url, origin)) return baseFetch(request);
    const token = servableToken() ?? (await getAccessToken());
    const sent = bearer(manual(request), token);
    // A stream is read once; buffering one to replay it could hold an upload of any size in memory.
    const replay =
      sent.body === null ? sent : init?.body instanceof ReadableStream ? undefined : sent.clone();
    const response = await baseFetch(sent);
    return (await followUp({ token, replay }, response, baseFetch)) ?? response;
  }

  return {
    getAccessToken,
    refresh: () => acquire(null),
    client: (clientOptions) =>
      createClient({ redirect: "manual", ...clientOptions, baseUrl: origin, fetch: authFetch }),
    middleware,
    fetch: authFetch,
    session: () => (tokens ? toSession(tokens) : undefined),
    async logout() {
      generation++;
      tokens = undefined;
      renewal = undefined;
      failures = 0;
      nextAttemptAt = 0;
      await write(async () => {
        try {
          await store.clear();
        } catch (error) {
          // A custom store's message may quote what it held.
          throw new EngageVoiceAuthError("store_failed", "The token store could not be cleared", {
            cause: error,
          });
        }
      });
    },
  };
}

function requireParentToken(value: unknown): string {
  if (typeof value !== "string" && typeof value !== "function") {
    throw invalid("rcAccessToken must be a non-empty string or a function that returns one");
  }
  return requireToken(value, "rcAccessToken");
}

/** A log-safe description: this package's messages hold no secret; foreign ones are not quoted. */
function describe(error: unknown): string {
  return error instanceof EngageVoiceAuthError ? error.message : String(safeCause(error));
}
