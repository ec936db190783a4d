import type { Client, ClientOptions } from "openapi-fetch";
import * as openapiFetch from "openapi-fetch";
import { defaultBaseUrls, type LegacyPath, type MainPath } from "./generated/hosts.js";
import type { components, paths } from "./generated/schema.js";
import { applyMediaTypes } from "./media-types.js";
import {
  ClientOptionsError,
  callPolicyOf,
  type PolicyOptions,
  resolveBaseUrl,
  unknownOption,
} from "./options.js";

// The public entry: what users call and name. What the SDK's other packages share with the client is
// `./internal.ts` (`@engage-voice/client/internal`, no semver promise).
export type { Client, Middleware } from "openapi-fetch";
export { isPermanentApiToken } from "./api-token.js";
export { MAX_ANSWER_BYTES, ResponseParseError } from "./body.js";
export {
  type CallObserver,
  type CallOptions,
  type CallTrace,
  callDefaults,
  idempotentMethods,
  type Logger,
  type ObservedCall,
  RequestTimeoutError,
  retriedStatuses,
  type Sleep,
} from "./call-policy.js";
export { type HttpMethod, httpMethods, type OperationId, operationTable } from "./generated/hosts.js";
export type { components, operations, paths } from "./generated/schema.js";
export { type Operation, operation } from "./operation.js";
export { ClientOptionsError, callLimits } from "./options.js";
export { pathTemplateOf, printablePath } from "./path-templates.js";
export { retryAfterMs } from "./retry-after.js";
export {
  ApiResponseError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  type DataOf,
  errorOf,
  NotFoundError,
  orThrow,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
} from "./throwing.js";

type Schemas = components["schemas"];

type CreateOpenApiClient = typeof openapiFetch.default;
// openapi-fetch's CommonJS build sets `exports.default`, but this package's CommonJS build reads a
// default import as Node's ESM does (the whole `module.exports`): one level too shallow there.
const createOpenApiClient: CreateOpenApiClient =
  typeof openapiFetch.default === "function"
    ? openapiFetch.default
    : (openapiFetch.default as unknown as { default: CreateOpenApiClient }).default;
/** Returned by the token exchange, the refresh and the direct login. */
export type TokenResponse = Schemas["TokenResponse"];
/** The token response of a refresh: always with a new refresh token. */
export type RefreshedTokenResponse = Schemas["RefreshedTokenResponse"];
export type AgentDetail = Schemas["AgentDetail"];
/** An account record (observed fields, all optional). */
export type Account = Schemas["Account"];
/** A user record (observed fields, all optional). */
export type User = Schemas["User"];
/** The platform's JSON error body (observed). */
export type ApiError = Schemas["ApiError"];
/** A permanent API token, `<prefix>:<uuid>`. */
export type PermanentApiToken = Schemas["PermanentApiToken"];

/** The operations of the contact-center host, `{base_url}`. */
export type MainPaths = Pick<paths, MainPath>;
/** The operations of the deprecated login host, `{legacy_base_url}`. */
export type LegacyPaths = Pick<paths, LegacyPath>;
export type EngageVoiceClient = Client<MainPaths>;
export type LegacyClient = Client<LegacyPaths>;

/** Every option `createClient` and `createLegacyClient` take: openapi-fetch's, fetch's own, the call policy's. */
const clientOptionNames = [
  "baseUrl",
  "fetch",
  "Request",
  "headers",
  "querySerializer",
  "bodySerializer",
  "pathSerializer",
  "requestInitExt",
  "cache",
  "credentials",
  "integrity",
  "keepalive",
  "mode",
  "priority",
  "redirect",
  "referrer",
  "referrerPolicy",
  "signal",
  "window",
  "duplex",
  "dispatcher",
  "timeoutMs",
  "maxRetries",
  "logger",
  "clock",
  "sleep",
  "random",
  "observer",
] as const;

/** openapi-fetch's options, and the call policy: `timeoutMs`, `maxRetries`, `logger` and test hooks. */
export type EngageVoiceClientOptions = ClientOptions & PolicyOptions;

function build<P extends {}>(options: EngageVoiceClientOptions, fallback: string, call: string): Client<P> {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new ClientOptionsError("The client's options must be an object, such as { baseUrl }");
  }
  if (typeof __ENGAGE_VOICE_PRODUCTION__ === "undefined") {
    const unknown = unknownOption(options, clientOptionNames, call);
    if (unknown) {
      throw new ClientOptionsError(unknown);
    }
  }
  const { timeoutMs, maxRetries, logger, clock, sleep, random, observer, signal, ...rest } = options;
  const policy = callPolicyOf({
    timeoutMs,
    maxRetries,
    logger,
    clock,
    sleep,
    random,
    observer,
  } as PolicyOptions);
  const baseUrl = resolveBaseUrl(options.baseUrl, fallback);
  // Looked up on each call, as openapi-fetch does when it is given none: a fetch installed later counts.
  const fetch = rest.fetch ?? ((request: Request, init?: RequestInit) => globalThis.fetch(request, init));
  // A credential never follows a redirect, which could send it to another host: set once here, so
  // no middleware has to copy each request to say so. The client's signal is followed by each call's.
  return applyMediaTypes(createOpenApiClient<P>({ redirect: "manual", ...rest, baseUrl }), policy, {
    fetch: fetch as (request: Request, init?: RequestInit) => Promise<Response>,
    signal: signal ?? undefined,
    origin: baseUrl,
  });
}

/**
 * A typed openapi-fetch client for the contact-center host (`{base_url}`): token exchange, refresh,
 * accounts and users. `baseUrl` defaults to `https://engage.ringcentral.com`; every other
 * openapi-fetch option passes through.
 */
export function createClient(options: EngageVoiceClientOptions = {}): EngageVoiceClient {
  return build<MainPaths>(options, defaultBaseUrls.main, "createClient()");
}

/**
 * A typed openapi-fetch client for the deprecated login host (`{legacy_base_url}`): direct login and
 * permanent API tokens. `baseUrl` defaults to `https://portal.vacd.biz`.
 *
 * @deprecated The deprecated host will stop working at a date not yet announced; use
 * {@link createClient} with the token exchange.
 */
export function createLegacyClient(options: EngageVoiceClientOptions = {}): LegacyClient {
  return build<LegacyPaths>(options, defaultBaseUrls.legacy, "createLegacyClient()");
}

/** Narrows an `error` of a call to the platform's JSON error body. */
export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as ApiError).errorCode === "string" &&
    typeof (value as ApiError).generalMessage === "string"
  );
}
