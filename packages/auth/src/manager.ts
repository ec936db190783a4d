import { createClient, defaultBaseUrls, type Middleware } from "@engage-voice/client";
import {
  EngageVoiceAuthError,
  ExchangeRejectedError,
  isTransient,
  RateLimitedError,
  ReauthRequiredError,
  RefreshRejectedError,
  safeCause,
} from "./errors.js";
import { consoleLogger, globalFetch, requestInit, tokenRequest } from "./requests.js";
import { memoryStore, type TokenStore } from "./store.js";
import { fromStored, type Session, type TokenSet, toSession, withoutRefreshToken } from "./tokens.js";
import { invalid, onOrigin, resolveBase, setBearer } from "./transport.js";
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
  /** Per token call. Default 30 000 ms. */
  timeoutMs?: number;
  /** The exchange endpoint's limit. Default 5 (observed). */
  exchangesPerMinute?: number;
  /** Allows credentials over plain http: to hosts other than loopback. */
  allowInsecureHttp?: boolean;
}

export interface TokenManager {
  /** A valid access token: exchanges on first use, renews ahead of expiry. */
  getAccessToken(): Promise<string>;
  /** Renews now (joining a renewal already under way) and returns the new token set. */
  refresh(): Promise<TokenSet>;
  /** openapi-fetch middleware for a client of the same host: `client.use(auth.middleware)`. */
  readonly middleware: Middleware;
  /** A fetch that authorises requests to the same origin as `baseUrl`. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** The current session's account data, without secrets; `undefined` before the first token. */
  session(): Session | undefined;
  /** Forgets the tokens, in the store too. A renewal under way is discarded. */
  logout(): Promise<void>;
}

const MINUTE = 60_000;
/** Whether the server called the token expired: a 401 whose text says so. */
const saidExpired = async (response: Response) =>
  response.status === 401 && /jwt is expired/i.test(await response.clone().text());

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
  const {
    rcAccessToken,
    store = memoryStore(),
    onTokens,
    logger = consoleLogger,
    clock = Date,
    sleep = timerSleep,
    random = Math.random,
    refreshWindow = (lifetime) => Math.min(lifetime * 0.2, MINUTE),
    retries = 2,
    timeoutMs = 30_000,
    exchangesPerMinute = 5,
  } = options;
  if (typeof rcAccessToken !== "function") requireToken(rcAccessToken);
  for (const [name, value, least] of [
    ["retries", retries, 0],
    ["timeoutMs", timeoutMs, 1],
    ["exchangesPerMinute", exchangesPerMinute, 1],
  ] as const) {
    if (!Number.isInteger(value) || value < least)
      throw invalid(`${name} must be an integer of at least ${least}`);
  }
  const base = resolveBase(options.baseUrl, defaultBaseUrls.main, options.allowInsecureHttp);
  const baseFetch = options.fetch ?? globalFetch;
  const client = createClient({ baseUrl: base.href, fetch: baseFetch });

  let tokens: TokenSet | undefined;
  let renewal: Promise<TokenSet> | undefined;
  // Bumped by logout(): a renewal that started before it must not store or hand out its result.
  let generation = 0;
  let failures = 0;
  let nextAttemptAt = 0;
  let exchangeBlockedUntil = 0;
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
    return Math.min(Math.max(0, refreshWindow(lifetime)), lifetime / 2);
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
    return requireToken(value);
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
            ...requestInit(timeoutMs),
          }),
        clock,
        { type: ExchangeRejectedError, code: "exchange_rejected" },
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
          ...requestInit(timeoutMs),
        }),
      clock,
      { type: RefreshRejectedError, code: "refresh_rejected" },
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
    // Another manager on a shared store may have renewed already: its set is the newest.
    if (
      stored &&
      stored.accessToken !== tokens?.accessToken &&
      stored.expiresAt >= (tokens?.expiresAt ?? 0)
    ) {
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
  const authorized = new WeakMap<Request, { token: string; replay: Request }>();

  const middleware: Middleware = {
    async onRequest({ request }) {
      if (!onOrigin(request.url, origin)) return undefined;
      // The per-call path: no await while the cached token is good.
      const token = servableToken() ?? (await getAccessToken());
      const sent = bearer(request, token);
      authorized.set(sent, { token, replay: sent.body === null ? sent : sent.clone() });
      return sent;
    },
    async onResponse({ request, response, options: clientOptions }) {
      const entry = authorized.get(request);
      authorized.delete(request);
      if (!entry || !(await saidExpired(response))) return undefined;
      const replay = bearer(entry.replay, await renewedAfter(entry.token));
      // Called unbound: a browser's fetch refuses to run as a method of another object.
      const clientFetch = clientOptions.fetch;
      return clientFetch(replay);
    },
  };

  async function authFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    // A Request given alone is authorised as it is (as openapi-fetch hands it over with `fetch:
    // auth.fetch`): copying it on every call would cost more than the call itself.
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    if (!onOrigin(request.url, origin)) return baseFetch(request);
    const token = servableToken() ?? (await getAccessToken());
    const sent = bearer(request, token);
    // A stream is read once; buffering one to replay it could hold an upload of any size in memory.
    const replay =
      sent.body === null ? sent : init?.body instanceof ReadableStream ? undefined : sent.clone();
    const response = await baseFetch(sent);
    if (!(await saidExpired(response))) return response;
    const renewed = await renewedAfter(token);
    if (!replay) {
      await response.body?.cancel();
      throw new EngageVoiceAuthError(
        "request_not_replayable",
        "The access token expired and was renewed, but a stream body cannot be sent twice: send the request again",
        { status: 401 },
      );
    }
    return baseFetch(bearer(replay, renewed));
  }

  return {
    getAccessToken,
    refresh: () => acquire(null),
    middleware,
    fetch: authFetch,
    session: () => (tokens ? toSession(tokens) : undefined),
    async logout() {
      generation++;
      tokens = undefined;
      renewal = undefined;
      failures = 0;
      nextAttemptAt = 0;
      await write(() => store.clear());
    },
  };
}

function requireToken(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    throw invalid("rcAccessToken must be a non-empty string or a function that returns one");
  }
  return value;
}

/** A log-safe description: this package's messages hold no secret; foreign ones are not quoted. */
function describe(error: unknown): string {
  return error instanceof EngageVoiceAuthError ? error.message : String(safeCause(error));
}
