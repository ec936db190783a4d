import { callLimits, createLegacyClient, isPermanentApiToken, type Middleware } from "@engage-voice/client";
import { defaultBaseUrls, defaultLogger } from "@engage-voice/client/internal";
import { authorize } from "./credential-headers.js";
import { CredentialRejectedError, EngageVoiceAuthError, VERBOSE } from "./errors.js";
import { limitedFetch } from "./limited-fetch.js";
import { callObserverOf, type TokenObserver } from "./observer.js";
import {
  integer,
  invalid,
  optionalFunction,
  optionalObserver,
  optionsOf,
  refuseUnknown,
  requireBase,
  requireClock,
  requireLogger,
  requireToken,
} from "./options.js";
import { failure, globalFetch, requestInit, send } from "./requests.js";
import { checkTransport, originOf } from "./transport-policy.js";
import type { Clock, FetchLike, Logger } from "./types.js";

interface ApiTokensCommonOptions {
  /** `{legacy_base_url}`; defaults to the client's, `https://portal.vacd.biz`. */
  baseUrl?: string;
  fetch?: FetchLike;
  /** Per call, over every try and wait, the headers and the whole body. Default 30 000 ms. */
  timeoutMs?: number;
  /**
   * Further tries of `list` and `delete` after a 408, 429, 5xx or no answer. Default 2; 0 turns it
   * off. `create` is never tried again: it would make a second token.
   */
  maxRetries?: number;
  allowInsecureHttp?: boolean;
  /** Defaults to `Date`; read for `Retry-After` dates. */
  clock?: Clock;
  /** Gets each retry (`warn`) and a line per try (`debug`); defaults to `console`. */
  logger?: Logger;
  /** Told of each call (its `call` hook), for traces and metrics: `openTelemetry()` of `./opentelemetry`. */
  observer?: TokenObserver;
}

/** With a bearer access token (from a login or exchange): every call, creating tokens included. */
export interface BearerApiTokensOptions extends ApiTokensCommonOptions {
  auth: { accessToken: string };
}

/** With a permanent API token (`X-Auth-Token`): listing and deleting only. */
export interface PermanentApiTokensOptions extends ApiTokensCommonOptions {
  auth: { apiToken: string };
}

export type ApiTokensOptions = BearerApiTokensOptions | PermanentApiTokensOptions;

export interface ApiTokens {
  /** Creates a new permanent API token (every call makes another one). */
  create(): Promise<string>;
  /** The user's permanent API tokens. */
  list(): Promise<string[]>;
  /** Deletes a permanent API token; the one authenticating this call may delete itself. */
  delete(token: string): Promise<void>;
}

/**
 * The calls an API token may make. Creating a token needs a bearer access token (the endpoint does
 * not take `X-Auth-Token`), so `create` cannot be called here; at run time it fails with
 * `bearer_required`.
 */
export type ApiTokensByApiToken = Omit<ApiTokens, "create"> & {
  /**
   * Not callable: its `this` type is the reason, which the compiler's error quotes ("The 'this'
   * context … is not assignable to method's 'this' of type 'create needs a bearer access token…'").
   */
  create(
    this: "create needs a bearer access token: apiTokens({ auth: { accessToken } }); an API token (auth.apiToken) can only list and delete",
  ): Promise<never>;
};

const TOKENS = "/voice/api/v1/admin/token";

/**
 * Creates, lists and deletes permanent API tokens on the deprecated host, authenticated with a
 * bearer access token or with an API token (`X-Auth-Token`, list and delete only).
 *
 * @deprecated The deprecated host will stop working at a date not yet announced.
 */
export function apiTokens(options: BearerApiTokensOptions): ApiTokens;
/** @deprecated The deprecated host will stop working at a date not yet announced. */
export function apiTokens(options: PermanentApiTokensOptions): ApiTokensByApiToken;
/** @deprecated The deprecated host will stop working at a date not yet announced. */
export function apiTokens(options: ApiTokensOptions): ApiTokens | ApiTokensByApiToken;
export function apiTokens(options: ApiTokensOptions): ApiTokens | ApiTokensByApiToken {
  const given = optionsOf(options, "apiTokens()", true);
  if (typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined") {
    refuseUnknown(
      given,
      [
        "auth",
        "baseUrl",
        "fetch",
        "timeoutMs",
        "maxRetries",
        "allowInsecureHttp",
        "clock",
        "logger",
        "observer",
      ],
      "apiTokens()",
    );
  }
  const auth = given.auth as Partial<{ accessToken: unknown; apiToken: unknown }> | undefined;
  if (typeof auth !== "object" || auth === null) {
    throw invalid("apiTokens() needs auth.accessToken (a bearer access token) or auth.apiToken");
  }
  const timeoutMs = integer("timeoutMs", given.timeoutMs, 30_000, 1, callLimits.timeoutMs);
  const maxRetries = integer("maxRetries", given.maxRetries, 2, 0, callLimits.maxRetries);
  const fetch = optionalFunction("fetch", given.fetch) ?? globalFetch;
  const clock = requireClock(given.clock);
  const base = requireBase(given.baseUrl, defaultBaseUrls.legacy, given.allowInsecureHttp);
  const byApiToken = "apiToken" in auth;
  const secret = byApiToken
    ? requireToken(auth.apiToken, "auth.apiToken")
    : requireToken(auth.accessToken, "auth.accessToken");
  const credential: [header: "Authorization" | "X-Auth-Token", value: string] = byApiToken
    ? ["X-Auth-Token", secret]
    : ["Authorization", `Bearer ${secret}`];
  const client = createLegacyClient({
    baseUrl: base.origin,
    fetch: limitedFetch(fetch),
    timeoutMs,
    maxRetries,
    clock,
    logger: requireLogger(given.logger, defaultLogger()),
    observer: callObserverOf(optionalObserver(given.observer)),
  });
  client.use({ onRequest: ({ request }) => authorize(request, ...credential) });
  const refused = {
    type: CredentialRejectedError,
    code: "credential_rejected",
    statuses: [401, 403],
    hint: byApiToken
      ? "the API token is unknown or was deleted"
      : "the access token expired or is unknown: log in again",
    notFound: VERBOSE
      ? `permanent API tokens are an operation of the deprecated host, which ${base.origin} does not serve: give apiTokens() that host as baseUrl, such as ${defaultBaseUrls.legacy} (the default)`
      : "",
  } as const;

  /** One call: its answer's data, or the typed error for a failure or an answer the spec does not allow. */
  async function call(
    what: string,
    request: () => ReturnType<typeof send>,
    valid: (data: unknown) => boolean,
    secrets: readonly string[] = [],
  ) {
    const result = await send(what, request);
    if (!result.response.ok || !valid(result.data)) {
      throw failure(what, result, clock.now(), refused, [secret, ...secrets]);
    }
    return result.data;
  }
  const isText = (data: unknown): data is string => typeof data === "string" && data.trim() !== "";

  return {
    async create() {
      if (byApiToken) {
        throw new EngageVoiceAuthError(
          "bearer_required",
          "Creating a permanent API token needs a bearer access token: apiTokens({ auth: { accessToken } }); an API token can only list and delete",
        );
      }
      // A created token is the document's shape, or the answer is unexpected: it will be sent as a header.
      const isToken = (data: unknown) => isText(data) && isPermanentApiToken(data.trim());
      const created = await call("Creating an API token", () => client.POST(TOKENS, requestInit), isToken);
      return (created as string).trim();
    },
    async list() {
      const valid = (data: unknown) => Array.isArray(data) && data.every(isText);
      return (await call("Listing API tokens", () => client.GET(TOKENS, requestInit), valid)) as string[];
    },
    async delete(token: string) {
      const apiToken = requireToken(token, "token");
      if (!isPermanentApiToken(apiToken)) {
        throw invalid("token must be a permanent API token of the shape <prefix>:<uuid>");
      }
      // 200 with the text `true`, or 204 without a body.
      const valid = (data: unknown) => data === undefined || String(data).trim() === "true";
      await call(
        "Deleting an API token",
        () => client.DELETE(`${TOKENS}/{apiToken}`, { params: { path: { apiToken } }, ...requestInit }),
        valid,
        [apiToken],
      );
    },
  } as ApiTokens | ApiTokensByApiToken;
}

export interface ApiTokenMiddlewareOptions {
  /**
   * The only origin the token goes to. Without it, the token goes to the origin of the client the
   * middleware is used on.
   */
  baseUrl?: string;
  allowInsecureHttp?: boolean;
}

/**
 * openapi-fetch middleware that sends a permanent API token as `X-Auth-Token`, and drops any
 * `Authorization`, so the two never go together. It authorises the requests of the client it is
 * used on (`createLegacyClient({ baseUrl }).use(apiTokenMiddleware(token))`); given a `baseUrl`, only
 * requests to that origin, and any other passes without it.
 */
export function apiTokenMiddleware(apiToken: string, options?: ApiTokenMiddlewareOptions): Middleware {
  const value = requireToken(apiToken, "apiToken");
  const given = optionsOf(options, "apiTokenMiddleware()");
  if (typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined") {
    refuseUnknown(given, ["baseUrl", "allowInsecureHttp"], "apiTokenMiddleware()");
  }
  const insecure = given.allowInsecureHttp;
  const fixed = given.baseUrl === undefined ? undefined : requireBase(given.baseUrl, "", insecure).origin;
  if (fixed === undefined) {
    requireBase(undefined, defaultBaseUrls.legacy, insecure);
  }
  return {
    onRequest: ({ request, options: clientOptions }) => {
      const origin = fixed ?? originOf(clientOptions.baseUrl);
      if (originOf(request.url) !== origin) {
        return undefined;
      }
      if (fixed === undefined) {
        checkTransport(new URL(request.url), insecure === true);
      }
      return authorize(request, "X-Auth-Token", value);
    },
  };
}
