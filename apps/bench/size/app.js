// What an app of the exchange flow imports: esbuild drops the rest (legacy login, API tokens).

export { createTokenManager } from "@engage-voice/auth";
export { createClient } from "@engage-voice/client";
