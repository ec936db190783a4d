import { createClient } from "@engage-voice/client";
import { ExchangeRejectedError, RefreshRejectedError } from "./errors.js";
import { limitedFetch } from "./limited-fetch.js";
import { requestInit, tokenRequest } from "./requests.js";
import type { TokenSet } from "./tokens.js";
import type { Clock, FetchLike } from "./types.js";

/** The two token calls of the exchange flow, each answered with a token set or a typed error. */
export function tokenCalls(origin: string, fetch: FetchLike, timeoutMs: number, clock: Clock) {
  const client = createClient({ baseUrl: origin, fetch: limitedFetch(fetch, { timeoutMs }) });
  return {
    /** Exchanges a parent-platform token; the new set's `sequence` is given. */
    exchange: (rcToken: string, sequence: number): Promise<TokenSet> =>
      tokenRequest(
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
        sequence,
      ),
    /** Spends `current`'s refresh token for a new set, which follows it in `sequence`. */
    refresh: (current: TokenSet & { refreshToken: string }): Promise<TokenSet> =>
      tokenRequest(
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
      ),
  };
}
