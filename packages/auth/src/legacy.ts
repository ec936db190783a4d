import { createLegacyClient, defaultBaseUrls, type Middleware } from "@engage-voice/client";
import { LoginRejectedError } from "./errors.js";
import { consoleLogger, failure, globalFetch, requestInit, send, tokenRequest } from "./requests.js";
import type { TokenSet } from "./tokens.js";
import { authorize, originOf, requireText, resolveBase } from "./transport.js";
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
}

const TOKENS = "/voice/api/v1/admin/token";
const WARNED = Symbol.for("@engage-voice/auth.legacy-login-warned");

/**
 * Logs in with username, password and platform ID on the deprecated host. The password goes in the
 * query string, as the endpoint demands, percent-encoded; it is not kept once this returns.
 *
 * @deprecated The deprecated host will stop working at a date not yet announced: use
 * {@link createTokenManager} with the token exchange.
 */
export async function legacyLogin(options: LegacyLoginOptions): Promise<TokenSet> {
  const { logger = consoleLogger, clock = Date, timeoutMs = 30_000 } = options;
  const flags = globalThis as { [WARNED]?: boolean };
  if (!flags[WARNED]) {
    flags[WARNED] = true;
    logger.warn?.(
      "legacyLogin() uses the deprecated host, which will stop working at a date not yet announced: use createTokenManager()",
    );
  }
  const base = resolveBase(options.baseUrl, defaultBaseUrls.legacy, options.allowInsecureHttp);
  const query = {
    username: requireText(options.username, "username"),
    password: requireText(options.password, "password"),
    platformId: requireText(options.platformId, "platformId"),
  };
  const client = createLegacyClient({ baseUrl: base.href, fetch: options.fetch ?? globalFetch });
  const tokens = await tokenRequest(
    "The direct login",
    () => client.POST("/api/auth/login/admin", { params: { query }, ...requestInit(timeoutMs) }),
    clock,
    { type: LoginRejectedError, code: "login_rejected" },
  );
  await options.onTokens?.(tokens);
  return tokens;
}

export interface ApiTokensOptions {
  /** `{legacy_base_url}`; defaults to the client's, `https://portal.vacd.biz`. */
  baseUrl?: string;
  /** A bearer access token (from a login or exchange), or a permanent API token. */
  auth: { accessToken: string } | { apiToken: string };
  fetch?: FetchLike;
  timeoutMs?: number;
  allowInsecureHttp?: boolean;
}

export interface ApiTokens {
  /** Creates a new permanent API token (every call makes another one). */
  create(): Promise<string>;
  /** The user's permanent API tokens. */
  list(): Promise<string[]>;
  /** Deletes a permanent API token; the one authenticating this call may delete itself. */
  delete(token: string): Promise<void>;
}

/**
 * Creates, lists and deletes permanent API tokens on the deprecated host, authenticated with a
 * bearer access token or with an API token (`X-Auth-Token`).
 *
 * @deprecated The deprecated host will stop working at a date not yet announced.
 */
export function apiTokens(options: ApiTokensOptions): ApiTokens {
  const { auth, timeoutMs = 30_000 } = options;
  const base = resolveBase(options.baseUrl, defaultBaseUrls.legacy, options.allowInsecureHttp);
  const credential: [header: "Authorization" | "X-Auth-Token", value: string] =
    auth && "apiToken" in auth
      ? ["X-Auth-Token", requireText(auth.apiToken, "auth.apiToken")]
      : ["Authorization", `Bearer ${requireText(auth?.accessToken, "auth.accessToken")}`];
  const client = createLegacyClient({ baseUrl: base.href, fetch: options.fetch ?? globalFetch });
  client.use({ onRequest: ({ request }) => authorize(request, ...credential) });
  const init = () => requestInit(timeoutMs);

  /** One call: its answer's data, or the typed error for a failure or an answer the spec does not allow. */
  async function call(
    what: string,
    request: () => ReturnType<typeof send>,
    valid: (data: unknown) => boolean,
  ) {
    const result = await send(what, request);
    if (!result.response.ok || !valid(result.data)) throw failure(what, result, Date.now());
    return result.data;
  }
  const isText = (data: unknown): data is string => typeof data === "string" && data.trim() !== "";

  return {
    async create() {
      const created = await call("Creating an API token", () => client.POST(TOKENS, init()), isText);
      return (created as string).trim();
    },
    async list() {
      const valid = (data: unknown) => Array.isArray(data) && data.every(isText);
      return (await call("Listing API tokens", () => client.GET(TOKENS, init()), valid)) as string[];
    },
    async delete(token) {
      const apiToken = requireText(token, "token");
      // 200 with the text `true`, or 204 without a body.
      const valid = (data: unknown) => data === undefined || String(data).trim() === "true";
      await call(
        "Deleting an API token",
        () => client.DELETE(`${TOKENS}/{apiToken}`, { params: { path: { apiToken } }, ...init() }),
        valid,
      );
    },
  };
}

export interface ApiTokenMiddlewareOptions {
  /** The only origin the token goes to; defaults to the client's default legacy host, `https://portal.vacd.biz`. */
  baseUrl?: string;
  allowInsecureHttp?: boolean;
}

/**
 * openapi-fetch middleware that sends a permanent API token as `X-Auth-Token` on every request to
 * one origin (`baseUrl`), and drops any `Authorization`, so the two never go together. Requests to
 * any other origin pass without it.
 */
export function apiTokenMiddleware(apiToken: string, options: ApiTokenMiddlewareOptions = {}): Middleware {
  const value = requireText(apiToken, "apiToken");
  const { origin } = resolveBase(options.baseUrl, defaultBaseUrls.legacy, options.allowInsecureHttp);
  return {
    onRequest: ({ request }) =>
      originOf(request.url) === origin ? authorize(request, "X-Auth-Token", value) : undefined,
  };
}
