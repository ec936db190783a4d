// `@engage-voice/auth/store-kit`: what a token store needs to behave like the ones this project ships
// (the file store, `@engage-voice/store-redis`): one lease loop for its lock, and the same typed
// errors for bad options and failed store calls. Runs wherever the main entry runs.
// A wait a caller awaits (it keeps the process alive), as the token manager's own waits.
export { sleep } from "@engage-voice/client/internal";
export { EngageVoiceAuthError, storeFailed } from "./errors.js";
export { type ExchangeBudget, exchangeLimitDefaults } from "./exchange-limiter.js";
export { FIRST_WAIT_MS, LAST_WAIT_MS, type Lease, type LeaseTiming, withLease } from "./lease.js";
// The rules of a store with a lock, which such a store carries (`{ ...store, lockingRules }`).
export { lockingRules } from "./locking-store.js";
export { integer, invalid as invalidOptions, optionsOf, refuseUnknown, requireText } from "./options.js";
export type { LockHold, TokenStore } from "./store.js";
export type { LockingRules } from "./store-rules.js";
export { requireTenant, TENANT_PATTERN } from "./tenant.js";
export { fromStored, MAX_SEQUENCE, sequenceOf, type TokenSet } from "./tokens.js";
