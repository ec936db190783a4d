import { createClient } from "@engage-voice/client";
import { defaultBaseUrls } from "@engage-voice/client/internal";
import { ExchangeRejectedError, RefreshRejectedError, VERBOSE } from "./errors.js";
import { limitedFetch } from "./limited-fetch.js";
import { callObserverOf, observedTokenCall, type TokenObserver } from "./observer.js";
import { requestInit, tokenRequest } from "./requests.js";
import type { TokenSet } from "./tokens.js";
import type { Clock, FetchLike, Logger } from "./types.js";

/**
 * What to check when a host gives no answer: most often a `baseUrl` left out, so that the calls go
 * to the production host the client defaults to, from a network that cannot reach it.
 */
export const noAnswerHint = (origin: string, production: string) =>
  VERBOSE
    ? origin === production
      ? `it went to ${origin}, the production host, which is used when baseUrl is left out: check baseUrl, and that this network reaches that host (proxy, firewall, VPN)`
      : `it went to ${origin} (baseUrl): check that it is the host you mean, and that this network reaches it (proxy, firewall, VPN)`
    : "";

/** What a refused exchange means, and what to do: said where the refusal is reported. */
export const exchangeHints = {
  refused: VERBOSE
    ? "the RingCentral access token (rcAccessToken) is expired, revoked or not a RingCentral access token: obtain a new one from the RingCentral platform and create the manager with it, or give rcAccessToken as a function that returns a current one"
    : "",
  rateLimited: VERBOSE
    ? "a script that runs several times a minute exchanges on every run unless it keeps its session: give it a store that outlives the run, createTokenManager({ tenant, store: fileStore(path) }) with fileStore from @engage-voice/auth/node"
    : "",
  /** With a store already: sessions are kept, so other managers of the same user are spending the limit. */
  rateLimitedShared: VERBOSE
    ? "other managers exchange for the same user (other processes, or a session lost from the store); a tenant pool's exchangeBudget shares one budget between them"
    : "",
  missing: (origin: string) =>
    VERBOSE
      ? `${origin} has no token exchange: if it is the deprecated login host, use legacyLogin() and createLegacyClient(); the exchange is on the contact-center host, such as https://engage.ringcentral.com`
      : "",
};

/** What a refused refresh means, and what to do. */
export const refreshHint = VERBOSE
  ? "the refresh token is unknown, expired or already spent (a token set obtained without includeRefresh=true has none): the manager exchanges the parent token again"
  : "";

/**
 * The two token calls of the exchange flow, each answered with a token set or a typed error. The
 * cycler decides on retries, so the client tries once.
 */
export function tokenCalls({
  origin,
  fetch,
  timeoutMs,
  clock,
  logger,
  stored = false,
  observer,
  tenant,
}: {
  origin: string;
  fetch: FetchLike;
  timeoutMs: number;
  clock: Clock;
  logger: Logger;
  /** Whether the session is kept in a store of the user's: then keeping it is not the advice. */
  stored?: boolean;
  /** Told of each token call, and of its HTTP request as of any other call. */
  observer?: TokenObserver | undefined;
  tenant: string;
}) {
  // Created on the first token call: openapi-fetch reads the global fetch and Request when a client is
  // made, which makes Node load its fetch implementation; a manager resuming a valid stored session
  // (`engage-voice token`) sends nothing and should not pay for that.
  let made: ReturnType<typeof createClient> | undefined;
  const client = () => {
    made ??= createClient({
      baseUrl: origin,
      fetch: limitedFetch(fetch),
      timeoutMs,
      maxRetries: 0,
      logger,
      clock,
      observer: callObserverOf(observer),
    });
    return made;
  };
  const observed = <R>(operation: "exchange" | "refresh", run: () => Promise<R>) =>
    observedTokenCall(observer, { operation, tenant }, run);
  return {
    /** Exchanges a parent-platform token; the new set's `sequence` is given. */
    exchange: (rcToken: string, sequence: number): Promise<TokenSet> =>
      observed("exchange", () =>
        tokenRequest(
          "The token exchange",
          () =>
            client().POST("/api/auth/login/rc/accesstoken", {
              params: { query: { includeRefresh: true } },
              body: { rcAccessToken: rcToken, rcTokenType: "Bearer" },
              ...requestInit,
            }),
          clock,
          {
            type: ExchangeRejectedError,
            code: "exchange_rejected",
            hint: exchangeHints.refused,
            notFound: exchangeHints.missing(origin),
            rateLimited: stored ? exchangeHints.rateLimitedShared : exchangeHints.rateLimited,
            noAnswer: noAnswerHint(origin, defaultBaseUrls.main),
          },
          [rcToken],
          undefined,
          sequence,
        ),
      ),
    /** Spends `current`'s refresh token for a new set, which follows it in `sequence`. */
    refresh: (current: TokenSet & { refreshToken: string }): Promise<TokenSet> =>
      observed("refresh", () =>
        tokenRequest(
          "The token refresh",
          () =>
            client().POST("/api/auth/token/refresh", {
              body: { refresh_token: current.refreshToken, rcTokenType: "Bearer" },
              ...requestInit,
            }),
          clock,
          {
            type: RefreshRejectedError,
            code: "refresh_rejected",
            hint: refreshHint,
            noAnswer: noAnswerHint(origin, defaultBaseUrls.main),
          },
          [current.refreshToken, current.accessToken],
          current,
        ),
      ),
  };
}
