export {
  EngageVoiceAuthError,
  ExchangeRejectedError,
  LoginRejectedError,
  NetworkError,
  RateLimitedError,
  ReauthRequiredError,
  RefreshRejectedError,
  TransportRefusedError,
  UnexpectedResponseError,
} from "./errors.js";
export {
  type ApiTokenMiddlewareOptions,
  type ApiTokens,
  type ApiTokensOptions,
  apiTokenMiddleware,
  apiTokens,
  type LegacyLoginOptions,
  legacyLogin,
} from "./legacy.js";
export { createTokenManager, type TokenManager, type TokenManagerOptions } from "./manager.js";
export { memoryStore, type TokenStore } from "./store.js";
export { fromStored, type Session, type TokenSet } from "./tokens.js";
export type { Clock, FetchLike, Logger } from "./types.js";
