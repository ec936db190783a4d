import { callLimits, createLegacyClient } from "@engage-voice/client";
import { defaultBaseUrls, defaultLogger } from "@engage-voice/client/internal";
import { LoginRejectedError, VERBOSE } from "./errors.js";
import { limitedFetch } from "./limited-fetch.js";
import { callObserverOf, observedTokenCall, type TokenObserver } from "./observer.js";
import {
  integer,
  optionalFunction,
  optionalObserver,
  optionsOf,
  refuseUnknown,
  requireBase,
  requireClock,
  requireLogger,
  requireText,
} from "./options.js";
import { globalFetch, requestInit, tokenRequest } from "./requests.js";
import { noAnswerHint } from "./token-calls.js";
import type { TokenSet } from "./tokens.js";
import type { Clock, FetchLike, Logger } from "./types.js";

export interface LegacyLoginOptions {
  /** `{legacy_base_url}`; defaults to the client's, `https://portal.vacd.biz`. */
  baseUrl?: string;
  username: string;
  password: string;
  platformId: string;
  fetch?: FetchLike;
  /** Called with the new token set before it is returned. */
  onTokens?: (tokens: TokenSet) => void | Promise<void>;
  /** Gets the deprecation warning; defaults to `console`. */
  logger?: Logger;
  clock?: Clock;
  timeoutMs?: number;
  allowInsecureHttp?: boolean;
  /** Told of the login (its `tokenCall` and `call` hooks), for traces and metrics: `openTelemetry()` of `./opentelemetry`. */
  observer?: TokenObserver;
}

const WARNED = Symbol.for("@engage-voice/auth.legacy-login-warned");

/**
 * Logs in with username, password and platform ID on the deprecated host. The password goes in the
 * query string, as the endpoint demands, percent-encoded; it is not kept once this returns.
 *
 * @deprecated The deprecated host will stop working at a date not yet announced: use
 * {@link createTokenManager} with the token exchange.
 */
export async function legacyLogin(options: LegacyLoginOptions): Promise<TokenSet> {
  const given = optionsOf(options, "legacyLogin()", true);
  if (typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined") {
    refuseUnknown(
      given,
      [
        "baseUrl",
        "username",
        "password",
        "platformId",
        "fetch",
        "onTokens",
        "logger",
        "clock",
        "timeoutMs",
        "allowInsecureHttp",
        "observer",
      ],
      "legacyLogin()",
    );
  }
  const logger = requireLogger(given.logger, defaultLogger());
  const clock = requireClock(given.clock);
  const timeoutMs = integer("timeoutMs", given.timeoutMs, 30_000, 1, callLimits.timeoutMs);
  const onTokens = optionalFunction("onTokens", given.onTokens);
  const fetch = optionalFunction("fetch", given.fetch) ?? globalFetch;
  const observer = optionalObserver(given.observer);
  const flags = globalThis as { [WARNED]?: boolean };
  if (!flags[WARNED]) {
    flags[WARNED] = true;
    logger.warn?.(
      "legacyLogin() uses the deprecated host, which will stop working at a date not yet announced: use createTokenManager()",
    );
  }
  const base = requireBase(given.baseUrl, defaultBaseUrls.legacy, given.allowInsecureHttp);
  const query = {
    username: requireText(given.username, "username"),
    password: requireText(given.password, "password"),
    platformId: requireText(given.platformId, "platformId"),
  };
  const client = createLegacyClient({
    baseUrl: base.origin,
    fetch: limitedFetch(fetch),
    timeoutMs,
    maxRetries: 0,
    logger,
    clock,
    observer: callObserverOf(observer),
  });
  const tokens = await observedTokenCall(observer, { operation: "legacy_login", tenant: undefined }, () =>
    tokenRequest(
      "The direct login",
      () => client.POST("/api/auth/login/admin", { params: { query }, ...requestInit }),
      clock,
      {
        type: LoginRejectedError,
        code: "login_rejected",
        hint: VERBOSE
          ? "the deprecated host did not accept the username, password and platformId given: check all three"
          : "",
        noAnswer: noAnswerHint(base.origin, defaultBaseUrls.legacy),
        notFound: VERBOSE
          ? `${base.origin} has no direct login: it lives on the deprecated host, such as ${defaultBaseUrls.legacy}; on the contact-center host, use createTokenManager() and the token exchange`
          : "",
      },
      [query.password, query.username],
    ),
  );
  await onTokens?.(tokens);
  return tokens;
}
