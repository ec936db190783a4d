// `@engage-voice/auth/internal`, Node-only: what the SDK's other packages share with auth, written
// once here. Not public: no semver promise, any release may change or remove it (README.md,
// "Internal entry"). The command line's fast `engage-voice token` reads the stored session with it,
// under the file store's own checks and the manager's own refresh window, without loading the manager.
export { renewalDefaults, renewalPolicy } from "./renewal-policy.js";
export { isOwnerOnly, lockFileOf, readTokenFile, type TokenFile } from "./token-file.js";
export { obtainedBy, type TokenSet } from "./tokens.js";
