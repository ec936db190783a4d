// `@engage-voice/client/internal`: what the SDK's other packages (auth, cli, sandbox) share with the
// client, written once here. Not public: no semver promise, any release may change or remove it
// (README.md, "Internal entry"). Users import from `@engage-voice/client`.
export { backoffDelay, type CallPolicy, defaultLogger, runCall, sleep, TRY_LINE } from "./call-policy.js";
export { editDistance } from "./edit-distance.js";
export { quotableErrorCode } from "./error-code.js";
export { defaultBaseUrls, formOperations } from "./generated/hosts.js";
export { GUARDED } from "./media-types.js";
export { callPolicyOf, unknownOption } from "./options.js";
export { checkOrigin } from "./origin.js";
