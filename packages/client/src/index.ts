import type { Client, ClientOptions } from "openapi-fetch";
import * as openapiFetch from "openapi-fetch";
import { defaultBaseUrls, type LegacyPath, type MainPath } from "./generated/hosts.js";
import type { components, paths } from "./generated/schema.js";
import { applyMediaTypes } from "./media-types.js";

export type { Client, ClientOptions, Middleware } from "openapi-fetch";
export { encodeForm, parseBody, ResponseParseError } from "./body.js";
export {
  defaultBaseUrls,
  type LegacyPath,
  type MainPath,
  type OperationId,
  operationTable,
} from "./generated/hosts.js";
export type { components, operations, paths } from "./generated/schema.js";
export { type Operation, operation } from "./operation.js";
export { pathTemplateOf } from "./path-templates.js";

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

/**
 * Raised for options that cannot work, before any request is made. `code` is `invalid_options`, as
 * `@engage-voice/auth`'s option errors: one check covers both packages. The message names the option
 * and what it accepts, and never quotes a credential.
 */
export class ClientOptionsError extends TypeError {
  override readonly name = "ClientOptionsError";
  readonly code = "invalid_options";
}

/**
 * The origin of a base URL. The document's paths start at the host root, so a path, query or
 * fragment would send the bearer token to a wrong place on the host; a user name or password would
 * make every later call fail with a fetch error that quotes it.
 */
function resolveBaseUrl(options: unknown, fallback: string): string {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new ClientOptionsError("The client's options must be an object, such as { baseUrl }");
  }
  const { baseUrl } = options as ClientOptions;
  if (baseUrl !== undefined && typeof baseUrl !== "string") {
    throw new ClientOptionsError("baseUrl must be a string such as https://engage.ringcentral.com");
  }
  const value = baseUrl ?? fallback;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ClientOptionsError("baseUrl must be an absolute URL such as https://engage.ringcentral.com");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ClientOptionsError(`baseUrl must use https: or http:, not ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new ClientOptionsError(
      `baseUrl must not contain a username or password: give the origin alone, such as ${url.origin}, and send credentials in headers`,
    );
  }
  // An empty query or fragment (`https://host/?`) leaves `search` and `hash` empty: the text shows it.
  if (url.pathname !== "/" || url.search || url.hash || /[?#]/.test(value)) {
    throw new ClientOptionsError(
      `baseUrl must be an origin without a path, query or fragment, such as ${url.origin}: the API's paths start at the host root`,
    );
  }
  return url.origin;
}

/**
 * A typed openapi-fetch client for the contact-center host (`{base_url}`): token exchange, refresh,
 * accounts and users. `baseUrl` defaults to `https://engage.ringcentral.com`; every other
 * openapi-fetch option passes through.
 */
export function createClient(options: ClientOptions = {}): EngageVoiceClient {
  const baseUrl = resolveBaseUrl(options, defaultBaseUrls.main);
  return applyMediaTypes(createOpenApiClient<MainPaths>({ ...options, baseUrl }));
}

/**
 * A typed openapi-fetch client for the deprecated login host (`{legacy_base_url}`): direct login and
 * permanent API tokens. `baseUrl` defaults to `https://portal.vacd.biz`.
 *
 * @deprecated The deprecated host will stop working at a date not yet announced; use
 * {@link createClient} with the token exchange.
 */
export function createLegacyClient(options: ClientOptions = {}): LegacyClient {
  const baseUrl = resolveBaseUrl(options, defaultBaseUrls.legacy);
  return applyMediaTypes(createOpenApiClient<LegacyPaths>({ ...options, baseUrl }));
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
