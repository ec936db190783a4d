export { type LegacyLoginOptions, legacyLogin } from "./direct-login.js";
export {
  type AuthErrorCode,
  CredentialRejectedError,
  EngageVoiceAuthError,
  ExchangeRejectedError,
  LoginRejectedError,
  NetworkError,
  OriginMismatchError,
  RateLimitedError,
  ReauthRequiredError,
  RefreshRejectedError,
  TransportRefusedError,
  UnexpectedResponseError,
} from "./errors.js";
export type { ExchangeBudget } from "./exchange-limiter.js";
export { ResponseTooLargeError } from "./limited-fetch.js";
export {
  closeDefaults,
  createTokenManager,
  type TokenEvent,
  type TokenManager,
  type TokenManagerOptions,
} from "./manager.js";
export type { TokenObserver, TokenOperation } from "./observer.js";
export {
  type ApiTokenMiddlewareOptions,
  type ApiTokens,
  type ApiTokensByApiToken,
  type ApiTokensOptions,
  apiTokenMiddleware,
  apiTokens,
  type BearerApiTokensOptions,
  type PermanentApiTokensOptions,
} from "./permanent-tokens.js";
export {
  createTenantPool,
  type PoolEvent,
  poolDefaults,
  type SharedManagerOptions,
  type TenantPool,
  type TenantPoolOptions,
} from "./pool.js";
export { type LockHold, memoryStore, type TokenStore } from "./store.js";
export type { LockingRules } from "./store-rules.js";
export { TENANT_PATTERN, TenantMismatchError } from "./tenant.js";
export { fromStored, type Session, type TokenSet } from "./tokens.js";
export type { Clock, FetchLike, Logger } from "./types.js";
