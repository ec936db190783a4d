import { createClient } from "@engage-voice/client";
import { ExchangeRejectedError, RefreshRejectedError, VERBOSE } from "./errors.js";
import { limitedFetch } from "./limited-fetch.js";
import { requestInit, tokenRequest } from "./requests.js";
import type { TokenSet } from "./tokens.js";
import type { Clock, FetchLike, Logger } from "./types.js";

/** What a refused exchange means, and what to do: said where the refusal is reported. */
export const exchangeHints = {
  refused: VERBOSE
    ? "the RingCentral access token (rcAccessToken) is expired, revoked or not a RingCentral access token: obtain a new one from the RingCentral platform and create the manager with it, or give rcAccessToken as a function that returns a current one"
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
export function tokenCalls(
  origin: string,
  fetch: FetchLike,
  timeoutMs: number,
  clock: Clock,
  logger: Logger,
) {
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
    });
    return made;
  };
  return {
    /** Exchanges a parent-platform token; the new set's `sequence` is given. */
    exchange: (rcToken: string, sequence: number): Promise<TokenSet> =>
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
        },
        [rcToken],
        undefined,
        sequence,
      ),
    /** Spends `current`'s refresh token for a new set, which follows it in `sequence`. */
    refresh: (current: TokenSet & { refreshToken: string }): Promise<TokenSet> =>
      tokenRequest(
        "The token refresh",
        () =>
          client().POST("/api/auth/token/refresh", {
            body: { refresh_token: current.refreshToken, rcTokenType: "Bearer" },
            ...requestInit,
          }),
        clock,
        { type: RefreshRejectedError, code: "refresh_rejected", hint: refreshHint },
        [current.refreshToken, current.accessToken],
        current,
      ),
  };
}
